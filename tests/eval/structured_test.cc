// The structured choice (structured.h) and `revsum eval --structured`'s summary (eval.h:
// StructuredSummary) on a small bench set written for this test
// (tests/eval/structured_bench.jsonl).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "revsum/combined.h"
#include "revsum/eval.h"
#include "revsum/lexical.h"
#include "revsum/structured.h"
#include "revsum/use_lite.h"

namespace revsum {
namespace {

const std::string kBench = std::string(REVSUM_SOURCE_DIR) + "/tests/eval/structured_bench.jsonl";

// --- SelectStructuredPoints: each point costs 1; the budget is `limit` points. -----------------

StructuredChoice Select(const std::array<std::vector<double>, 3>& support, size_t limit,
                        bool* fitted = nullptr) {
  StructuredChoice chosen;
  const bool ok = SelectStructuredPoints(
      support, [&](const StructuredChoice&, size_t points) { return points <= limit; },
      [](int, size_t) { return 1.0; }, chosen);
  if (fitted) *fitted = ok;
  return chosen;
}

TEST(StructuredSelect, EachPresentSectionGetsAPointFirst) {
  // Praise has far more support, yet Complaints gets its first point.
  const StructuredChoice c = Select({{{9, 8, 7}, {1}, {5}}}, 2);
  EXPECT_EQ(c[kSectionPraise], (std::vector<size_t>{0}));
  EXPECT_EQ(c[kSectionComplaints], (std::vector<size_t>{0}));
  EXPECT_TRUE(c[kSectionOther].empty());
}

TEST(StructuredSelect, BudgetSharedInProportionToSupport) {
  // Support 30 : 10: Praise takes 3 of the 4 points.
  const StructuredChoice c = Select({{{10, 10, 10, 10}, {5, 5, 5}, {}}}, 4);
  EXPECT_EQ(c[kSectionPraise].size(), 3u);
  EXPECT_EQ(c[kSectionComplaints].size(), 1u);
}

TEST(StructuredSelect, OtherTakesOnlyWhatIsLeft) {
  const StructuredChoice c = Select({{{3}, {2}, {9, 9, 9}}}, 4);
  EXPECT_EQ(c[kSectionPraise].size(), 1u);
  EXPECT_EQ(c[kSectionComplaints].size(), 1u);
  EXPECT_EQ(c[kSectionOther], (std::vector<size_t>{0, 1}));
}

TEST(StructuredSelect, NothingFitsReturnsFalse) {
  StructuredChoice chosen{{{7}, {}, {}}};  // cleared by the call
  const bool ok = SelectStructuredPoints(
      {{{1}, {1}, {1}}}, [](const StructuredChoice&, size_t) { return false; },
      [](int, size_t) { return 1.0; }, chosen);
  EXPECT_FALSE(ok);
  for (const auto& s : chosen) EXPECT_TRUE(s.empty());
}

TEST(StructuredSelect, AlsoSaidTakesWhatFitsInOrderPassingOverTheRest) {
  // Costs 3, 5, 2, 2 under a budget of 6: 3 fits, 5 does not (passed over), 2 fits, 2 does not.
  const std::vector<double> cost = {3, 5, 2, 2};
  const std::vector<size_t> taken = SelectAlsoSaid(cost.size(), [&](const std::vector<size_t>& t) {
    double sum = 0;
    for (size_t i : t) sum += cost[i];
    return sum <= 6;
  });
  EXPECT_EQ(taken, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(SelectAlsoSaid(0, [](const std::vector<size_t>&) { return true; }).empty());
}

TEST(StructuredSelect, SectionOfPolarity) {
  EXPECT_EQ(SectionOfPolarity("praise"), kSectionPraise);
  EXPECT_EQ(SectionOfPolarity("complaint"), kSectionComplaints);
  EXPECT_EQ(SectionOfPolarity("neutral"), kSectionOther);
  EXPECT_EQ(SectionOfPolarity("unknown"), kSectionOther);
}

// --- StructuredSummary on the fixture ----------------------------------------------------------

std::vector<std::string> Texts(const BenchEntity& e) {
  std::vector<std::string> texts;
  for (const BenchReview& r : e.reviews) texts.push_back(r.text);
  return texts;
}

// Every emitted point is a point's representative (the representatives are what an unbounded
// budget emits), the text is exactly the points and then the "Also said" sentences joined, and it
// fits the budget.
void CheckEntity(const BenchEntity& e, Embedder& embedder) {
  SCOPED_TRACE(e.id + " " + embedder.name());
  const std::vector<std::string> texts = Texts(e);
  EvalOptions options;
  options.structured = true;
  options.summarize.budget = {Budget::Unit::kSentences, 1000};
  const StructuredSummaryResult all = StructuredSummary(texts, options, embedder);
  ASSERT_GE(all.points.size(), 2u);
  std::set<std::string> representatives;
  for (const StructuredSummaryPoint& p : all.points) {
    EXPECT_TRUE(representatives.insert(p.text).second) << "repeated point: " << p.text;
  }

  const CostFunction words = BudgetWordCost();
  for (double budget : {static_cast<double>(e.budget_words), 12.0, 45.0}) {
    options.summarize.budget = {Budget::Unit::kWords, budget};
    const StructuredSummaryResult got = StructuredSummary(texts, options, embedder);
    EXPECT_LE(static_cast<double>(words(got.text)), budget) << got.text;
    ASSERT_FALSE(got.points.empty()) << "budget " << budget;
    std::string joined;
    std::set<StructuredSection> sections;
    int last_section = -1;
    for (const StructuredSummaryPoint& p : got.points) {
      EXPECT_TRUE(representatives.count(p.text)) << "not a point representative: " << p.text;
      const int section = SectionOfPolarity(p.polarity);
      EXPECT_GE(section, last_section) << "sections out of order";
      last_section = section;
      joined += (joined.empty() ? "" : " ") + p.text;
    }
    // Then "Also said": sentences of the text that are no shown point's face.
    std::set<std::string> shown;
    for (const StructuredSummaryPoint& p : got.points) shown.insert(p.text);
    for (const std::string& a : got.also_said) {
      EXPECT_FALSE(shown.count(a)) << "also said repeats a point: " << a;
      EXPECT_TRUE(shown.insert(a).second) << "also said twice: " << a;
      joined += (joined.empty() ? "" : " ") + a;
    }
    EXPECT_EQ(got.text, joined);
    EXPECT_EQ(EvalSummary(texts, options, embedder), got.text);
  }
  // The sentence budget counts points.
  options.summarize.budget = {Budget::Unit::kSentences, 2};
  EXPECT_LE(StructuredSummary(texts, options, embedder).points.size(), 2u);
}

TEST(StructuredSummary, OnlyPointRepresentativesWithinBudgetLexical) {
  const std::vector<BenchEntity> set = ReadBenchSet(kBench);
  ASSERT_EQ(set.size(), 2u);
  LexicalEmbedder lexical;
  for (const BenchEntity& e : set) CheckEntity(e, lexical);
}

TEST(StructuredSummary, OnlyPointRepresentativesWithinBudgetCombined) {
  const std::vector<BenchEntity> set = ReadBenchSet(kBench);
  LexicalEmbedder lexical;
  std::unique_ptr<UseLiteEmbedder> use_lite = UseLiteEmbedder::Load();
  CombinedEmbedder combined(lexical, *use_lite);
  for (const BenchEntity& e : set) CheckEntity(e, combined);
}

TEST(StructuredSummary, PraiseAndComplaintsBothPresent) {
  // The watch's reviews praise the battery and complain about the strap; a budget of two points
  // holds one of each (the rule's first step), whatever their support.
  const std::vector<BenchEntity> set = ReadBenchSet(kBench);
  LexicalEmbedder lexical;
  std::unique_ptr<UseLiteEmbedder> use_lite = UseLiteEmbedder::Load();
  CombinedEmbedder combined(lexical, *use_lite);
  EvalOptions options;
  options.structured = true;
  options.summarize.budget = {Budget::Unit::kSentences, 2};
  const StructuredSummaryResult got = StructuredSummary(Texts(set[0]), options, combined);
  std::set<std::string> polarities;
  for (const StructuredSummaryPoint& p : got.points) polarities.insert(p.polarity);
  EXPECT_EQ(polarities, (std::set<std::string>{"praise", "complaint"})) << got.text;
}

TEST(StructuredSummary, TokenBudgetNeedsATokenCost) {
  const std::vector<BenchEntity> set = ReadBenchSet(kBench);
  LexicalEmbedder lexical;
  EvalOptions options;
  options.structured = true;
  options.summarize.budget = {Budget::Unit::kTokens, 50};
  EXPECT_THROW(StructuredSummary(Texts(set[0]), options, lexical), std::invalid_argument);
}

}  // namespace
}  // namespace revsum
