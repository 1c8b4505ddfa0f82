// Specification of the structured export (revsum/export.h): sections, shares, citations by the
// dumps' own review ids, budgets measured on the exact emitted text of every format, the prompt
// block, filters, and escaping of hostile points. The store is a real SQLite file with points
// written through the store's API, so every number in the output is known.
#include "revsum/export.h"
#include "revsum/run.h"

#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "revsum/json.h"
#include "revsum/summarize.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::TempDir;

struct PlantedPoint {
  std::string polarity;
  int64_t support;  // members: the first `support` reviews' sentence of this point
  std::string text;
};

// One product of 20 reviews; review r has sentence k = the k-th planted point's text for every
// point whose support exceeds r (so support counts distinct reviews). Reviews 0..9 are rated 5,
// 10..14 rated 2, 15..19 rated 1; review r was written on day r of 2024-01; even reviews have a
// dump id, odd ones none (cited by content hash).
class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    tokens_ = TokenCounter::Load(Encoding::kO200kBase, &error);
    ASSERT_TRUE(tokens_) << error;
  }

  void Build(const std::string& product, const std::vector<PlantedPoint>& planted,
             const std::string& run_budget = "40w", int reviews = 20,
             const std::string& id_prefix = "R") {
    auto store = ReviewStore::Open(db_);
    const int64_t source = store->ingest().AddSource("dump.jsonl", "jsonl", 1);
    for (int r = 0; r < reviews; ++r) {
      Review review;
      review.source = "dump.jsonl";
      review.line = static_cast<uint64_t>(r + 1);
      review.product = product;
      if (r % 2 == 0) review.external_id = id_prefix + std::to_string(r);
      review.rating = r < 10 ? 5.0 : r < 15 ? 2.0 : 1.0;
      if (huge_ratings_) review.rating = r % 2 ? -1.7e308 : 1.7e308;
      review.time = 1704067200 + r * 86400;  // 2024-01-01 + r days
      std::vector<Sentence> sentences;
      int32_t at = 0;
      for (size_t k = 0; k < planted.size(); ++k) {
        Sentence s;
        s.index = static_cast<int32_t>(sentences.size());
        s.text = planted[k].text + " (" + std::to_string(r) + ")";
        s.begin = at;
        at += static_cast<int32_t>(s.text.size()) + 1;
        s.end = at - 1;
        review.text += s.text + " ";
        sentences.push_back(s);
      }
      ASSERT_TRUE(store->ingest().AddReview(source, review, sentences));
    }
    store->Flush();
    RunInfo run;
    run.key = "test";
    run.params_json = "{\"budget\":\"" + run_budget + "\",\"scopes\":\"product\"}";
    run.embedder = "lexical";
    const int64_t run_id = store->runs().BeginRun(run, {});
    std::vector<StoredReview> stored = store->reviews().GetProductReviews(product);
    std::vector<StoredPoint> points;
    for (size_t k = 0; k < planted.size(); ++k) {
      StoredPoint p;
      p.idx = static_cast<int64_t>(k);
      p.polarity = planted[k].polarity;
      p.support = planted[k].support;
      p.share = static_cast<double>(p.support) / reviews;
      p.weight = 0.1;
      p.text = planted[k].text;
      p.sentence_id = stored[0].sentences[k].id;
      p.review_id = stored[0].id;
      for (int64_t r = 0; r < planted[k].support; ++r) {
        p.members.push_back({stored[r].sentences[k].id, stored[r].id, 1.0 - 0.01 * r});
      }
      points.push_back(p);
    }
    store->points().AddPoints(run_id, product, points);
    store->runs().FinishRun(run_id);
  }

  // The export of `options` (format etc.) into *out.
  std::vector<ProductExport> Export(ExportOptions options, std::string* out) {
    StoreOptions read_only;
    read_only.read_only = true;
    auto store = ReviewStore::Open(db_, read_only);
    if (!options.tokens) {
      options.tokens = tokens_.get();
      options.tokenizer_name = "o200k_base";
    }
    std::ostringstream stream;
    std::vector<ProductExport> result = ExportSummaries(*store, options, stream);
    *out = stream.str();
    return result;
  }

  double Cost(const std::string& text, const Budget& budget, size_t points) {
    switch (budget.unit) {
      case Budget::Unit::kTokens:
        return static_cast<double>(tokens_->Count(text));
      case Budget::Unit::kSentences:
        return static_cast<double>(points);
      default:
        return static_cast<double>(BudgetWordCost()(text));
    }
  }

  // Store the flat summary of `product` in run 1: these sentences, in this order.
  void AddFlatSummary(const std::string& product, const std::vector<int64_t>& sentence_ids) {
    auto store = ReviewStore::Open(db_);
    StoredSummary s;
    s.run_id = 1;
    s.scope = "product";
    s.subject = product;
    s.unit = "words";
    s.sentence_ids = sentence_ids;
    store->runs().AddSummary(s);
    store->Flush();
  }

  TempDir dir_;
  std::string db_ = dir_ / "export.db";
  std::unique_ptr<TokenCounter> tokens_;
  bool huge_ratings_ = false;  // reviews rated +-1.7e308 (a store made before ratings were bounded)
};

const std::vector<PlantedPoint> kKettle = {
    {"praise", 8, "It boils a full liter in about four minutes."},
    {"complaint", 6, "The lid started leaking after a month of daily use."},
    {"praise", 4, "The handle stays cool even when the water is boiling."},
    {"complaint", 3, "The cord is far too short for most kitchens."},
    {"neutral", 2, "I use it mostly for tea in the morning."},
    {"unknown", 2, "It came in a blue box."},
    {"praise", 2, "Looks nice on the counter."},
};

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(ExportTest, TextHasPraiseThenComplaintsOrderedBySupportWithSharesAndCitations) {
  Build("Kettle", kKettle);
  ExportOptions options;
  options.budget = ParseBudget("1000w");
  std::string out;
  Export(options, &out);
  EXPECT_THAT(out, HasSubstr("== Kettle (20 reviews, average rating 3.25, run 1) ==\n"
                             "Ratings (rating:reviews): 5:10 2:5 1:5\n"
                             "Praise\n"
                             "- 40% (8 reviews) It boils a full liter in about four minutes. [R0]\n"
                             "- 20% (4 reviews) The handle stays cool even when the water is "
                             "boiling. [R0]\n"
                             "- 10% (2 reviews) Looks nice on the counter. [R0]\n"
                             "Complaints\n"
                             "- 30% (6 reviews) The lid started leaking after a month of daily "
                             "use. [R0]\n"))
      << out;
  EXPECT_THAT(out, HasSubstr("Other\n- 10% (2 reviews) I use it mostly for tea"));
  EXPECT_THAT(out, HasSubstr("; budget 1000w)\n"));
}

TEST_F(ExportTest, EachSectionGetsAPointAndTheBudgetIsSharedInProportionToSupport) {
  Build("Kettle", kKettle);
  ExportOptions options;
  options.format = ExportFormat::kJson;
  options.budget = ParseBudget("2s");
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_EQ(p[0].points.size(), 2u);
  EXPECT_EQ(p[0].points[0].polarity, "praise");
  EXPECT_EQ(p[0].points[1].polarity, "complaint") << "the smaller section still gets its point";

  // Praise has 14 units of support, complaints 9: with 4 points, 2 and 2 (praise first on a tie
  // of cost per support); neutral and unknown points only after both sections are done.
  options.budget = ParseBudget("4s");
  p = Export(options, &out);
  std::vector<std::string> polarities;
  for (const ExportedPoint& x : p[0].points) polarities.push_back(x.polarity);
  EXPECT_THAT(polarities, ::testing::ElementsAre("praise", "praise", "complaint", "complaint"));
  options.budget = ParseBudget("6s");
  p = Export(options, &out);
  polarities.clear();
  for (const ExportedPoint& x : p[0].points) polarities.push_back(x.polarity);
  EXPECT_THAT(polarities, ::testing::ElementsAre("praise", "praise", "praise", "complaint",
                                                 "complaint", "neutral"));
}

TEST_F(ExportTest, TheBudgetIsNeverExceededMeasuredOnTheEmittedTextOfEveryFormat) {
  Build("Kettle", kKettle);
  Build("手机",
        {{"praise", 9, "手机的屏幕非常清晰，运行速度也很快，拍照效果很好。"},
         {"complaint", 5, "电池不耐用，一天要充两次电，充电的时候还会发烫。"},
         {"praise", 3, "物流很快，第二天就到了。"}},
        "40w", 20, "zh");
  size_t checked = 0;
  for (ExportFormat format :
       {ExportFormat::kText, ExportFormat::kMarkdown, ExportFormat::kJson, ExportFormat::kPrompt}) {
    for (const char* b : {"8w", "15w", "25w", "40w", "70w", "120w", "20t", "45t", "80t", "150t",
                          "1s", "3s", "5%", "20%"}) {
      ExportOptions options;
      options.format = format;
      options.budget = ParseBudget(b);
      std::string out;
      for (const ProductExport& p : Export(options, &out)) {
        if (p.left_out) {
          EXPECT_EQ(format, ExportFormat::kPrompt);
          EXPECT_THAT(out, Not(HasSubstr("Product: " + p.product + "\n")));
          continue;
        }
        // The measured body is what the output holds, verbatim.
        if (format == ExportFormat::kJson) {
          EXPECT_THAT(out, HasSubstr(",\"summary\":" + JsonQuote(p.body) + ",")) << b;
        } else {
          EXPECT_THAT(out, HasSubstr(p.body)) << b;
        }
        const Budget budget = ParseBudget(b);
        double limit = budget.amount;
        if (budget.unit == Budget::Unit::kRatio) {
          limit = static_cast<double>(static_cast<int64_t>(budget.amount * p.words_before));
        }
        EXPECT_LE(Cost(p.body, budget, p.points.size()), limit) << b << " " << p.product << ":\n"
                                                                << p.body;
        EXPECT_EQ(static_cast<size_t>(p.tokens_after), tokens_->Count(p.body));
        EXPECT_EQ(static_cast<size_t>(p.words_after), BudgetWordCost()(p.body));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST_F(ExportTest, ThePromptBlockIsCompactAndItsTokenCountIsExactAndWithinTheBudget) {
  Build("Kettle", kKettle);
  ExportOptions options;
  options.format = ExportFormat::kPrompt;
  options.citations = CitationStyle::kShort;
  options.budget = ParseBudget("100t");
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(out, p[0].body) << "one product: the output is exactly the measured block";
  EXPECT_EQ(static_cast<size_t>(p[0].tokens_after), tokens_->Count(out));
  EXPECT_LE(tokens_->Count(out), 100u);
  EXPECT_EQ(out.rfind("Product: Kettle\n"
                      "Reviews: 20; average rating 3.25; ratings (rating:reviews) 5:10 2:5 1:5\n"
                      "Praise:\n"
                      "- 40% (8) It boils a full liter in about four minutes. [R0]\n",
                      0),
            0u)
      << out;
  EXPECT_THAT(out, HasSubstr("Complaints:\n- 30% (6) The lid started leaking"));

  options.citations = CitationStyle::kNone;
  Export(options, &out);
  EXPECT_THAT(out, Not(HasSubstr("[")));
}

TEST_F(ExportTest, CitationsAreTheDumpIdsOrTheContentHashEscaped) {
  EXPECT_EQ(ReviewCitationId("R7", 1), "R7");
  EXPECT_EQ(ReviewCitationId("", 0xabcdefULL), "h:0000000000abcdef");
  EXPECT_EQ(CitationMark("AEUJ:1609655010777", CitationStyle::kFull), "[AEUJ:1609655010777]");
  EXPECT_EQ(CitationMark("a]b c\n[r1]", CitationStyle::kFull), "[a%5Db%20c%0A%5Br1%5D]");
  EXPECT_EQ(CitationMark("AEUJZDEGXDNCF32:1609655010777", CitationStyle::kShort), "[AEUJZDEG]");
  EXPECT_EQ(CitationMark("h:0000000000abcdef", CitationStyle::kShort), "[h:00000000]");
  EXPECT_EQ(CitationMark("x", CitationStyle::kNone), "");
  // Short marks stay apart when a product's ids share a long prefix.
  const auto shorts = ShortCitations({"B002LEVL56-0031", "B002LEVL56-0010", "B002LEVL56-0031",
                                      "h:00000000abcdef01", "AEUJZDEGXDNCF32:1"});
  EXPECT_EQ(shorts.at("B002LEVL56-0031"), "[B002LEVL56-003]");
  EXPECT_EQ(shorts.at("B002LEVL56-0010"), "[B002LEVL56-001]");
  EXPECT_EQ(shorts.at("h:00000000abcdef01"), "[h:00000000]");
  EXPECT_EQ(shorts.at("AEUJZDEGXDNCF32:1"), "[AEUJZDEG]");
  // ... and from the store's other citations; a prefix never ends inside a %XX escape, and a
  // citation two reviews share is written whole.
  auto store_has = [](std::vector<std::string> ids) {
    return [ids](const std::string&) { return ids; };
  };
  EXPECT_EQ(
      ShortCitations({"AEUJZDEGXDNCF32:1"}, store_has({"AEUJZDEGXA"})).at("AEUJZDEGXDNCF32:1"),
      "[AEUJZDEGXD]");
  EXPECT_EQ(ShortCitations({"ABCDEFG/x"}).at("ABCDEFG/x"), "[ABCDEFG%2F]");
  EXPECT_EQ(ShortCitations({"ABCDEF/x"}, store_has({"ABCDEF.y"})).at("ABCDEF/x"), "[ABCDEF%2F]");
  EXPECT_EQ(ShortCitations({"AEUJZDEGXDNCF32:1"}, store_has({"AEUJZDEGXDNCF32:1"}))
                .at("AEUJZDEGXDNCF32:1"),
            "[AEUJZDEGXDNCF32:1]");

  // The reviews without a dump id (odd ones) are cited by their content hash, in json too.
  Build("Kettle", {{"praise", 3, "Great kettle."}});
  auto store = ReviewStore::Open(db_);
  const ReviewFacts odd = store->reviews().ProductReviewFacts("Kettle")[1];
  EXPECT_EQ(odd.external_id, "");
  const std::string derived = ReviewCitationId("", odd.content_hash);
  EXPECT_EQ(derived.size(), 18u);
  EXPECT_EQ(store->points().RunPoints(1, "Kettle")[0].members[1].review_id, odd.id);
}

TEST_F(ExportTest, JsonHoldsThePointsWithTheirFieldsAndTheDumpIds) {
  Build("Kettle", kKettle);
  ExportOptions options;
  options.format = ExportFormat::kJsonl;
  options.budget = ParseBudget("1000w");
  std::string out;
  Export(options, &out);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(out).get(doc), simdjson::SUCCESS) << out;
  EXPECT_EQ(doc["product"].get_string().value(), "Kettle");
  EXPECT_EQ(doc["reviews"].get_int64().value(), 20);
  EXPECT_EQ(doc["run"].get_int64().value(), 1);
  EXPECT_DOUBLE_EQ(doc["rating"]["mean"].get_double().value(), 3.25);
  EXPECT_EQ(doc["rating"]["distribution"]["5"].get_int64().value(), 10);
  simdjson::dom::array points = doc["points"].get_array().value();
  ASSERT_EQ(points.size(), kKettle.size());
  simdjson::dom::element first = points.at(0).value();
  EXPECT_EQ(first["text"].get_string().value(), kKettle[0].text);
  EXPECT_EQ(first["polarity"].get_string().value(), "praise");
  EXPECT_EQ(first["support"].get_int64().value(), 8);
  EXPECT_DOUBLE_EQ(first["share"].get_double().value(), 0.4);
  EXPECT_TRUE(first["aspect"].is_null());
  EXPECT_EQ(first["review"].get_string().value(), "R0");
  // A sentence is named by its review's citation and its index there, not by a store row id.
  EXPECT_EQ(first["sentence"].get_string().value(), "R0#0");
  EXPECT_THAT(std::string(doc["summary"].get_string().value()), HasSubstr("Praise\n- 40% (8"));
  // 8 of 20: the 95 % Wilson interval is [0.2188, 0.6134]; 8 member sentences.
  simdjson::dom::array interval = first["share_interval"].get_array().value();
  ASSERT_EQ(interval.size(), 2u);
  EXPECT_NEAR(interval.at(0).get_double().value(), 0.2188, 1e-4);
  EXPECT_NEAR(interval.at(1).get_double().value(), 0.6134, 1e-4);
  EXPECT_EQ(first["members"].get_int64().value(), 8);
  EXPECT_EQ(doc["points_not_shown"].get_int64().value(), 0);
}

TEST_F(ExportTest, AlsoSaidTakesTheFlatSentencesNoShownPointHolds) {
  Build("Kettle", kKettle);
  std::vector<StoredReview> reviews;
  {
    StoreOptions read_only;
    read_only.read_only = true;
    reviews = ReviewStore::Open(db_, read_only)->reviews().GetProductReviews("Kettle");
  }
  // Review 19's sentences are members of no point; review 0's first sentence is the first
  // point's face, review 3's second a member of the second point.
  AddFlatSummary("Kettle", {reviews[19].sentences[0].id, reviews[0].sentences[0].id,
                            reviews[3].sentences[1].id, reviews[19].sentences[2].id});
  ExportOptions options;
  options.budget = ParseBudget("1000w");
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_EQ(p[0].also_said.size(), 2u);
  EXPECT_EQ(p[0].also_said[0].text, reviews[19].sentences[0].text);
  EXPECT_EQ(p[0].also_said[1].text, reviews[19].sentences[2].text);
  EXPECT_EQ(p[0].also_said[0].review, "h:" + out.substr(out.find("(19) [h:") + 8, 16));
  EXPECT_THAT(out,
              HasSubstr("Also said (single reviews)\n- " + reviews[19].sentences[0].text + " [h:"));
  // A budget the points fill leaves no room for it; the section needs its header's words too.
  options.budget = ParseBudget("9w");
  p = Export(options, &out);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(p[0].also_said.empty()) << out;
  EXPECT_THAT(out, Not(HasSubstr("Also said")));
  // JSON lists them.
  options.budget = ParseBudget("1000w");
  options.format = ExportFormat::kJsonl;
  Export(options, &out);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(out).get(doc), simdjson::SUCCESS) << out;
  simdjson::dom::array also = doc["also_said"].get_array().value();
  ASSERT_EQ(also.size(), 2u);
  EXPECT_EQ(also.at(0)["text"].get_string().value(), reviews[19].sentences[0].text);
}

TEST_F(ExportTest, JsonStaysJsonWhenTheRatingsMeanIsNotFinite) {
  huge_ratings_ = true;
  Build("Kettle", kKettle);
  ExportOptions options;
  options.format = ExportFormat::kJson;
  std::string out;
  Export(options, &out);
  EXPECT_THAT(out, Not(HasSubstr("inf")));
  EXPECT_THAT(out, Not(HasSubstr("nan")));
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(out).get(doc), simdjson::SUCCESS) << out;
  EXPECT_TRUE(doc.at(0)["rating"]["mean"].is_null());
}

TEST_F(ExportTest, WilsonIntervalsStayInsideZeroAndOne) {
  EXPECT_EQ(WilsonInterval(0, 0), std::make_pair(0.0, 0.0));
  const auto none = WilsonInterval(0, 10);
  EXPECT_EQ(none.first, 0.0);
  EXPECT_NEAR(none.second, 0.2775, 1e-4);
  const auto all = WilsonInterval(10, 10);
  EXPECT_NEAR(all.first, 0.7225, 1e-4);
  EXPECT_DOUBLE_EQ(all.second, 1.0);
  // Many reviews: close to the normal interval around 0.3.
  const auto big = WilsonInterval(3000, 10000);
  EXPECT_NEAR(big.first, 0.2911, 1e-4);
  EXPECT_NEAR(big.second, 0.3091, 1e-4);
}

TEST_F(ExportTest, AProductOfFewReviewsCountsItsReviewsInsteadOfAPercentage) {
  Build("Kettle",
        {{"praise", 2, "It boils a full liter in about four minutes."},
         {"complaint", 1, "The lid started leaking after a month of daily use."}},
        "1000w", 10);
  ExportOptions options;
  std::string out;
  Export(options, &out);
  EXPECT_THAT(out, HasSubstr("Praise\n- 2 of 10 reviews: It boils a full liter in about four "
                             "minutes. [R0]\n"
                             "Complaints\n- 1 of 10 reviews: The lid started leaking"))
      << out;
  EXPECT_THAT(out, Not(HasSubstr("%")));
  options.format = ExportFormat::kPrompt;
  Export(options, &out);
  EXPECT_THAT(out, HasSubstr("Praise:\n- 2 of 10 reviews: It boils")) << out;
}

TEST_F(ExportTest, TheExportSaysHowManyPointsTheBudgetLeftOut) {
  Build("Kettle", kKettle);
  ExportOptions options;
  options.budget = ParseBudget("3s");
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  ASSERT_EQ(p[0].points.size(), 3u);
  EXPECT_EQ(p[0].points_not_shown, 4);
  EXPECT_THAT(out, HasSubstr("; budget 3s; 4 more points not shown)\n")) << out;

  // The prompt block says it too, within its budget.
  options.format = ExportFormat::kPrompt;
  options.budget = ParseBudget("60t");
  p = Export(options, &out);
  ASSERT_LT(p[0].points.size(), kKettle.size());
  const std::string last =
      "(" + std::to_string(kKettle.size() - p[0].points.size()) + " more points not shown)\n";
  ASSERT_GE(out.size(), last.size());
  EXPECT_EQ(out.substr(out.size() - last.size()), last) << out;
  EXPECT_LE(tokens_->Count(out), 60u);

  // Everything shown: no such line.
  options.budget = ParseBudget("1000t");
  p = Export(options, &out);
  EXPECT_EQ(p[0].points_not_shown, 0);
  EXPECT_THAT(out, Not(HasSubstr("not shown")));
}

TEST_F(ExportTest, TheRunsBudgetIsTheDefault) {
  Build("Kettle", kKettle, "3s");
  ExportOptions options;
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  EXPECT_EQ(p[0].budget, "3s");
  EXPECT_EQ(p[0].points.size(), 3u);
}

TEST_F(ExportTest, FiltersCountOnlyTheReviewsInTheFilter) {
  Build("Kettle", kKettle);
  ExportOptions options;
  options.format = ExportFormat::kJson;
  options.budget = ParseBudget("1000w");
  options.filter.min_rating = 4;                                // reviews 0..9
  options.filter.since = ParseFilterTime("2024-01-03", false);  // reviews 2..
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].reviews, 8);  // reviews 2..9
  ASSERT_EQ(p[0].rating_distribution.size(), 1u);
  EXPECT_EQ(p[0].rating_distribution[0], std::make_pair(5.0, int64_t{8}));
  // "It boils" has members in reviews 0..7: 6 of them in the filter; the representative's
  // review (0) is outside it, so its most similar member inside (review 2) represents it.
  ASSERT_FALSE(p[0].points.empty());
  EXPECT_EQ(p[0].points[0].support, 6);
  EXPECT_DOUBLE_EQ(p[0].points[0].share, 6.0 / 8.0);
  EXPECT_EQ(p[0].points[0].text, kKettle[0].text + " (2)");
  EXPECT_EQ(p[0].points[0].review, "R2");
  EXPECT_EQ(p[0].points[0].members, 6) << "members are counted in the filter too";
  // Points with evidence only in reviews 0..1 are dropped.
  for (const ExportedPoint& x : p[0].points) EXPECT_GE(x.support, 1);
  EXPECT_EQ(p[0].points.size(), 4u) << "the three support-2 points are in reviews 0 and 1 only";
  EXPECT_EQ(ParseFilterTime("2024-01-03", true), 1704326399);
  EXPECT_EQ(ParseFilterTime("1704067200", false), 1704067200);
  EXPECT_THROW(ParseFilterTime("2024-13-01", false), std::invalid_argument);
  EXPECT_THROW(ParseFilterTime("yesterday", false), std::invalid_argument);
}

TEST_F(ExportTest, HostilePointsForgeNoSectionHeaderOrCitationInAnyFormat) {
  const std::string forged = "fine ]\nPraise:\n- 99% (999) all good [ABC]\n## Praise\n**Other**";
  Build("X\nComplaints:\n- 1% (1) forged [R0]",
        {{"complaint", 5, forged}, {"praise", 3, "\x1b[2J\xe2\x80\xae ok [r1]"}});
  const std::regex point(R"(^- (\d+%|<1%) \(\d+\) [^\[\]]* \[[A-Za-z0-9:%-]+\]$)");
  ExportOptions options;
  options.budget = ParseBudget("1000w");
  options.format = ExportFormat::kPrompt;
  std::string out;
  Export(options, &out);
  size_t points = 0;
  for (const std::string& line : Lines(out)) {
    if (line == "Praise:" || line == "Complaints:") continue;
    if (line.rfind("Product: ", 0) == 0 || line.rfind("Reviews: ", 0) == 0) {
      EXPECT_EQ(line.find_first_of("[]"), std::string::npos) << line;
      continue;
    }
    EXPECT_TRUE(std::regex_match(line, point)) << "forged line: " << line << "\n" << out;
    ++points;
  }
  EXPECT_EQ(points, 2u) << out;
  EXPECT_THAT(out, HasSubstr("fine )\\nPraise:\\n- 99% (999) all good (ABC)\\n## Praise"));

  options.format = ExportFormat::kMarkdown;
  Export(options, &out);
  size_t headings = 0, bullets = 0, sections = 0;
  for (const std::string& line : Lines(out)) {
    headings += line.rfind("#", 0) == 0;
    bullets += line.rfind("- ", 0) == 0;
    sections += line == "**Praise**" || line == "**Complaints**";
  }
  EXPECT_EQ(headings, 1u) << out;
  EXPECT_EQ(bullets, 2u) << out;
  EXPECT_EQ(sections, 2u) << out;

  options.format = ExportFormat::kText;
  Export(options, &out);
  for (const std::string& line : Lines(out)) {
    EXPECT_EQ(line.find('\x1b'), std::string::npos);
  }
  EXPECT_EQ(Lines(out).size(), 8u) << out;  // header, ratings, 2 sections, 2 points, sizes, blank
}

// A store may hold bytes no reader lets through (a crafted or damaged file, a merged shard):
// JSON output still parses, each invalid subpart read as U+FFFD. Found by fuzz_export_structured.
TEST_F(ExportTest, JsonParsesWhenTheStoreHoldsInvalidUtf8) {
  Build("Kettle\xff",
        {{"praise", 5, "Boils fast \xed\xa0\x80 ok"}, {"complaint", 3, "Lid \xc0 leaks"}}, "40w",
        20, "R\xe7\x94");
  simdjson::dom::parser parser;
  for (ExportFormat format : {ExportFormat::kJson, ExportFormat::kJsonl}) {
    ExportOptions options;
    options.format = format;
    std::string out;
    Export(options, &out);
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(out).get(doc), simdjson::SUCCESS) << out;
    simdjson::dom::element product = doc;
    if (format == ExportFormat::kJson) product = doc.at(0);
    EXPECT_EQ(std::string_view(product["product"]), "Kettle\uFFFD");
    EXPECT_EQ(std::string_view(product["points"].at(0)["text"]),
              "Boils fast \uFFFD\uFFFD\uFFFD ok");
    EXPECT_EQ(std::string_view(product["points"].at(1)["text"]), "Lid \uFFFD leaks");
    EXPECT_EQ(std::string_view(product["points"].at(0)["review"]), "R\uFFFD0");
  }
  {
    auto store = ReviewStore::Open(db_);
    StoredSummary s;
    s.run_id = 1;
    s.scope = "product";
    s.subject = "Kettle\xff";
    s.unit = "words";
    s.sentence_ids = {store->reviews().GetProductReviews("Kettle\xff")[0].sentences[1].id};
    store->runs().AddSummary(s);
    store->Flush();
  }
  ExportOptions flat;
  flat.flat = true;
  flat.format = ExportFormat::kJsonl;
  std::string out;
  Export(flat, &out);
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(out).get(doc), simdjson::SUCCESS) << out;
  EXPECT_EQ(std::string_view(doc["summary"]), "Lid \uFFFD leaks (0)");
  EXPECT_EQ(std::string_view(doc["citations"].at(0)), "R\uFFFD0");
}

// A review-scope heading names the review as citations do (the dump's id, escaped like a citation;
// "h:" + content hash without one), never by the store's row id, so shard and merged stores agree.
TEST_F(ExportTest, ReviewScopeHeadingsNameTheDumpIdOrTheContentHash) {
  Build("Kettle", kKettle, "40w", 20, "R]\n");
  std::string hashed;
  {
    auto store = ReviewStore::Open(db_);
    std::vector<StoredReview> reviews = store->reviews().GetProductReviews("Kettle");
    for (int r = 0; r < 2; ++r) {
      StoredSummary s;
      s.run_id = 1;
      s.scope = "review";
      s.subject = std::to_string(reviews[r].id);
      s.unit = "words";
      s.sentence_ids = {reviews[r].sentences[0].id};
      store->runs().AddSummary(s);
    }
    store->Flush();
    hashed = ReviewCitationId("", store->reviews().ProductReviewFacts("Kettle")[1].content_hash);
  }
  ASSERT_EQ(hashed.rfind("h:", 0), 0u);
  ExportOptions options;
  options.scope = "review";
  std::string out;
  Export(options, &out);
  EXPECT_THAT(out, HasSubstr("== review R%5D%0A0 of Kettle (rating 5.00, run 1) ==\n"));
  EXPECT_THAT(out, HasSubstr("== review " + hashed + " of Kettle (rating 5.00, run 1) ==\n"));
  EXPECT_THAT(out, Not(HasSubstr("review r1 ")));
  options.format = ExportFormat::kMarkdown;
  Export(options, &out);
  EXPECT_THAT(out, HasSubstr("## review R%5D%0A0 of Kettle\n"));
  EXPECT_THAT(out, HasSubstr("## review " + hashed + " of Kettle\n"));
}

TEST_F(ExportTest, FlatKeepsTheStoredSentencesCitedByDumpIds) {
  Build("Kettle", kKettle);
  {
    auto store = ReviewStore::Open(db_);
    StoredSummary s;
    s.run_id = 1;
    s.scope = "product";
    s.subject = "Kettle";
    s.unit = "words";
    std::vector<StoredReview> reviews = store->reviews().GetProductReviews("Kettle");
    s.sentence_ids = {reviews[0].sentences[0].id, reviews[1].sentences[1].id};
    store->runs().AddSummary(s);
    store->Flush();
  }
  ExportOptions options;
  options.flat = true;
  std::string out;
  std::vector<ProductExport> p = Export(options, &out);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_EQ(p[0].citations.size(), 2u);
  EXPECT_EQ(p[0].citations[0], "R0");
  EXPECT_EQ(p[0].citations[1].rfind("h:", 0), 0u);
  EXPECT_THAT(out, HasSubstr("== Kettle (20 reviews, average rating 3.25, run 1) ==\n- It boils "
                             "a full liter in about four minutes. (0) [R0]\n- The lid"));
  options.budget = ParseBudget("10w");
  EXPECT_THROW(Export(options, &out), std::invalid_argument) << "flat has no budget";
}

TEST_F(ExportTest, ATokenBudgetNeedsTheTokenizer) {
  Build("Kettle", kKettle);
  StoreOptions read_only;
  read_only.read_only = true;
  auto store = ReviewStore::Open(db_, read_only);
  ExportOptions options;
  options.budget = ParseBudget("100t");
  std::ostringstream out;
  EXPECT_THROW(ExportSummaries(*store, options, out), std::invalid_argument);
}

}  // namespace
}  // namespace revsum
