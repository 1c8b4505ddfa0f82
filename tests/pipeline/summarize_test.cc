// Specification of SummarizeTexts (include/revsum/summarize.h) with the lexical embedder.
#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/combined.h"
#include "revsum/lexical.h"
#include "revsum/summarize.h"
#include "revsum/tokens.h"

namespace revsum {
namespace {

const std::vector<std::string> kHeadphones = {
    "Great sound for the price. The bass is deep and the highs are clear. Battery lasts all day.",
    "The battery lasts all day and charging is quick. Comfortable to wear for hours. Love them!",
    "Sound quality is great for the price. They arrived a day late. The case feels cheap.",
    "Comfortable, light and the battery lasts all day. Pairing with my phone took seconds.",
    "Broke after two months. Customer service sent a replacement quickly. Sound is great.",
    "Great sound for the price. The bass is deep and the highs are clear. Battery lasts all day.",
};

TEST(SummarizeTextsTest, KeptSentencesCiteTheirReviewAndSentence) {
  LexicalEmbedder embedder;
  SummarizeOptions options;
  options.budget = ParseBudget("30w");
  const Summary summary = SummarizeTexts(kHeadphones, options, embedder);
  ASSERT_FALSE(summary.sentences.empty());
  SentenceSegmenter segmenter;
  for (const SummarySentence& s : summary.sentences) {
    ASSERT_LT(s.review_index, kHeadphones.size());
    const std::vector<Sentence> sentences = segmenter.Split(kHeadphones[s.review_index]);
    ASSERT_LT(s.sentence_index, sentences.size());
    if (!s.truncated) {
      EXPECT_EQ(s.text, sentences[s.sentence_index].text);
    }
    EXPECT_GT(s.weight, 0.f);
  }
}

// Short Chinese sentences of five to seven o200k_base tokens each; joined by a space, each join
// is a token of its own (issue 8: a 150t budget on 手机 stored 174 tokens).
const std::vector<std::string> kPhoneReviews = {
    "电池很耐用。屏幕很清楚。拍照效果不错。", "电池很耐用。运行速度很快。外观漂亮。",
    "屏幕很清楚。信号不太好。发热有点严重。", "拍照效果不错。电池很耐用。价格便宜。",
    "运行速度很快。屏幕很清楚。物流很快。",   "发热有点严重。信号不太好。客服态度差。",
    "外观漂亮。手感很好。系统流畅。",         "价格便宜。性价比高。推荐购买。",
};

TEST(SummarizeTextsTest, ATokenBudgetHoldsOnTheJoinedChineseText) {
  std::string error;
  const std::shared_ptr<TokenCounter> tokens = TokenCounter::Load(Encoding::kO200kBase, &error);
  ASSERT_TRUE(tokens) << error;
  LexicalEmbedder embedder;
  SummarizeOptions options;
  options.selector.min_words = 1;
  options.token_cost = [tokens](std::string_view t) { return tokens->Count(t); };
  for (int budget : {20, 30, 40, 50, 60}) {
    options.budget = ParseBudget(std::to_string(budget) + "t");
    const Summary summary = SummarizeTexts(kPhoneReviews, options, embedder);
    ASSERT_GE(summary.sentences.size(), 2u) << budget;
    EXPECT_LE(tokens->Count(summary.Text()), static_cast<size_t>(budget))
        << budget << "t: " << summary.Text();
  }
}

TEST(SummarizeTextsTest, ACombinedEmbedderEmbedsItsSecondHalfOnlyForTheDenseCandidates) {
  // Two lexical embedders of different widths stand in for lexical + USE-lite.
  LexicalEmbedder first;
  LexicalOptions narrow;
  narrow.dim = 64;
  LexicalEmbedder second(narrow);
  CombinedEmbedder combined(first, second, CombinedOptions{0.8f});
  std::vector<std::string> texts;
  SentenceSegmenter segmenter;
  for (const std::string& review : kHeadphones) {
    for (const Sentence& s : segmenter.Split(review)) texts.push_back(s.text);
  }
  ASSERT_GT(texts.size(), 6u);
  SummarizeOptions options;
  options.seeds_path.clear();
  options.dense_candidates = 6;
  const ScopeSummary some = SummarizeScope(texts, Scope::kProduct, options, {}, combined);
  ASSERT_EQ(some.second_rows.size(), 6u);
  const Eigen::Index width = some.embeddings.cols() - 64;
  for (Eigen::Index i = 0; i < some.embeddings.rows(); ++i) {
    const bool dense = std::binary_search(some.second_rows.begin(), some.second_rows.end(),
                                          static_cast<size_t>(i));
    EXPECT_EQ(some.embeddings.row(i).rightCols(64).norm() > 0.f, dense) << texts[i];
    EXPECT_NEAR(some.embeddings.row(i).norm(), 1.f, 1e-4f);
    EXPECT_GT(some.embeddings.row(i).leftCols(width).norm(), 0.f);
  }
  // 0, or a scope no larger than the count: every row, exactly as Embed.
  options.dense_candidates = 0;
  const ScopeSummary all = SummarizeScope(texts, Scope::kProduct, options, {}, combined);
  EXPECT_TRUE(all.second_rows.empty());
  EXPECT_TRUE(all.embeddings.isApprox(combined.Embed(texts)));
  options.dense_candidates = texts.size();
  EXPECT_TRUE(SummarizeScope(texts, Scope::kProduct, options, {}, combined)
                  .embeddings.isApprox(all.embeddings));
}

TEST(SummarizeTextsTest, StaysWithinTheWordBudget) {
  LexicalEmbedder embedder;
  const CostFunction words = BudgetWordCost();
  for (const char* budget : {"5w", "12w", "30w", "60w"}) {
    SummarizeOptions options;
    options.budget = ParseBudget(budget);
    options.selector.fill_budget = true;
    size_t used = 0;
    for (const SummarySentence& s : SummarizeTexts(kHeadphones, options, embedder).sentences) {
      used += words(s.text);
    }
    EXPECT_LE(static_cast<double>(used), options.budget.amount) << budget;
  }
}

TEST(SummarizeTextsTest, RepeatedReviewIsSummarisedOnce) {
  LexicalEmbedder embedder;
  SummarizeOptions options;
  options.budget = ParseBudget("60w");
  const Summary summary = SummarizeTexts(kHeadphones, options, embedder);
  std::vector<std::string> texts;
  for (const SummarySentence& s : summary.sentences) texts.push_back(s.text);
  for (const std::string& t : texts) {
    EXPECT_EQ(std::count(texts.begin(), texts.end(), t), 1) << t;
  }
}

TEST(SummarizeTextsTest, KeepsEveryHeadsWeightsForTheWholeScope) {
  LexicalEmbedder embedder;
  const Summary summary = SummarizeTexts(kHeadphones, SummarizeOptions{}, embedder);
  EXPECT_EQ(static_cast<size_t>(summary.weights.final.size()), summary.scope.size());
  EXPECT_NEAR(summary.weights.final.sum(), 1.f, 1e-5f);
  EXPECT_THAT(summary.weights.head_names,
              ::testing::IsSupersetOf({"centroid", "opinion", "aspect:price", "consensus"}));
  EXPECT_EQ(summary.weights.per_head.cols(),
            static_cast<Eigen::Index>(summary.weights.head_names.size()));
}

TEST(SummarizeTextsTest, SummarisesChineseReviews) {
  const std::vector<std::string> reviews = {
      "电池很耐用，用了一个星期才充电。物流很快，包装也很好。",
      "物流很快，第二天就到了。电池很耐用，推荐购买！",
      "声音有点小。电池很耐用。",
      "客服态度很好，换货很快。物流很快。",
  };
  LexicalEmbedder embedder;
  SummarizeOptions options;
  options.budget = ParseBudget("2s");
  options.selector.min_words = 2;
  const Summary summary = SummarizeTexts(reviews, options, embedder);
  ASSERT_EQ(summary.sentences.size(), 2u);
  // The two things every reviewer repeats are the battery and the delivery.
  std::string text = summary.Text();
  EXPECT_TRUE(text.find("电池") != std::string::npos || text.find("物流") != std::string::npos)
      << text;
}

TEST(SummarizeTextsTest, EmptyInputGivesEmptySummary) {
  LexicalEmbedder embedder;
  EXPECT_TRUE(SummarizeTexts({}, SummarizeOptions{}, embedder).sentences.empty());
  EXPECT_TRUE(SummarizeTexts({"", "!!!"}, SummarizeOptions{}, embedder).sentences.empty());
}

TEST(SummarizeTextsTest, ErrorsAreClear) {
  LexicalEmbedder embedder;
  SummarizeOptions missing_seeds;
  missing_seeds.seeds_path = "/nonexistent/seeds.txt";
  try {
    SummarizeTexts(kHeadphones, missing_seeds, embedder);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("/nonexistent/seeds.txt"));
  }
  SummarizeOptions tokens;
  tokens.budget = ParseBudget("50t");
  EXPECT_THROW(SummarizeTexts(kHeadphones, tokens, embedder), std::invalid_argument);
  tokens.token_cost = [](std::string_view s) { return (s.size() + 3) / 4; };
  size_t used = 0;
  for (const SummarySentence& s : SummarizeTexts(kHeadphones, tokens, embedder).sentences) {
    used += tokens.token_cost(s.text);
  }
  EXPECT_LE(used, 50u);
  EXPECT_GT(used, 0u);
}

}  // namespace
}  // namespace revsum
