#include "bpe_ranks.h"

#include <algorithm>
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
  if (piece.size() >= kHeapMergeMinBytes) {
    BytePairMergeByHeap(ranks, piece, ids);
  } else {
    BytePairMergeByScan(ranks, piece, ids);
  }
}

void BytePairMergeByScan(const BpeRanks& ranks, std::string_view piece,
                         std::vector<uint32_t>* ids) {
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

namespace {

// A candidate merge of the part starting at byte `left` with the part that ends at `right_end`.
struct Candidate {
  uint32_t rank;
  uint32_t left;
  uint32_t right_end;
  // Min-heap order: lowest rank first, then leftmost — the scan's choice.
  bool operator<(const Candidate& o) const {
    return rank != o.rank ? rank > o.rank : left > o.left;
  }
};

}  // namespace

void BytePairMergeByHeap(const BpeRanks& ranks, std::string_view piece,
                         std::vector<uint32_t>* ids) {
  // Parts form a linked list indexed by their first byte; a part keeps its index when it absorbs
  // its right neighbour. Heap entries go stale when either side has merged since; they are
  // recognised (the left part is gone or no longer ends where the right part began) and skipped.
  constexpr uint32_t kNone = UINT32_MAX;
  thread_local std::vector<uint32_t> end, next, prev;
  thread_local std::vector<Candidate> heap;
  const uint32_t n = static_cast<uint32_t>(piece.size());
  end.resize(n);
  next.resize(n);
  prev.resize(n);
  heap.clear();
  for (uint32_t i = 0; i < n; ++i) {
    end[i] = i + 1;
    next[i] = i + 1 < n ? i + 1 : kNone;
    prev[i] = i > 0 ? i - 1 : kNone;
  }
  auto push = [&](uint32_t left, uint32_t right_end) {
    uint32_t rank = ranks.Find(piece.substr(left, right_end - left));
    if (rank == kNoRank) return;
    heap.push_back({rank, left, right_end});
    std::push_heap(heap.begin(), heap.end());
  };
  for (uint32_t i = 0; i + 1 < n; ++i) push(i, i + 2);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    Candidate c = heap.back();
    heap.pop_back();
    uint32_t right = end[c.left] < n ? end[c.left] : kNone;
    // Stale: `left` was absorbed (end == 0 marks that), or it or its neighbour changed size.
    if (end[c.left] == 0 || right == kNone || next[c.left] != right || end[right] != c.right_end) {
      continue;
    }
    end[c.left] = c.right_end;
    end[right] = 0;
    next[c.left] = next[right];
    if (next[right] != kNone) prev[next[right]] = c.left;
    if (prev[c.left] != kNone) push(prev[c.left], c.right_end);
    if (next[c.left] != kNone) push(c.left, end[next[c.left]]);
  }
  for (uint32_t i = 0; i != kNone; i = next[i]) {
    ids->push_back(ranks.Find(piece.substr(i, end[i] - i)));
  }
}

}  // namespace revsum::tokens_internal
