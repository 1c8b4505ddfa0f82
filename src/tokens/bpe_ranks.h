// The rank table of a byte-level BPE vocabulary: token bytes <-> rank (= token id).
// Internal to the tokens stage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace revsum::tokens_internal {

inline constexpr uint32_t kNoRank = UINT32_MAX;

// An open-addressing hash table keyed by byte strings, built once, then read-only (safe to read
// from many threads). All token bytes live in one arena, so a lookup touches one slot array and
// the arena only.
class BpeRanks {
 public:
  // Appends the token with the next rank (ranks are dense: 0, 1, 2, ...).
  void Add(std::string_view bytes);
  // Builds the hash index. REQUIRES: every Add happened before, and no token was added twice.
  void Finish();

  // The rank of `bytes`, or kNoRank.
  uint32_t Find(std::string_view bytes) const {
    uint64_t mask = slots_.size() - 1;
    for (uint64_t i = Hash(bytes) & mask;; i = (i + 1) & mask) {
      uint32_t slot = slots_[i];
      if (slot == 0) return kNoRank;
      uint32_t rank = slot - 1;
      if (Bytes(rank) == bytes) return rank;
    }
  }
  std::string_view Bytes(uint32_t rank) const {
    return std::string_view(arena_).substr(offsets_[rank], offsets_[rank + 1] - offsets_[rank]);
  }
  size_t size() const { return offsets_.size() - 1; }

  static uint64_t Hash(std::string_view s);

 private:
  std::string arena_;
  std::vector<uint32_t> offsets_{0};  // token r is arena_[offsets_[r], offsets_[r+1])
  std::vector<uint32_t> slots_;       // rank + 1, or 0 for an empty slot
};

// Appends the BPE ids of one pre-tokenized piece to *ids: the whole piece when it is a token,
// else the lowest-rank adjacent pair is merged repeatedly (leftmost on ties) until no pair is a
// token — tiktoken's byte_pair_encode. Short pieces use the O(n^2) scan, long ones (Chinese runs
// without punctuation are hundreds of bytes) the O(n log n) heap; both give identical ids.
// REQUIRES: piece is non-empty; every single byte is a token.
void BytePairEncode(const BpeRanks& ranks, std::string_view piece, std::vector<uint32_t>* ids);

// The two merge strategies, exposed so tests can check they agree. Same contract as above, but
// without the whole-piece lookup.
void BytePairMergeByScan(const BpeRanks& ranks, std::string_view piece, std::vector<uint32_t>* ids);
void BytePairMergeByHeap(const BpeRanks& ranks, std::string_view piece, std::vector<uint32_t>* ids);

// Pieces of at least this many bytes use BytePairMergeByHeap.
inline constexpr size_t kHeapMergeMinBytes = 48;

}  // namespace revsum::tokens_internal
