// Specification of the model-free lexical embedder (include/revsum/lexical.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/hash.h"
#include "revsum/lexical.h"

namespace revsum {
namespace {

float Cosine(const Matrix& E, Eigen::Index a, Eigen::Index b) { return E.row(a).dot(E.row(b)); }

// The feature hash is frozen: every lexical vector depends on its values. These were printed by
// the hash as it was first shipped (one digit short of FNV's offset basis, then SplitMix64).
TEST(LexicalEmbedderTest, TheFeatureHashNeverChanges) {
  EXPECT_EQ(LexicalFeatureHash("battery", 0), 0xd9b8cfce2017c8f3ULL);
  EXPECT_EQ(LexicalFeatureHash("电池", 0), 0x773c5bba1ad9beebULL);
  EXPECT_EQ(LexicalFeatureHash("", 42), 0x24e8d100db19df26ULL);
  EXPECT_EQ(LexicalFeatureHash("good kettle", 7), 0x06aeedfea24e46ecULL);
}

TEST(LexicalEmbedderTest, NameAndHashDescribeTheParameters) {
  LexicalEmbedder embedder;
  EXPECT_EQ(embedder.name(), "lexical");
  EXPECT_THAT(embedder.model_hash(), ::testing::HasSubstr("dim=4096"));
  EXPECT_THAT(embedder.model_hash(), ::testing::HasSubstr("idf=batch"));
}

TEST(LexicalEmbedderTest, RowsAreUnitLengthOrZero) {
  LexicalEmbedder embedder;
  const Matrix E = embedder.Embed(
      {"The battery lasts all day.", "!!!", "", "电池很耐用，物流很快。", "Great price 👍"});
  ASSERT_EQ(E.rows(), 5);
  ASSERT_EQ(E.cols(), 4096);
  EXPECT_NEAR(E.row(0).norm(), 1.f, 1e-5f);
  EXPECT_EQ(E.row(1).norm(), 0.f);  // no word features
  EXPECT_EQ(E.row(2).norm(), 0.f);
  EXPECT_NEAR(E.row(3).norm(), 1.f, 1e-5f);
  EXPECT_NEAR(E.row(4).norm(), 1.f, 1e-5f);
}

TEST(LexicalEmbedderTest, FeaturesAreLowercasedWordsWithLightPluralStrip) {
  LexicalEmbedder embedder;
  EXPECT_THAT(embedder.Features("Batteries LAST, shoes don't; glass!"),
              ::testing::ElementsAre("w:battery", "w:last", "w:shoe", "w:don't", "w:glass"));
}

TEST(LexicalEmbedderTest, ChineseGetsCharacterBigrams) {
  LexicalEmbedder embedder;
  const std::vector<std::string> f = embedder.Features("电池很耐用");
  EXPECT_THAT(f, ::testing::IsSupersetOf({"c:电池", "c:池很", "c:很耐", "c:耐用"}));
}

TEST(LexicalEmbedderTest, SharedWordsMeanHigherCosine) {
  LexicalEmbedder embedder;
  const Matrix E = embedder.Embed({"The battery lasts all day.", "Battery life lasts a full day.",
                                   "The shoes run small.", "电池很耐用", "这个电池很耐用，推荐"});
  EXPECT_GT(Cosine(E, 0, 1), 0.3f);
  EXPECT_LT(std::abs(Cosine(E, 0, 2)), 0.3f);
  EXPECT_GT(Cosine(E, 0, 1), Cosine(E, 0, 2));
  EXPECT_GT(Cosine(E, 3, 4), 0.5f);  // Chinese with no spaces still matches
  EXPECT_LT(std::abs(Cosine(E, 3, 0)), 0.1f);
}

TEST(LexicalEmbedderTest, SameSentenceSameRowWithinABatch) {
  LexicalEmbedder embedder;
  const Matrix E = embedder.Embed({"Fits well.", "Too small.", "Fits well."});
  EXPECT_TRUE(E.row(0).isApprox(E.row(2)));
  EXPECT_NEAR(Cosine(E, 0, 2), 1.f, 1e-5f);
}

TEST(LexicalEmbedderTest, CorpusIdfMakesEmbeddingsIndependentOfTheBatch) {
  LexicalEmbedder embedder;
  embedder.FitIdf({"the battery is good", "the price is good", "the fit is bad"});
  EXPECT_THAT(embedder.model_hash(), ::testing::HasSubstr("idf=corpus 3"));
  const Matrix alone = embedder.Embed({"the battery is good"});
  const Matrix with_others = embedder.Embed({"great", "the battery is good", "nice battery"});
  EXPECT_TRUE(alone.row(0).isApprox(with_others.row(1)));
  embedder.ClearIdf();
  EXPECT_THAT(embedder.model_hash(), ::testing::HasSubstr("idf=batch"));
}

TEST(LexicalEmbedderTest, RareWordsWeighMoreThanCommonOnes) {
  // "the" is in every sentence, "zipper" in one: the zipper sentence's row is dominated by it.
  LexicalEmbedder embedder(LexicalOptions{.dim = 1 << 16});
  const Matrix E = embedder.Embed({"the zipper", "the strap", "the bag", "the color"});
  // Within the first batch: "the zipper" vs "the strap" share only "the" (low IDF).
  EXPECT_LT(Cosine(E, 0, 1), 0.3f);
}

TEST(LexicalEmbedderTest, DimensionAndSeedAreOptions) {
  LexicalEmbedder small(LexicalOptions{.dim = 256});
  EXPECT_EQ(small.Embed({"hello world"}).cols(), 256);
  LexicalEmbedder other_seed(LexicalOptions{.dim = 256, .seed = 7});
  EXPECT_FALSE(small.Embed({"hello world"}).isApprox(other_seed.Embed({"hello world"})));
  EXPECT_THROW(LexicalEmbedder(LexicalOptions{.dim = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace revsum
