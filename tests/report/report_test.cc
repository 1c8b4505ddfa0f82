// The report page generator (include/revsum/report.h) on real stores in a temporary directory:
// escaping of hostile strings, code-point offsets of highlighted sentences, bounded size, the
// choice of products and runs. The page in a real browser is tests/report/render.py's job.
#include "revsum/report.h"

#include <sqlite3.h>

#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "support/query_db.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// The JSON of <script id="revsum-data">, as written.
std::string DataScript(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"revsum-data\">";
  const size_t begin = page.find(open);
  EXPECT_NE(begin, std::string::npos);
  const size_t end = page.find("</script>", begin);
  return page.substr(begin + open.size(), end - begin - open.size());
}

struct PlantedReview {
  std::string product, text;
  std::optional<double> rating;
  std::vector<std::pair<int32_t, int32_t>> sentences;  // code point spans
  bool span_texts = false;  // stored sentence texts: the spans' text, else "sentence I"
};

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = ReviewStore::Open(dir_ / "reviews.db"); }

  // Adds a review with the given sentence spans (the stored sentence text is the span's text
  // unless it is given); returns the review id.
  int64_t Add(const PlantedReview& r) {
    if (source_ == 0) source_ = store_->ingest().AddSource("dump.jsonl", "jsonl", 0);
    Review review;
    review.source = "dump.jsonl";
    review.line = ++line_;
    review.product = r.product;
    review.external_id = "ext" + std::to_string(line_);
    review.rating = r.rating;
    review.text = r.text;
    std::vector<Sentence> sentences;
    for (size_t i = 0; i < r.sentences.size(); ++i) {
      const auto [begin, end] = r.sentences[i];
      sentences.push_back(Sentence{static_cast<int32_t>(i), begin, end,
                                   r.span_texts ? CutExcerpt(r.text, begin, end, 0, 1 << 20).hit
                                                : "sentence " + std::to_string(i)});
    }
    EXPECT_TRUE(store_->ingest().AddReview(source_, review, sentences));
    store_->Flush();
    return Int("SELECT max(id) FROM reviews");
  }
  int64_t Int(const std::string& sql) {
    const revsum::testing::DbConnection db(store_->path());
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    const int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
  }
  int64_t SentenceId(int64_t review, int idx) {
    return Int("SELECT id FROM sentences WHERE review_id = " + std::to_string(review) +
               " AND idx = " + std::to_string(idx));
  }
  // A finished run with one point per entry of `points` for `product`: {text, polarity, member
  // sentence ids}; every sentence of the product gets a product-scope score.
  int64_t Run(const std::string& key, const std::string& product,
              const std::vector<std::tuple<std::string, std::string, std::vector<int64_t>>>& points,
              const std::vector<std::string>& heads = {"centroid", "consensus"}) {
    RunInfo info;
    info.key = key;
    info.embedder = "lexical";
    const int64_t run = store_->runs().BeginRun(info, heads);
    std::vector<ScoreRow> rows;
    sqlite3_stmt* st = nullptr;
    const std::string sql =
        "SELECT s.id FROM sentences s JOIN reviews r ON r.id = s.review_id JOIN products p ON "
        "p.id = r.product_id WHERE p.key = ?1";
    const revsum::testing::DbConnection db(store_->path());
    sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &st, nullptr);
    sqlite3_bind_text(st, 1, product.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(st) == SQLITE_ROW) {
      ScoreRow row;
      row.sentence_id = sqlite3_column_int64(st, 0);
      row.weight = 0.01;
      row.head_weights.assign(heads.size(), 0.02f);
      rows.push_back(row);
    }
    sqlite3_finalize(st);
    store_->runs().AddScores(run, "product", rows);
    const int64_t reviews = Int(
        "SELECT count(*) FROM reviews r JOIN products p ON p.id = r.product_id WHERE p.key = '" +
        product + "'");
    std::vector<StoredPoint> stored;
    for (size_t k = 0; k < points.size(); ++k) {
      const auto& [text, polarity, members] = points[k];
      StoredPoint p;
      p.idx = static_cast<int64_t>(k);
      p.text = text;
      p.sentence_id = members.front();
      p.review_id =
          Int("SELECT review_id FROM sentences WHERE id = " + std::to_string(members.front()));
      p.polarity = polarity;
      std::set<int64_t> distinct;
      for (int64_t s : members) {
        const int64_t r = Int("SELECT review_id FROM sentences WHERE id = " + std::to_string(s));
        distinct.insert(r);
        p.members.push_back({s, r, 0.9});
      }
      p.support = static_cast<int64_t>(distinct.size());
      p.share = static_cast<double>(p.support) / static_cast<double>(reviews);
      p.weight = 0.1;
      stored.push_back(p);
    }
    store_->points().AddPoints(run, product, stored);
    store_->runs().FinishRun(run);
    return run;
  }
  std::string Page(const ReportOptions& options = {}, ReportSummary* summary = nullptr) {
    std::ostringstream out;
    const ReportSummary s = WriteReport(*store_, options, out);
    if (summary) *summary = s;
    return out.str();
  }

  testing::TempDir dir_;
  std::unique_ptr<ReviewStore> store_;
  int64_t source_ = 0;
  uint64_t line_ = 0;
};

TEST(ScriptJsonQuoteTest, EscapesWhatCouldEndOrCommentOutAScript) {
  EXPECT_EQ(ScriptJsonQuote("</script><!--&\u2028\u2029\"\n"),
            "\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029\\\"\\n\"");
  // Other text unchanged; a bidi override is escaped as every JSON writer escapes it (json.h).
  EXPECT_EQ(ScriptJsonQuote("电池 😀 \u202e"), "\"电池 😀 \\u202e\"");
}

TEST(CutExcerptTest, OffsetsAreCodePoints) {
  // 😀 is 4 bytes and 1 code point, 好 3 bytes and 1: the sentence starts at code point 10.
  const std::string text = "😀好 first. 電池壞了！ after";
  const ReviewExcerpt x = CutExcerpt(text, 10, 15, 100, 100);
  EXPECT_EQ(x.before, "😀好 first. ");
  EXPECT_EQ(x.hit, "電池壞了！");
  EXPECT_EQ(x.after, " after");
  EXPECT_FALSE(x.cut_before || x.cut_hit || x.cut_after);
}

TEST(CutExcerptTest, ContextIsBoundedAndOffsetsAreClamped) {
  const std::string text = std::string(1000, 'a') + "好句子。" + std::string(1000, 'b');
  ReviewExcerpt x = CutExcerpt(text, 1000, 1004, 5, 100);
  EXPECT_EQ(x.before, "aaaaa");
  EXPECT_EQ(x.hit, "好句子。");
  EXPECT_EQ(x.after, "bbbbb");
  EXPECT_TRUE(x.cut_before && x.cut_after);
  x = CutExcerpt(text, 1000, 1004, 5, 2);  // long sentence: cut at a code point boundary
  EXPECT_EQ(x.hit, "好句");
  EXPECT_TRUE(x.cut_hit);
  x = CutExcerpt("short", 3, 99, 10, 100);  // past the end: clamped, never a crash
  EXPECT_EQ(x.hit, "rt");
  x = CutExcerpt("short", -4, 2, 10, 100);
  EXPECT_EQ(x.hit, "sh");
}

TEST_F(ReportTest, ShowsEveryProductPointAndShareAsStored) {
  const int64_t a = Add({"kettle", "Boils fast. Loud click.", 5, {{0, 11}, {12, 23}}});
  const int64_t b = Add({"kettle", "Boils quickly!", 4, {{0, 14}}});
  const int64_t c = Add({"kettle", "Loud when it clicks.", 2, {{0, 20}}});
  const int64_t d = Add({"水果", "苹果很新鲜。物流很快。", 1, {{0, 6}, {6, 11}}});
  Run("r1", "kettle",
      {{"Boils fast.", "praise", {SentenceId(a, 0), SentenceId(b, 0)}},
       {"Loud click.", "complaint", {SentenceId(a, 1), SentenceId(c, 0)}}});
  Run("r2", "水果", {{"苹果很新鲜。", "praise", {SentenceId(d, 0)}}});
  ReportSummary summary;
  const std::string page = Page({}, &summary);
  EXPECT_EQ(summary.products, 2u);
  EXPECT_EQ(summary.points, 3u);
  EXPECT_NE(page.find("data-product=\"kettle\""), std::string::npos);
  EXPECT_NE(page.find("data-product=\"水果\""), std::string::npos);
  EXPECT_EQ(Count(page, "<li class=\"point "), 3u);
  EXPECT_NE(page.find("<span class=\"pct\">66.7%</span>"), std::string::npos);   // 2 of 3
  EXPECT_NE(page.find("<span class=\"pct\">100.0%</span>"), std::string::npos);  // 1 of 1
  EXPECT_NE(page.find("<li class=\"point praise\""), std::string::npos);
  EXPECT_NE(page.find("<li class=\"point complaint\""), std::string::npos);
  // The index: most reviews first, with the biggest praise and complaint of each product.
  EXPECT_LT(page.find("<tr class=\"index-row\" data-product=\"kettle\""),
            page.find("<tr class=\"index-row\" data-product=\"水果\""));
  EXPECT_NE(page.find("<td class=\"biggest complaint\"><span class=\"pct\">66.7%</span> "
                      "<span class=\"d\">Loud click.</span>"),
            std::string::npos);
  // Self-contained: nothing is fetched.
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("href=\"http"), std::string::npos);
}

TEST_F(ReportTest, HostileStringsCannotInjectMarkupOrScript) {
  const std::string hostile = "</script><img src=x onerror=alert(1)><!--\u202eevil\u2028x&amp;";
  const std::string text = "Fine. " + hostile;
  const int64_t r = Add({hostile, text, 3, {{0, 5}, {6, 59}}});
  const int64_t r2 = Add({hostile, "<b>bold</b> \"quoted\" 'single'", 3, {{0, 10}}});
  Run("r1", hostile, {{hostile, "complaint", {SentenceId(r, 1), SentenceId(r2, 0)}}});
  const std::string page = Page();
  // Only the page's own two scripts and no element from the data.
  EXPECT_EQ(Count(page, "<script"), 2u);
  EXPECT_EQ(Count(page, "</script>"), 2u);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  EXPECT_NE(page.find("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(page.find("data-product=\"&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("&amp;amp;"), std::string::npos);
  // Inside the data script: no '<', '>', '&' nor a raw U+2028/U+2029 at all.
  const std::string data = DataScript(page);
  EXPECT_EQ(data.find_first_of("<>&"), std::string::npos);
  EXPECT_EQ(data.find("\u2028"), std::string::npos);
  EXPECT_EQ(data.find("\u2029"), std::string::npos);
  EXPECT_NE(data.find("\\u003c/script\\u003e\\u003cimg"), std::string::npos);
  EXPECT_NE(data.find("\\u2028"), std::string::npos);
  // Data spans are bidi-isolated, so U+202E cannot reorder the page around them.
  EXPECT_NE(page.find(".d{unicode-bidi:isolate"), std::string::npos);
}

TEST_F(ReportTest, EvidenceHighlightsTheSentenceAtItsStoredOffsets) {
  // The stored sentence text differs from the original span (cleaned); the page highlights the
  // original span, found by code point offsets after an emoji and Chinese.
  const int64_t r = Add({"p", "😀😀 好的。 The battery dies fast. Bye", 2, {{0, 6}, {7, 29}}});
  const int64_t r2 = Add({"p", "Battery is weak.", 1, {{0, 16}}});
  Run("r1", "p", {{"The battery dies fast.", "complaint", {SentenceId(r, 1), SentenceId(r2, 0)}}});
  const std::string data = DataScript(Page());
  EXPECT_NE(
      data.find("\"pre\":\"😀😀 好的。 \",\"hit\":\"The battery dies fast.\",\"post\":\" Bye\""),
      std::string::npos)
      << data;
  EXPECT_NE(data.find("\"pre\":\"\",\"hit\":\"Battery is weak.\",\"post\":\"\""),
            std::string::npos);
}

TEST_F(ReportTest, BoundedSizeForATenThousandReviewProduct) {
  std::vector<int64_t> first_sentences;
  {
    Review review;
    const int64_t source = store_->ingest().AddSource("big.jsonl", "jsonl", 0);
    for (int i = 0; i < 10000; ++i) {
      review.source = "big.jsonl";
      review.line = static_cast<uint64_t>(i + 1);
      review.product = "big";
      review.rating = 1 + i % 5;
      review.text = "Marker" + std::to_string(i) + " says the battery is fine. " +
                    std::string(200, 'x') + ". The end.";
      const auto n = static_cast<int32_t>(review.text.size());  // ASCII: bytes = code points
      ASSERT_TRUE(store_->ingest().AddReview(
          source, review,
          {Sentence{0, 0, 35, "s0"}, Sentence{1, 36, n - 9, "s1"}, Sentence{2, n - 8, n, "s2"}}));
    }
    store_->Flush();
  }
  std::vector<std::tuple<std::string, std::string, std::vector<int64_t>>> points;
  for (int k = 0; k < 12; ++k) {
    std::vector<int64_t> members;
    for (int i = k; i < 10000; i += 12) members.push_back(3 * i + 1);  // sentence idx 0 of review i
    points.emplace_back("point " + std::to_string(k), k % 2 ? "praise" : "complaint", members);
  }
  Run("r1", "big", points);
  ReportOptions options;
  ReportSummary summary;
  const std::string page = Page(options, &summary);
  EXPECT_EQ(summary.evidence, 12 * options.max_evidence);
  EXPECT_EQ(summary.attention_reviews, options.sample_reviews);
  EXPECT_LT(page.size(), 400u * 1024) << "the page embeds too much";
  // Only the evidence's and the sample's reviews appear, and the page says what it left out.
  const std::regex marker("Marker[0-9]+ ");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), marker);
       it != std::sregex_iterator(); ++it) {
    seen.insert(it->str());
  }
  EXPECT_LE(seen.size(), 12 * options.max_evidence);
  EXPECT_NE(page.find("This page holds 240 of the 10000 member sentences"), std::string::npos);
  EXPECT_NE(page.find("a sample of 24 of the 10000 reviews"), std::string::npos);
}

TEST_F(ReportTest, AHugeReviewIsCutInTheAttentionView) {
  // 50 sentences of 1,000 characters: the attention view keeps about 4,000 of them.
  PlantedReview huge{"p", "", 5, {}, true};
  for (int i = 0; i < 50; ++i) {
    huge.sentences.emplace_back(static_cast<int32_t>(huge.text.size()),
                                static_cast<int32_t>(huge.text.size() + 1000));
    huge.text += std::string(999, 'a' + i % 26) + ".";
  }
  const int64_t r = Add(huge);
  Run("r1", "p", {{"point", "praise", {SentenceId(r, 0)}}});
  ReportOptions options;
  const std::string data = DataScript(Page(options));
  EXPECT_LT(data.size(), options.max_review_chars + 3 * options.context_chars + 4000);
  EXPECT_NE(data.find("\"total\":50,"), std::string::npos);
}

TEST_F(ReportTest, AttentionLegendNamesWhatEachHeadLooksAt) {
  const int64_t r = Add({"p", "Cheap and good.", 5, {{0, 15}}});
  Run("r1", "p", {{"Cheap and good.", "praise", {SentenceId(r, 0)}}},
      {"centroid", "opinion", "aspect:price", "consensus"});
  const std::string page = Page();
  EXPECT_NE(page.find("<dt>consensus</dt><dd>attention a sentence receives"), std::string::npos);
  EXPECT_NE(page.find("<dt>aspect:X</dt><dd>the overall review tilted towards X, the aspect&#39;s "
                      "seed sentences (models/seeds); X is one of price"),
            std::string::npos);
  EXPECT_NE(page.find("<dt>opinion</dt>"), std::string::npos);
  EXPECT_NE(page.find("<dt>centroid</dt>"), std::string::npos);
  // The sampled review carries its sentences' final and per-head weights for the heatmap.
  EXPECT_NE(DataScript(page).find("\"heads\":[\"centroid\",\"opinion\",\"aspect:price\","
                                  "\"consensus\"]"),
            std::string::npos);
  EXPECT_NE(DataScript(page).find("\"w\":0.01,\"h\":[0.02,0.02,0.02,0.02]"), std::string::npos);
}

TEST_F(ReportTest, RunOptionShowsThatRunsPoints) {
  const int64_t r = Add({"p", "Old point. New point.", 5, {{0, 10}, {11, 21}}});
  const int64_t first = Run("r1", "p", {{"Old point.", "praise", {SentenceId(r, 0)}}});
  Run("r2", "p", {{"New point.", "complaint", {SentenceId(r, 1)}}});
  EXPECT_NE(Page().find("New point."), std::string::npos);
  ReportOptions options;
  options.run_id = first;
  const std::string page = Page(options);
  EXPECT_NE(page.find("<span class=\"d\">Old point.</span>"), std::string::npos);
  EXPECT_EQ(page.find("<span class=\"d\">New point.</span>"), std::string::npos);
}

TEST_F(ReportTest, EachProductShowsItsLatestRunWithPoints) {
  // A later run of one product does not hide the other product's points from an earlier run.
  const int64_t a = Add({"a", "Alpha.", 5, {{0, 6}}});
  const int64_t b = Add({"b", "Beta.", 5, {{0, 5}}});
  const int64_t first = Run("r1", "a", {{"Alpha.", "praise", {SentenceId(a, 0)}}});
  const int64_t second = Run("r2", "b", {{"Beta.", "praise", {SentenceId(b, 0)}}});
  const std::string page = Page();
  EXPECT_NE(page.find("<span class=\"d\">Alpha.</span>"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"d\">Beta.</span>"), std::string::npos);
  EXPECT_NE(page.find("run " + std::to_string(first) + " ("), std::string::npos);
  EXPECT_NE(page.find("run " + std::to_string(second) + " ("), std::string::npos);
}

TEST_F(ReportTest, ManyDistinctRatingsAreBinned) {
  for (int i = 0; i <= 100; i += 5) Add({"p", "Fine.", static_cast<double>(i), {{0, 5}}});
  const std::string page = Page();
  EXPECT_NE(page.find("title=\"rating 0\u201320: 4 reviews\""), std::string::npos) << page;
  EXPECT_NE(page.find("title=\"rating 80\u2013100: 5 reviews\""), std::string::npos);
}

TEST_F(ReportTest, UnknownProductOrRunIsAnErrorNamingIt) {
  Add({"p", "Fine.", 5, {{0, 5}}});
  ReportOptions options;
  options.products = {"nope"};
  std::ostringstream out;
  try {
    WriteReport(*store_, options, out);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("\"nope\""), std::string::npos) << e.what();
  }
  options.products = {};
  options.run_id = 42;
  try {
    WriteReport(*store_, options, out);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("run 42"), std::string::npos) << e.what();
  }
}

TEST_F(ReportTest, ProductWithoutPointsIsListedAndSaysSo) {
  Add({"unscored", "Nothing yet.", std::nullopt, {{0, 12}}});
  const std::string page = Page();
  EXPECT_NE(page.find("data-product=\"unscored\""), std::string::npos);
  EXPECT_NE(page.find("No points for this product"), std::string::npos);
  EXPECT_NE(page.find("no ratings"), std::string::npos);
}

TEST_F(ReportTest, MaxProductsKeepsTheLargestAndSaysHowManyAreLeftOut) {
  Add({"small", "One.", 1, {{0, 4}}});
  Add({"large", "One.", 1, {{0, 4}}});
  Add({"large", "Two.", 1, {{0, 4}}});
  ReportOptions options;
  options.max_products = 1;
  ReportSummary summary;
  const std::string page = Page(options, &summary);
  EXPECT_EQ(summary.products_omitted, 1u);
  EXPECT_NE(page.find("data-product=\"large\""), std::string::npos);
  EXPECT_EQ(page.find("data-product=\"small\""), std::string::npos);
  EXPECT_NE(page.find("1 more products of the store are not on this page"), std::string::npos);
}

}  // namespace
}  // namespace revsum
