#include "bpe_ranks.h"

#include <cstring>
#include <utility>

namespace revsum::tokens_internal {

void BpeRanks::Add(std::string_view bytes) {
  arena_.append(bytes);
  offsets_.push_back(static_cast<uint32_t>(arena_.size()));
}

void BpeRanks::Finish() {
  size_t capacity = 16;
  while (capacity < 2 * size()) capacity *= 2;  // load factor <= 0.5
  slots_.assign(capacity, 0);
  uint64_t mask = capacity - 1;
  for (uint32_t rank = 0; rank < size(); ++rank) {
    uint64_t i = Hash(Bytes(rank)) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = rank + 1;
  }
}

// A multiply-xorshift hash over 8-byte words; token strings are short (mostly < 16 bytes).
uint64_t BpeRanks::Hash(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = s.size() * kMul;
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

namespace {

struct Part {
  uint32_t start;  // byte offset of the part in the piece
  uint32_t rank;   // rank of this part merged with the next one, or kNoRank
};

}  // namespace

void BytePairEncode(const BpeRanks& ranks, std::string_view piece, std::vector<uint32_t>* ids) {
  if (uint32_t whole = ranks.Find(piece); whole != kNoRank) {
    ids->push_back(whole);
    return;
  }
  // parts[0..m) are the current parts; parts[m] is a sentinel holding the piece's end. The loop
  // is tiktoken's O(n·m) merge: find the leftmost lowest rank, merge, re-rank the two neighbours.
  thread_local std::vector<Part> parts;
  size_t n = piece.size();
  parts.resize(n + 1);
  for (size_t i = 0; i + 1 < n; ++i) {
    parts[i] = {static_cast<uint32_t>(i), ranks.Find(piece.substr(i, 2))};
  }
  parts[n - 1] = {static_cast<uint32_t>(n - 1), kNoRank};
  parts[n] = {static_cast<uint32_t>(n), kNoRank};
  size_t m = n;  // number of parts
  // The rank of parts i and i+1 and i+2 joined, i.e. of the pair (i, i+1) after (i+1, i+2) merge.
  auto rank_after_merge = [&](size_t i) -> uint32_t {
    if (i + 3 > m) return kNoRank;
    return ranks.Find(piece.substr(parts[i].start, parts[i + 3].start - parts[i].start));
  };
  while (m > 1) {
    uint32_t best = kNoRank;
    size_t at = 0;
    for (size_t i = 0; i + 1 < m; ++i) {
      if (parts[i].rank < best) {
        best = parts[i].rank;
        at = i;
      }
    }
    if (best == kNoRank) break;
    parts[at].rank = rank_after_merge(at);
    if (at > 0) parts[at - 1].rank = rank_after_merge(at - 1);
    parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(at) + 1);
    --m;
  }
  for (size_t i = 0; i < m; ++i) {
    ids->push_back(ranks.Find(piece.substr(parts[i].start, parts[i + 1].start - parts[i].start)));
  }
}

}  // namespace revsum::tokens_internal
