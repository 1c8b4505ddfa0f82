// Specification of the run pipeline's embedder choice and language-specific seeds
// (include/revsum/run.h): which embedder `auto` gives a scope, the large-scope lexical width, and
// the Chinese seed file.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/lexical.h"
#include "revsum/run.h"
#include "revsum/score.h"

namespace revsum {
namespace {

const std::vector<std::string> kEnglish = {"The battery lasts all day.",
                                           "Great value for the money."};
const std::vector<std::string> kChinese = {"电池很耐用，物流很快。", "性价比很高，推荐购买。"};

TEST(EmbedderChoiceTest, NamesRoundTrip) {
  for (EmbedderChoice c : {EmbedderChoice::kLexical, EmbedderChoice::kUseLite,
                           EmbedderChoice::kCombined, EmbedderChoice::kAuto}) {
    EXPECT_EQ(ParseEmbedderChoice(EmbedderChoiceName(c)), c);
  }
  try {
    ParseEmbedderChoice("bert");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'bert'"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("combined"));
  }
}

TEST(EmbedderChoiceTest, AutoIsCombinedForEnglishAndLexicalForChinese) {
  EmbedderPool pool(EmbedderChoice::kAuto);
  EXPECT_EQ(pool.For(kChinese).name(), "lexical");
  EXPECT_EQ(pool.For(kEnglish).name(), "combined");
  EXPECT_THAT(pool.For(kEnglish).model_hash(),
              ::testing::StartsWith("combined:a=0.8:lexical=lexical-v1:dim=4096"));
  EXPECT_EQ(pool.Describe(), "auto(combined|lexical)");
}

TEST(EmbedderChoiceTest, TheDefaultRunUsesAuto) {
  EXPECT_EQ(RunOptions{}.embedder, EmbedderChoice::kAuto);
}

TEST(EmbedderChoiceTest, LargeScopesUseANarrowerLexicalPart) {
  EmbedderPool pool(EmbedderChoice::kLexical);
  std::vector<std::string> large(kLargeScopeSentences + 1, "Great value for the money.");
  EXPECT_THAT(pool.For(large).model_hash(),
              ::testing::HasSubstr("dim=" + std::to_string(kLargeScopeLexicalDim)));
  EXPECT_EQ(pool.For(large).Embed({"one sentence"}).cols(), kLargeScopeLexicalDim);
  EXPECT_THAT(pool.For(kEnglish).model_hash(), ::testing::HasSubstr("dim=4096"));
}

TEST(ChineseSeedsTest, HaveTheSectionsOfTheEnglishSeeds) {
  const SeedSet zh = LoadSeeds(RunOptions{}.cjk_seeds_path);
  const SeedSet en = LoadSeeds(RunOptions{}.summarize.seeds_path);
  EXPECT_EQ(zh.lang, "zh");
  EXPECT_GE(zh.opinion.size(), 8u);
  EXPECT_GE(zh.neutral.size(), 8u);
  ASSERT_EQ(zh.aspects.size(), en.aspects.size());
  for (size_t i = 0; i < zh.aspects.size(); ++i) {
    EXPECT_EQ(zh.aspects[i].first, en.aspects[i].first);
    EXPECT_GE(zh.aspects[i].second.size(), 6u) << zh.aspects[i].first;
  }
}

// The opinion head of the Chinese seeds points from narration to evaluation in the lexical space
// of a Chinese scope, as the English seeds do for English.
TEST(ChineseSeedsTest, OpinionAnchorPrefersEvaluativeSentences) {
  const SeedSet zh = LoadSeeds(RunOptions{}.cjk_seeds_path);
  const std::vector<std::string> scope = {"质量很好，非常满意，推荐购买。",
                                          "上个月买的，昨天到的货。", "很失望，用了几天就坏了。",
                                          "我给我妈妈买的。"};
  std::vector<std::string> batch = scope;
  const std::vector<std::string> seeds = SeedSentences(zh);
  batch.insert(batch.end(), seeds.begin(), seeds.end());
  LexicalEmbedder embedder;
  const Matrix E = embedder.Embed(batch);
  const std::vector<HeadAnchor> anchors =
      BuildAnchors(zh, E.bottomRows(static_cast<Eigen::Index>(seeds.size())));
  ASSERT_FALSE(anchors.empty());
  ASSERT_EQ(anchors[0].name, "opinion");
  const Eigen::VectorXf u = anchors[0].anchor.normalized();
  const Eigen::VectorXf s = E.topRows(4) * u;
  EXPECT_GT(s(0), s(1));  // evaluative > narrative
  EXPECT_GT(s(2), s(3));
}

}  // namespace
}  // namespace revsum
