// LexicalEmbedder keeps the features of a batch's last sentences for the next batch (the seed
// sentences SummarizeScope appends to every scope); an embedding must not depend on what the
// embedder saw before.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "revsum/lexical.h"

namespace revsum {
namespace {

const std::vector<std::string> kSeeds = {"Excellent quality, highly recommend.",
                                         "It broke after a week, very disappointed.",
                                         "电池很耐用，物流很快。", "The batteries last for days."};

std::vector<std::string> WithSeeds(std::vector<std::string> texts) {
  texts.insert(texts.end(), kSeeds.begin(), kSeeds.end());
  return texts;
}

// Bitwise: the stored scores are written from these floats.
void ExpectSameBits(const Matrix& a, const Matrix& b) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      ASSERT_EQ(a(i, j), b(i, j)) << "row " << i << " column " << j;
    }
  }
}

TEST(LexicalTailCache, ABatchEmbedsAlikeWhateverCameBefore) {
  const std::vector<std::vector<std::string>> batches = {
      WithSeeds({"The battery lasts all day.", "Shipping was slow."}),
      WithSeeds({"Shipping was slow.", "The battery lasts all day.", "Great price!"}),
      WithSeeds({}),
      {"Excellent quality, highly recommend.", "Excellent quality, highly recommend."},
      WithSeeds({"The batteries last for days.", "电池很耐用，物流很快。"}),
      WithSeeds({"Totally different words here.", "It broke after a week, very disappointed."}),
  };
  LexicalEmbedder reused;
  for (size_t b = 0; b < batches.size(); ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    LexicalEmbedder fresh;
    ExpectSameBits(reused.Embed(batches[b]), fresh.Embed(batches[b]));
  }
}

TEST(LexicalTailCache, ABatchLongerThanTheCacheAndRepeatedSentences) {
  std::vector<std::string> big;
  for (int i = 0; i < 3000; ++i) {
    big.push_back("sentence number " + std::to_string(i % 1500) + " about the battery");
  }
  big = WithSeeds(big);
  LexicalEmbedder reused;
  reused.Embed(WithSeeds({"warm up"}));
  for (int round = 0; round < 2; ++round) {
    LexicalEmbedder fresh;
    ExpectSameBits(reused.Embed(big), fresh.Embed(big));
  }
  LexicalEmbedder fresh;
  ExpectSameBits(reused.Embed(WithSeeds({"after the big batch"})),
                 fresh.Embed(WithSeeds({"after the big batch"})));
}

}  // namespace
}  // namespace revsum
