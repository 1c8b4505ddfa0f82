// Specification of budget parsing and the budgeted selector (include/revsum/select.h).
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/select.h"

namespace revsum {
namespace {

size_t Words(std::string_view s) { return CountWhitespaceTokens(s); }

// Bag-of-words unit rows over a tiny vocabulary, enough for cosine between sentences.
Matrix BagOfWords(const std::vector<std::string>& texts) {
  Matrix E = Matrix::Zero(static_cast<Eigen::Index>(texts.size()), 64);
  for (size_t i = 0; i < texts.size(); ++i) {
    size_t start = 0;
    const std::string& t = texts[i];
    while (start < t.size()) {
      size_t end = t.find(' ', start);
      if (end == std::string::npos) end = t.size();
      const size_t h = std::hash<std::string>{}(t.substr(start, end - start)) % 64;
      E(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(h)) += 1.f;
      start = end + 1;
    }
    const float norm = E.row(static_cast<Eigen::Index>(i)).norm();
    if (norm > 0) E.row(static_cast<Eigen::Index>(i)) /= norm;
  }
  return E;
}

TEST(ParseBudgetTest, ParsesEveryUnit) {
  EXPECT_EQ(ParseBudget("120w").unit, Budget::Unit::kWords);
  EXPECT_EQ(ParseBudget("120w").amount, 120);
  EXPECT_EQ(ParseBudget(" 5s ").unit, Budget::Unit::kSentences);
  EXPECT_EQ(ParseBudget("300t").unit, Budget::Unit::kTokens);
  EXPECT_EQ(ParseBudget("10%").unit, Budget::Unit::kRatio);
  EXPECT_DOUBLE_EQ(ParseBudget("10%").amount, 0.10);
  EXPECT_DOUBLE_EQ(ParseBudget("2.5%").amount, 0.025);
  EXPECT_EQ(ParseBudget("120w").ToString(), "120w");
  EXPECT_EQ(ParseBudget("10%").ToString(), "10%");
}

TEST(ParseBudgetTest, RejectsMalformedBudgetsWithClearMessages) {
  for (const char* bad : {"", "120", "w", "12x", "abcw", "0w", "-5s", "1.5w", "150%", "1e400w"}) {
    try {
      ParseBudget(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("invalid budget '" + std::string(bad) + "'"));
    }
  }
  try {
    ParseBudget("120");
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("missing unit"));
  }
}

TEST(ParseBudgetTest, RefusesCountsThatWouldOverflow) {
  try {
    ParseBudget("1000000000000000000000w");
    ADD_FAILURE() << "accepted 1e21 words";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'1000000000000000000000w': too large (at most "
                                               "1000000000 words)"));
  }
  EXPECT_THROW(ParseBudget("1000000001s"), std::invalid_argument);
  EXPECT_THROW(ParseBudget("1e19t"), std::invalid_argument);
  EXPECT_EQ(ParseBudget("1000000000t").amount, 1e9);
}

TEST(ParseBudgetTest, RefusesPercentagesOutsideTheUsableRange) {
  for (const char* bad : {"1e-9%", "0.001%", "0%", "-5%", "100.5%"}) {
    try {
      ParseBudget(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("a percentage must be between 0.01% and 100%"))
          << bad;
    }
  }
  EXPECT_DOUBLE_EQ(ParseBudget("0.01%").amount, 0.0001);
  EXPECT_DOUBLE_EQ(ParseBudget("100%").amount, 1.0);
}

TEST(ParseBudgetTest, ZeroNegativeAndUnknownUnitsSayWhatIsWrong) {
  auto message = [](const char* text) -> std::string {
    try {
      ParseBudget(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_THAT(message("0w"), ::testing::HasSubstr("the number of words must be at least 1"));
  EXPECT_THAT(message("-5w"), ::testing::HasSubstr("the number of words must be at least 1"));
  EXPECT_THAT(message("-5s"), ::testing::HasSubstr("the number of sentences must be at least 1"));
  EXPECT_THAT(message("5x"), ::testing::HasSubstr("missing unit: end with w (words)"));
  EXPECT_THAT(message("1e400w"), ::testing::HasSubstr("out of range"));
}

const std::vector<std::string> kReviews = {
    "The battery lasts all day and charges quickly.",
    "Battery life is great, it lasts all day.",
    "The battery lasts all day and charges quickly.",
    "Ok.",
    "The screen is bright and sharp even in sunlight.",
    "I bought it for my trip to Spain last summer and used it every single day of the whole "
    "three week vacation while we drove around the country visiting friends and family.",
    "Customer service replaced my unit within a week.",
};

TEST(BudgetedSelectorTest, DuplicateSentenceIsKeptAtMostOnce) {
  const Matrix E = BagOfWords(kReviews);
  Eigen::VectorXf w(7);
  w << 0.3f, 0.1f, 0.3f, 0.05f, 0.1f, 0.05f, 0.1f;
  const BudgetedSelector selector({}, Words);
  const auto chosen = selector.Select(kReviews, w, E, ParseBudget("60w"));
  int battery_copies = 0;
  for (const Selected& s : chosen) battery_copies += s.index == 0 || s.index == 2;
  EXPECT_EQ(battery_copies, 1);
}

TEST(BudgetedSelectorTest, FiltersFragmentsAndOverlongSentences) {
  const Matrix E = BagOfWords(kReviews);
  Eigen::VectorXf w(7);
  w << 0.1f, 0.1f, 0.1f, 0.3f, 0.1f, 0.2f, 0.1f;  // the fragment and the long one weigh most
  const BudgetedSelector selector({}, Words);
  for (const Selected& s : selector.Select(kReviews, w, E, ParseBudget("40w"))) {
    EXPECT_NE(s.index, 3u) << "fragment 'Ok.' selected";
    EXPECT_NE(s.index, 5u) << "a 34-word sentence in a 40-word budget";
  }
}

TEST(BudgetedSelectorTest, OneLongSentenceCannotEatTheBudget) {
  // A long sentence with slightly more weight than each of three short ones: weight per cost
  // prefers the three short ones.
  const std::vector<std::string> texts = {
      "Great sound quality and the bass is deep and clear at every volume level we tried it on",
      "Comfortable to wear for hours.", "Pairs with my phone instantly.",
      "Cheap for what it does."};
  Eigen::VectorXf w(4);
  w << 0.31f, 0.23f, 0.23f, 0.23f;
  SelectorOptions options;
  options.cost_exponent = 1.0f;
  const BudgetedSelector selector(options, Words);
  const auto chosen = selector.Select(texts, w, BagOfWords(texts), ParseBudget("20w"));
  std::vector<size_t> indices;
  for (const Selected& s : chosen) indices.push_back(s.index);
  EXPECT_THAT(indices, ::testing::UnorderedElementsAre(1u, 2u, 3u));
}

TEST(BudgetedSelectorTest, SentenceBudgetCountsSentences) {
  const Matrix E = BagOfWords(kReviews);
  const Eigen::VectorXf w = Eigen::VectorXf::Constant(7, 1.f / 7);
  const BudgetedSelector selector({}, Words);
  EXPECT_EQ(selector.Select(kReviews, w, E, ParseBudget("2s")).size(), 2u);
}

TEST(BudgetedSelectorTest, TokenBudgetUsesTheTokenCostFunction) {
  const Matrix E = BagOfWords(kReviews);
  const Eigen::VectorXf w = Eigen::VectorXf::Constant(7, 1.f / 7);
  // A stand-in tokenizer: one token per 4 bytes, as LLM tokenizers roughly give for English.
  const CostFunction tokens = [](std::string_view s) { return (s.size() + 3) / 4; };
  const BudgetedSelector selector({}, Words, tokens);
  // A token budget holds on the emitted (joined) text: each sentence's cost is what it adds to
  // the join, so the costs sum to the join's token count.
  size_t used = 0;
  const std::vector<Selected> chosen = selector.Select(kReviews, w, E, ParseBudget("25t"));
  for (const Selected& s : chosen) used += s.cost;
  EXPECT_EQ(chosen.front().cost, tokens(kReviews[chosen.front().index]));
  EXPECT_EQ(used, tokens(JoinSelected(chosen)));
  EXPECT_LE(used, 25u);
  EXPECT_GT(used, 0u);
  const BudgetedSelector no_tokenizer({}, Words);
  EXPECT_THROW(no_tokenizer.Select(kReviews, w, E, ParseBudget("25t")), std::invalid_argument);
}

TEST(BudgetedSelectorTest, FillBudgetTruncatesOneLastSentenceToTheWordsLeft) {
  SelectorOptions options;
  options.fill_budget = true;
  const Matrix E = BagOfWords(kReviews);
  Eigen::VectorXf w(7);
  w << 0.3f, 0.1f, 0.3f, 0.05f, 0.1f, 0.05f, 0.1f;
  const auto chosen = BudgetedSelector(options, Words).Select(kReviews, w, E, ParseBudget("12w"));
  size_t used = 0;
  for (const Selected& s : chosen) used += s.cost;
  EXPECT_EQ(used, 12u);
  ASSERT_FALSE(chosen.empty());
  EXPECT_TRUE(chosen.back().truncated);
  EXPECT_EQ(Words(chosen.back().text), chosen.back().cost);
}

TEST(BudgetedSelectorTest, RejectsMismatchedInputs) {
  const BudgetedSelector selector({}, Words);
  EXPECT_THROW(
      selector.Select(kReviews, Eigen::VectorXf::Zero(3), BagOfWords(kReviews), ParseBudget("10w")),
      std::invalid_argument);
}

TEST(BudgetedSelectorTest, NeverChoosesFragmentsWhenOtherSentencesExist) {
  const std::vector<std::string> texts = {
      "But not this one at all.", "See www.example.com for the manual now.",
      "I give it five stars!", "The blade stays sharp after a year.",
      "The handle is comfortable and does not slip."};
  Eigen::VectorXf w(5);
  w << 0.3f, 0.3f, 0.3f, 0.05f, 0.05f;  // the fragments weigh most
  const BudgetedSelector selector({}, Words);
  std::vector<size_t> indices;
  for (const Selected& s : selector.Select(texts, w, BagOfWords(texts), ParseBudget("40w"))) {
    indices.push_back(s.index);
  }
  EXPECT_THAT(indices, ::testing::UnorderedElementsAre(3u, 4u));

  SelectorOptions keep;
  keep.skip_fragments = false;
  indices.clear();
  for (const Selected& s :
       BudgetedSelector(keep, Words).Select(texts, w, BagOfWords(texts), ParseBudget("40w"))) {
    indices.push_back(s.index);
  }
  EXPECT_THAT(indices, ::testing::Contains(0u));
}

TEST(BudgetedSelectorTest, ReportsTheFragmentReasonOfEveryText) {
  // The points stage reads these verdicts instead of classifying the scope a second time, so
  // they must be exactly the rule's.
  const std::vector<std::string> texts = {"But not this one at all.",
                                          "See www.example.com for the manual now.",
                                          "I give it five stars!",
                                          "The blade stays sharp after a year.",
                                          "住了两天.",
                                          "很好"};
  const Eigen::VectorXf w = Eigen::VectorXf::Constant(6, 0.2f);
  std::vector<FragmentReason> reasons = {FragmentReason::kFiller};  // overwritten
  BudgetedSelector({}, Words).Select(texts, w, BagOfWords(texts), ParseBudget("40w"), &reasons);
  ASSERT_EQ(reasons.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(reasons[i], DefaultFragmentRule()->Classify(texts[i])) << texts[i];
  }
  EXPECT_EQ(reasons[3], FragmentReason::kNone);
  EXPECT_EQ(reasons[1], FragmentReason::kNoise);

  SelectorOptions keep;  // the rule not applied: nothing to report
  keep.skip_fragments = false;
  BudgetedSelector(keep, Words).Select(texts, w, BagOfWords(texts), ParseBudget("40w"), &reasons);
  EXPECT_TRUE(reasons.empty());
}

TEST(BudgetedSelectorTest, AScopeOfShortReviewsStillGetsOneSentence) {
  // Issue 8: every review of the product is two or three characters long.
  const std::vector<std::string> texts = {"很好", "不错", "音质差", "好评", "太差了"};
  Eigen::VectorXf w(5);
  w << 0.4f, 0.3f, 0.1f, 0.1f, 0.1f;
  const BudgetedSelector selector({}, Words);
  const auto chosen = selector.Select(texts, w, BagOfWords(texts), ParseBudget("100w"));
  ASSERT_EQ(chosen.size(), 1u);
  // Not a fragment (3 characters) beats the heavier "很好"; equal tiers go by weight.
  EXPECT_EQ(chosen[0].text, "音质差");
}

TEST(BudgetedSelectorTest, OnlyFragmentsLeftPicksTheHeaviestThatIsNotNoise) {
  const std::vector<std::string> texts = {"@冠益乳", "很好", "不错"};
  Eigen::VectorXf w(3);
  w << 0.8f, 0.1f, 0.2f;
  const BudgetedSelector selector({}, Words);
  const auto chosen = selector.Select(texts, w, BagOfWords(texts), ParseBudget("5s"));
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].text, "不错");
  const std::vector<std::string> noise = {"@冠益乳"};
  EXPECT_EQ(
      selector.Select(noise, Eigen::VectorXf::Ones(1), BagOfWords(noise), ParseBudget("5s")).size(),
      1u);
}

TEST(BudgetedSelectorTest, TheNeverEmptyFallbackStillRespectsTheBudget) {
  const std::vector<std::string> texts = {"ok then fine", "so so so"};
  const BudgetedSelector selector({}, Words);
  EXPECT_TRUE(selector.Select(texts, Eigen::VectorXf::Ones(2), BagOfWords(texts), ParseBudget("2w"))
                  .empty());
  EXPECT_EQ(
      selector.Select(texts, Eigen::VectorXf::Ones(2), BagOfWords(texts), ParseBudget("3w")).size(),
      1u);
}

// Property: whatever the inputs, options and budget, the chosen cost never exceeds the budget,
// and no sentence is chosen twice.
TEST(BudgetedSelectorTest, NeverExceedsAnyBudgetRandomised) {
  std::mt19937 rng(2024);
  const std::vector<std::string> vocab = {"good", "bad",   "battery", "price", "fit",
                                          "size", "love",  "it",      "the",   "is",
                                          "very", "cheap", "strong",  "."};
  const CostFunction tokens = [](std::string_view s) { return (s.size() + 3) / 4; };
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 1 + rng() % 40;
    std::vector<std::string> texts(n);
    for (std::string& t : texts) {
      const size_t len = rng() % 30;
      for (size_t k = 0; k < len; ++k) t += (k ? " " : "") + vocab[rng() % vocab.size()];
    }
    Eigen::VectorXf w(static_cast<Eigen::Index>(n));
    for (Eigen::Index i = 0; i < w.size(); ++i) w(i) = static_cast<float>(rng() % 1000) / 1000.f;
    SelectorOptions options;
    options.lambda = static_cast<float>(rng() % 11) / 10.f;
    options.cost_exponent = static_cast<float>(rng() % 3) / 2.f;
    options.min_words = rng() % 5;
    options.fill_budget = rng() % 2;
    const char* units[] = {"w", "s", "t", "%"};
    const std::string unit = units[rng() % 4];
    const std::string amount =
        unit == "%" ? std::to_string(1 + rng() % 100) : std::to_string(1 + rng() % 80);
    const Budget budget = ParseBudget(amount + unit);
    const auto chosen =
        BudgetedSelector(options, Words, tokens).Select(texts, w, BagOfWords(texts), budget);
    size_t total_words = 0;
    for (const std::string& t : texts) total_words += Words(t);
    size_t used = 0;
    std::vector<size_t> seen;
    for (const Selected& s : chosen) {
      // Token budgets count the joined text (JoinSelected), checked below.
      if (budget.unit != Budget::Unit::kTokens) {
        const size_t cost = budget.unit == Budget::Unit::kSentences ? 1 : Words(s.text);
        EXPECT_EQ(cost, s.cost);
      }
      used += s.cost;
      EXPECT_THAT(seen, ::testing::Not(::testing::Contains(s.index)));
      seen.push_back(s.index);
    }
    if (budget.unit == Budget::Unit::kTokens) {
      EXPECT_EQ(used, tokens(JoinSelected(chosen)));
    }
    const double limit = budget.unit == Budget::Unit::kRatio
                             ? std::floor(budget.amount * static_cast<double>(total_words))
                             : budget.amount;
    EXPECT_LE(static_cast<double>(used), limit) << "trial " << trial << " budget " << amount + unit;
  }
}

}  // namespace
}  // namespace revsum
