// The opinion model (include/revsum/opinion.h): features, multiple-instance training, the stored
// form and the shipped default model.
#include "revsum/opinion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace revsum {
namespace {

TEST(OpinionTokens, LatinWordsLowerCasedIdeographsAlonePunctuationDropped) {
  EXPECT_EQ(OpinionTokens("Don't BUY it, really!"),
            (std::vector<std::string>{"don't", "buy", "it", "really", "!"}));
  EXPECT_EQ(OpinionTokens("电池不耐用。"),
            (std::vector<std::string>{"电", "池", "不", "耐", "用"}));
  EXPECT_EQ(OpinionTokens("质量ok很好？"),
            (std::vector<std::string>{"质", "量", "ok", "很", "好", "?"}));
  EXPECT_EQ(OpinionTokens("Love it 😍"), (std::vector<std::string>{"love", "it", "😍"}));
  EXPECT_TRUE(OpinionTokens("").empty());
  EXPECT_EQ(OpinionTokens("a\xff"
                          "b"),
            (std::vector<std::string>{"a", "b"}));
}

TEST(OpinionFeatures, UniBiAndTrigramsInRangeWithOneOverRootCountValues) {
  const OpinionFeatures f = ExtractOpinionFeatures("not good at all", 10);
  // 4 unigrams, 3 bigrams, 2 trigrams.
  ASSERT_EQ(f.buckets.size(), 9u);
  for (uint32_t b : f.buckets) EXPECT_LT(b, 1u << 10);
  EXPECT_FLOAT_EQ(f.value, 1.0f / 3.0f);
  EXPECT_EQ(ExtractOpinionFeatures("not good at all", 10).buckets, f.buckets);
  EXPECT_NE(ExtractOpinionFeatures("good", 18).buckets,
            ExtractOpinionFeatures("not good", 18).buckets);
  EXPECT_EQ(ExtractOpinionFeatures("...", 18).value, 0.0f);
}

// Reviews made of neutral narration and one opinion sentence, rated by that opinion: only the
// review's rating is a label, yet the model must learn which sentence carries it (its sign) and
// that the narration does not (salience).
std::vector<OpinionExample> NarratedReviews(int dim_bits, size_t count) {
  const std::vector<std::string> narration = {
      "I ordered it on a Monday.", "My sister uses one too.", "It came in a brown box.",
      "We keep it in the kitchen.", "I have had it for a month now."};
  const std::vector<std::string> praise = {"The lid seals perfectly and it feels sturdy.",
                                           "Excellent kettle, boils in no time.",
                                           "Really happy with how quiet it is."};
  const std::vector<std::string> complaints = {"The handle cracked within a week.",
                                               "Terrible, it leaks all over the counter.",
                                               "Very disappointed, the switch broke."};
  std::vector<OpinionExample> out;
  for (size_t i = 0; i < count; ++i) {
    OpinionExample e;
    const bool good = i % 2 == 0;
    e.target = good ? 1.0f : -1.0f;
    e.sentences.push_back(ExtractOpinionFeatures(narration[i % narration.size()], dim_bits));
    e.sentences.push_back(ExtractOpinionFeatures(
        good ? praise[(i / 2) % praise.size()] : complaints[(i / 2) % complaints.size()],
        dim_bits));
    e.sentences.push_back(ExtractOpinionFeatures(narration[(i + 2) % narration.size()], dim_bits));
    out.push_back(std::move(e));
  }
  return out;
}

OpinionTrainOptions SmallOptions() {
  OpinionTrainOptions o;
  o.dim_bits = 14;
  o.epochs = 10;
  return o;
}

TEST(OpinionTrainer, LearnsSentenceSidesAndSalienceFromReviewRatingsAlone) {
  const OpinionModel m = OpinionTrainer(SmallOptions()).Train(NarratedReviews(14, 240));
  const std::vector<SentenceOpinion> good = m.Score(std::vector<std::string>{
      "We keep it in the kitchen.", "Excellent kettle, boils in no time."});
  EXPECT_GT(good[1].score, 0.5f);
  EXPECT_GT(good[1].salience, good[0].salience);
  const std::vector<SentenceOpinion> bad = m.Score(
      std::vector<std::string>{"The handle cracked within a week.", "It came in a brown box."});
  EXPECT_LT(bad[0].score, -0.5f);
  EXPECT_GT(bad[0].salience, bad[1].salience);
  EXPECT_NEAR(good[0].salience + good[1].salience, 1.0f, 1e-5f);
  const OpinionEvaluation ev = EvaluateOpinions(m, NarratedReviews(14, 60));
  EXPECT_EQ(ev.correct, ev.examples);
}

TEST(OpinionTrainer, SameDataSameBytes) {
  const std::vector<OpinionExample> data = NarratedReviews(14, 100);
  EXPECT_EQ(OpinionTrainer(SmallOptions()).Train(data).Hash(),
            OpinionTrainer(SmallOptions()).Train(data).Hash());
}

TEST(OpinionModel, RoundTripsAndRefusesADamagedBlob) {
  const OpinionModel m = OpinionTrainer(SmallOptions()).Train(NarratedReviews(14, 40));
  const std::string blob = m.Serialize();
  EXPECT_EQ(OpinionModel::Deserialize(blob, "test").Hash(), m.Hash());
  std::string flipped = blob;
  flipped[blob.size() / 2] ^= 0x10;
  try {
    OpinionModel::Deserialize(flipped, "store.db: opinion_models row 1");
    FAIL() << "a damaged model was accepted";
  } catch (const OpinionError& e) {
    EXPECT_NE(
        std::string(e.what()).find("store.db: opinion_models row 1: opinion model is damaged"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(OpinionModel::Deserialize(blob.substr(0, blob.size() - 1), "t"), OpinionError);
  EXPECT_THROW(OpinionModel::Deserialize("RVOPIN01", "t"), OpinionError);
  EXPECT_THROW(OpinionModel::Deserialize("", "t"), OpinionError);
}

TEST(OpinionModel, HeldOutIsATenthByTextHash) {
  size_t held = 0;
  for (int i = 0; i < 10000; ++i) held += IsHeldOut("review " + std::to_string(i));
  EXPECT_GT(held, 900u);
  EXPECT_LT(held, 1100u);
  EXPECT_FALSE(IsHeldOut("anything", 1));
}

// The shipped default model on sentences written for this test (not from its training data).
TEST(DefaultOpinionModel, LoadsVerifiedAndReadsEnglishAndChinese) {
  const OpinionModel m = LoadDefaultOpinionModel();
  auto p = [&](const std::string& s) { return m.Score(std::vector<std::string>{s})[0].score; };
  EXPECT_GT(p("Works great and the battery lasts for days, highly recommend."), 0.5f);
  EXPECT_LT(p("Stopped working after a week, a complete waste of money."), -0.5f);
  EXPECT_GT(p("质量很好，非常满意，物流也快。"), 0.5f);
  EXPECT_LT(p("太差了，用了两天就坏了，不推荐。"), -0.5f);
  // Mixed text: the Chinese and the English halves both count.
  EXPECT_LT(p("这个耳机 sound quality is terrible, 很失望"), -0.5f);
}

TEST(CombineWithWordLists, TheListsAreEvidenceAStrongModelVerdictOutweighs) {
  EXPECT_EQ(CombineWithWordLists(0.3f, 0), 0.3f);
  // A word-list praise lifts an unsure sentence to a side...
  EXPECT_GE(CombineWithWordLists(0.1f, 1), OpinionModel::kDefaultBand);
  EXPECT_LE(CombineWithWordLists(-0.1f, -1), -OpinionModel::kDefaultBand);
  // ...and against a confident model verdict leaves it unsided rather than flipped.
  const float battery = CombineWithWordLists(-0.92f, 1);
  EXPECT_GT(battery, -OpinionModel::kDefaultBand);
  EXPECT_LT(battery, OpinionModel::kDefaultBand);
  EXPECT_TRUE(std::isfinite(CombineWithWordLists(1.0f, -1)));
  EXPECT_TRUE(std::isfinite(CombineWithWordLists(-1.0f, 1)));
}

}  // namespace
}  // namespace revsum
