// Specification of the BPE merge: the O(n^2) scan and the heap give the same parts, including
// on ties between equal-rank pairs, where the leftmost pair merges first.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/tokens/bpe_ranks.h"

namespace revsum::tokens_internal {
namespace {

// 256 single bytes, then merges over the alphabet "abc" (ranks in this order).
BpeRanks SmallVocabulary() {
  BpeRanks ranks;
  for (int b = 0; b < 256; ++b) ranks.Add(std::string(1, static_cast<char>(b)));
  for (const char* t :
       {"aa", "ab", "bc", "ca", "aaa", "abc", "cab", "aab", "bcc", "aaaa", "abca"}) {
    ranks.Add(t);
  }
  ranks.Finish();
  return ranks;
}

std::vector<std::string> Parts(const BpeRanks& ranks, const std::vector<uint32_t>& ids) {
  std::vector<std::string> parts;
  for (uint32_t id : ids) parts.emplace_back(ranks.Bytes(id));
  return parts;
}

TEST(BpeMergeTest, LeftmostOfEqualRanksMergesFirst) {
  BpeRanks ranks = SmallVocabulary();
  std::vector<uint32_t> scan, heap;
  BytePairMergeByScan(ranks, "aaaaa", &scan);
  BytePairMergeByHeap(ranks, "aaaaa", &heap);
  // a|a|a|a|a: four "aa" pairs tie; the leftmost merges: aa|a|a|a. The remaining "aa" (rank 256)
  // beats "aaa" (260): aa|aa|a. Then "aaa" (260) beats "aaaa" (265): aa|aaa.
  EXPECT_EQ(Parts(ranks, scan), (std::vector<std::string>{"aa", "aaa"}));
  EXPECT_EQ(heap, scan);
}

TEST(BpeMergeTest, ScanAndHeapAgreeOnRandomStrings) {
  BpeRanks ranks = SmallVocabulary();
  uint64_t state = 0x2545F4914F6CDD1Dull;  // xorshift64, fixed seed
  for (int n = 0; n < 3000; ++n) {
    std::string piece;
    size_t length = 1 + n % 200;
    for (size_t i = 0; i < length; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      piece.push_back("abc"[state % 3]);
    }
    std::vector<uint32_t> scan, heap;
    BytePairMergeByScan(ranks, piece, &scan);
    BytePairMergeByHeap(ranks, piece, &heap);
    ASSERT_EQ(heap, scan) << piece;
  }
}

TEST(BpeMergeTest, BytesWithoutMergesStayApart) {
  BpeRanks ranks = SmallVocabulary();
  std::vector<uint32_t> ids;
  BytePairEncode(ranks, std::string(60, 'z'), &ids);
  EXPECT_EQ(ids, std::vector<uint32_t>(60, static_cast<uint32_t>('z')));
}

}  // namespace
}  // namespace revsum::tokens_internal
