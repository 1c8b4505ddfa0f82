// End-to-end specification of what the read-only commands (stats, search, show) print, for people
// (plain text) and for programs (--json), on a store summarised from samples/.
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "revsum/export.h"
#include "revsum/tokens.h"
#include "support/paths.h"
#include "support/query_db.h"
#include "support/run_revsum.h"

namespace revsum {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::QueryOne;
using testing::RunCommand;
using testing::RunRevsum;
using testing::TempDir;

using testing::kSamples;

// One store for the whole suite: the samples ingested and summarised, plus one hostile review
// whose product key and text carry terminal escape sequences.
class OutputCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    db_ = new std::string(*dir_ / "reviews.db");
    CommandResult r =
        RunRevsum("run " + kSamples + "/en_reviews.jsonl " + kSamples + "/mixed_reviews.jsonl " +
                  kSamples + "/zh_reviews.csv --db " + *db_ + " --budget 30w --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = RunRevsum(
        "ingest - --db " + *db_ + " --quiet",
        "{\"text\":\"Red \\u001b[31malert\\u001b[0m kettle. It hums.\","
        "\"title\":\"Loud\\u001b[2J\",\"asin\":\"EVIL\\u001b]0;x\\u0007\",\"rating\":4}\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete db_;
    delete dir_;
  }
  static CommandResult Run(const std::string& args) { return RunRevsum(args + " --db " + *db_); }
  static std::string Db() { return *db_; }

  static TempDir* dir_;
  static std::string* db_;
};
TempDir* OutputCliTest::dir_ = nullptr;
std::string* OutputCliTest::db_ = nullptr;

double QueryDouble(const std::string& db_path, const std::string& sql) {
  return testing::QueryOne<double>(db_path, sql, -1);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The w=... weights of plain-text show output, in printed order.
std::vector<double> PrintedWeights(const std::string& out) {
  std::vector<double> weights;
  static const std::regex kWeight(R"( w=(\S+) )");
  for (std::sregex_iterator it(out.begin(), out.end(), kWeight), end; it != end; ++it) {
    weights.push_back(std::strtod((*it)[1].str().c_str(), nullptr));
  }
  return weights;
}

TEST_F(OutputCliTest, StatsJsonIsOneDocumentWithTheCounts) {
  CommandResult r = Run("stats --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(r.out).get(doc), simdjson::SUCCESS) << r.out;
  EXPECT_EQ(int64_t(doc["reviews"]), 86);
  EXPECT_EQ(int64_t(doc["products"]), 11);
  EXPECT_EQ(int64_t(doc["runs"]), 1);
  EXPECT_GT(double(doc["sentences_per_review"]), 1.0);
  simdjson::dom::array reasons;
  EXPECT_EQ(doc["reject_reasons"].get_array().get(reasons), simdjson::SUCCESS);
}

TEST_F(OutputCliTest, StatsNumbersDoNotLeakFormattingIntoLaterLines) {
  CommandResult r = Run("stats");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("per review)"));
  EXPECT_THAT(r.out, HasSubstr("reviews    86\n"));
}

// The review a `show ... --json` names (its first review's citation); "" when show failed.
std::string ShownCitation(const CommandResult& r) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (r.exit_code != 0 || parser.parse(r.out).get(doc) != simdjson::SUCCESS) return "";
  std::string_view citation;
  if (doc["reviews"].at(0)["citation"].get(citation) != simdjson::SUCCESS) return "";
  return std::string(citation);
}

TEST_F(OutputCliTest, SearchJsonListsHitsAndTheFts5QueryRun) {
  CommandResult r = Run("search kettle --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(r.out).get(doc), simdjson::SUCCESS) << r.out;
  EXPECT_EQ(std::string_view(doc["fts5"]), "kettle");
  simdjson::dom::array hits = doc["hits"];
  ASSERT_GT(hits.size(), 0u);
  for (simdjson::dom::element h : hits) {
    EXPECT_GT(int64_t(h["sentence_id"]), 0);
    EXPECT_GT(int64_t(h["review_id"]), 0);
    EXPECT_THAT(std::string(std::string_view(h["text"])), HasSubstr("ettle"));
  }
  // Hits are named as exports name reviews and sentences, and show resolves both.
  const std::string review{std::string_view(hits.at(0)["review"])};
  const std::string sentence{std::string_view(hits.at(0)["sentence"])};
  EXPECT_EQ(sentence.rfind(review + "#", 0), 0u);
  EXPECT_EQ(ShownCitation(Run("show '" + sentence + "' --json")), review);
  CommandResult text = Run("search kettle");
  EXPECT_THAT(text.out, HasSubstr(" " + sentence + "] "));
}

TEST_F(OutputCliTest, SearchProductRestrictsHitsAndLimitCutsThem) {
  CommandResult all = Run("search kettle --json");
  CommandResult one = Run("search --product B0KTL55200 kettle --json");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(one.out).get(doc), simdjson::SUCCESS) << one.out;
  simdjson::dom::array hits = doc["hits"];
  ASSERT_GT(hits.size(), 0u);
  for (simdjson::dom::element h : hits) EXPECT_EQ(std::string_view(h["product"]), "B0KTL55200");
  EXPECT_NE(one.out, all.out) << "EVIL's kettle is left out";
  CommandResult two = Run("search kettle --product B0KTL55200 --product EVIL --limit 1");
  ASSERT_EQ(two.exit_code, 1) << "EVIL\\x1b... is not the key";
  CommandResult limited = Run("search kettle --limit 1");
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  EXPECT_EQ(Lines(limited.out).size(), 1u);
  CommandResult missing = Run("search kettle --product NO_SUCH_PRODUCT");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("no product 'NO_SUCH_PRODUCT'"));
}

TEST_F(OutputCliTest, SearchMinusWordMeansNotAndBadSyntaxSaysWhatToWrite) {
  CommandResult cord = Run("search cord");
  ASSERT_EQ(cord.exit_code, 0) << cord.err;
  ASSERT_THAT(cord.out, HasSubstr("outlet"));
  CommandResult without = Run("search 'cord -outlet'");
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_THAT(without.out, HasSubstr("cord"));
  EXPECT_THAT(without.out, Not(HasSubstr("outlet")));
  EXPECT_EQ(Run("search '+cord'").out, cord.out);
  CommandResult negative = Run("search ' -outlet'");
  EXPECT_EQ(negative.exit_code, 1);
  EXPECT_THAT(negative.err, HasSubstr("FTS5 needs at least one positive term"));
  CommandResult quote = Run("search '\"battery life'");
  EXPECT_EQ(quote.exit_code, 1);
  EXPECT_THAT(quote.err, HasSubstr("close the quote: \"battery life\""));
  CommandResult column = Run("search 'cord:'");
  EXPECT_EQ(column.exit_code, 1);
  EXPECT_THAT(column.err, HasSubstr("column filter"));
  // A query that starts with '-' reads as an option; the error says to put it after "--".
  CommandResult dash = Run("search '-outlet cord'");
  EXPECT_EQ(dash.exit_code, 1);
  EXPECT_THAT(dash.err, HasSubstr("goes after --: revsum search -- '-outlet cord'"));
  CommandResult after = RunRevsum("search --db " + Db() + " -- '-outlet cord'");
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, without.out);
}

TEST_F(OutputCliTest, ShowLimitCutsTheSentencesPrinted) {
  CommandResult all = Run("show B0KTL55200 --limit 0");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const size_t total = PrintedWeights(all.out).size();
  ASSERT_GT(total, 5u);
  CommandResult three = Run("show B0KTL55200 --limit 3");
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_EQ(PrintedWeights(three.out).size(), 3u);
  EXPECT_THAT(three.err, HasSubstr("3 of " + std::to_string(total) + " sentences shown"));
}

TEST_F(OutputCliTest, ShowSortWeightPrintsHighestWeightFirst) {
  CommandResult r = Run("show B0KTL55200 --sort weight --limit 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<double> w = PrintedWeights(r.out);
  ASSERT_GT(w.size(), 5u);
  EXPECT_TRUE(std::is_sorted(w.rbegin(), w.rend())) << r.out;
  CommandResult stored = Run("show B0KTL55200 --limit 0");
  std::vector<double> ws = PrintedWeights(stored.out);
  EXPECT_FALSE(std::is_sorted(ws.rbegin(), ws.rend())) << "the default stays the stored order";
  EXPECT_NE(Run("show B0KTL55200 --sort size").exit_code, 0);
}

TEST_F(OutputCliTest, WeightsPrintWithThreeSignificantDigits) {
  CommandResult r = Run("show B0KTL55200 --heads --limit 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("=0.0000")));
  static const std::regex kNumber(R"((w|consensus|centroid)=([^ )]+))");
  int seen = 0;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), kNumber), end; it != end; ++it) {
    EXPECT_TRUE(std::regex_match((*it)[2].str(), std::regex(R"(\d\.\d\de[-+]\d\d)"))) << (*it)[0];
    ++seen;
  }
  EXPECT_GT(seen, 10);
  // Ratings print as the number they are, not with the weights' formatting.
  EXPECT_THAT(r.out, HasSubstr("rating 5 "));
  EXPECT_THAT(r.out, Not(HasSubstr("rating 5.0")));
}

TEST_F(OutputCliTest, ShowJsonHasWeightsAndPerHeadWeightsByName) {
  CommandResult r = Run("show B0KTL55200 --json --limit 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(r.out).get(doc), simdjson::SUCCESS) << r.out;
  EXPECT_EQ(std::string_view(doc["scope"]), "product");
  std::vector<std::string> heads;
  for (simdjson::dom::element h : doc["run"]["heads"].get_array()) {
    heads.emplace_back(std::string_view(h));
  }
  ASSERT_THAT(heads, ::testing::Contains("consensus"));
  simdjson::dom::array sentences = doc["sentences"];
  EXPECT_EQ(int64_t(doc["sentences_total"]), int64_t(sentences.size()));
  double sum = 0;
  for (simdjson::dom::element s : sentences) {
    const int64_t id = s["id"];
    const double weight = s["weight"];
    sum += weight;
    EXPECT_NEAR(weight,
                QueryDouble(Db(),
                            "SELECT weight FROM scores WHERE scope = 'product' AND "
                            "sentence_id = " +
                                std::to_string(id)),
                1e-7);
    simdjson::dom::object per_head = s["heads"];
    EXPECT_EQ(per_head.size(), heads.size());
    for (auto [name, value] : per_head) {
      EXPECT_THAT(heads, ::testing::Contains(std::string(name)));
      EXPECT_GE(double(value), 0.0);
      EXPECT_LE(double(value), 1.0);
    }
  }
  EXPECT_NEAR(sum, 1.0, 1e-4) << "a product scope's weights sum to 1";
  simdjson::dom::array summaries = doc["summaries"];
  EXPECT_EQ(summaries.size(), 1u);
}

TEST_F(OutputCliTest, DumpStringsAreEscapedForTerminalsAndJson) {
  CommandResult search = Run("search hums");
  ASSERT_EQ(search.exit_code, 0) << search.err;
  EXPECT_THAT(search.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(search.out, HasSubstr("[EVIL\\x1b]0;x\\x07 h:"));
  CommandResult json = Run("search hums --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, Not(HasSubstr("\x1b")));
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json.out).get(doc), simdjson::SUCCESS) << json.out;
  simdjson::dom::array hits = doc["hits"];
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(std::string_view(hits.at(0)["product"]), "EVIL\x1b]0;x\x07")
      << "JSON keeps the exact key, escaped";
  const int64_t review = hits.at(0)["review_id"];
  CommandResult show = Run("show " + std::to_string(review) + " --review");
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_THAT(show.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(show.out, HasSubstr("product EVIL\\x1b]0;x\\x07"));
  EXPECT_THAT(show.out, HasSubstr("title: Loud\\x1b[2J"));
  CommandResult product = Run("show 'EVIL\x1b]0;x\x07' --product");
  ASSERT_EQ(product.exit_code, 0) << product.err;
  EXPECT_THAT(product.out, Not(HasSubstr("\x1b")));
}

TEST_F(OutputCliTest, HelpDocumentsTheJsonShapesAndOptions) {
  CommandResult show = RunRevsum("show --help");
  EXPECT_THAT(show.out, HasSubstr("--json"));
  EXPECT_THAT(show.out, HasSubstr("--limit"));
  EXPECT_THAT(show.out, HasSubstr("--sort"));
  EXPECT_THAT(show.out, HasSubstr("1.23e-02"));
  CommandResult search = RunRevsum("search --help");
  EXPECT_THAT(search.out, HasSubstr("--product"));
  EXPECT_THAT(search.out, HasSubstr("-word"));
  EXPECT_THAT(search.out,
              HasSubstr("hits [{product, review, sentence, text, review_id, sentence_id}]"));
  EXPECT_THAT(RunRevsum("stats --help").out, HasSubstr("reject_reasons"));
  for (const char* command : {"stats", "search", "show"}) {
    EXPECT_THAT(RunRevsum(std::string(command) + " --help").out,
                Not(HasSubstr("created if missing")))
        << command << " opens the database read-only and never creates it";
  }
}

// The README and every docs/*.md file, each as its path and its text: the documentation the
// tests below hold to what the tool does.
std::vector<std::pair<std::filesystem::path, std::string>> Documentation() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(REVSUM_SAMPLES "/../docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  paths.insert(paths.begin(), std::filesystem::path(REVSUM_SAMPLES "/../README.md"));
  std::vector<std::pair<std::filesystem::path, std::string>> files;
  for (const std::filesystem::path& path : paths) {
    std::ifstream in(path, std::ios::binary);
    files.emplace_back(path, std::string(std::istreambuf_iterator<char>(in), {}));
  }
  return files;
}

// Every option the command lines of the README and the docs give stats, search and show exists in
// the command's --help, so the documentation cannot promise an option the tool does not have.
TEST_F(OutputCliTest, ReadmeOptionsOfTheReadCommandsExist) {
  const auto files = Documentation();
  ASSERT_GT(files.size(), 1u) << "README.md and docs/*.md not found";
  static const std::regex kLine(R"(^revsum (stats|search|show) (.*)$)");
  static const std::regex kOption(R"(--[a-z][a-z-]*)");
  int lines = 0;
  for (const auto& [path, text] : files) {
    ASSERT_FALSE(text.empty()) << path << " not found or empty";
    for (const std::string& line : Lines(text)) {
      std::smatch m;
      if (!std::regex_match(line, m, kLine)) continue;
      ++lines;
      const std::string help = RunRevsum(m[1].str() + " --help").out;
      const std::string rest = m[2].str();
      for (std::sregex_iterator it(rest.begin(), rest.end(), kOption), end; it != end; ++it) {
        EXPECT_THAT(help, HasSubstr(it->str())) << path.filename() << ": " << line;
      }
    }
  }
  EXPECT_GE(lines, 3) << "a documented line for each command";
}

// Every relative link of the README and the docs, [text](path) or [text](path#anchor), names a
// file of the repository; the README links every docs/ file and stays a short entry point (the
// details live in docs/).
TEST_F(OutputCliTest, DocLinksLeadToFilesAndTheReadmeIsShort) {
  const std::filesystem::path root =
      std::filesystem::weakly_canonical(std::filesystem::path(REVSUM_SAMPLES "/.."));
  static const std::regex kLink(R"(\]\(([^()\s]+)\))");
  const auto files = Documentation();
  size_t links = 0;
  for (const auto& [path, text] : files) {
    bool fenced = false;  // inside a ``` block: example output, not links
    for (const std::string& line : Lines(text)) {
      if (line.rfind("```", 0) == 0) fenced = !fenced;
      if (fenced) continue;
      for (std::sregex_iterator it(line.begin(), line.end(), kLink), end; it != end; ++it) {
        const std::string target = (*it)[1].str();
        if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0 ||
            target.rfind("mailto:", 0) == 0 || target[0] == '#') {
          continue;
        }
        ++links;
        const std::filesystem::path file = std::filesystem::weakly_canonical(
            path.parent_path() / target.substr(0, target.find('#')));
        EXPECT_TRUE(std::filesystem::exists(file)) << path.filename() << ": " << target;
        EXPECT_TRUE(std::mismatch(root.begin(), root.end(), file.begin(), file.end()).first ==
                    root.end())
            << path.filename() << ": " << target << " leads out of the repository";
      }
    }
  }
  EXPECT_GE(links, files.size() - 1) << "no relative links found";
  const std::string& readme = files.front().second;
  for (size_t i = 1; i < files.size(); ++i) {
    const std::string name = files[i].first.filename().string();
    EXPECT_THAT(readme, HasSubstr("](docs/" + name + ")"))
        << "README.md does not link docs/" << name;
  }
  EXPECT_LE(Lines(readme).size(), 250u) << "README.md: keep the details in docs/";
}

// --- export: the structured default, end to end on samples/ ------------------------------------

TEST_F(OutputCliTest, ExportUsesTheRunsBudgetAndCitesTheDumpsOwnReviewIds) {
  CommandResult text = Run("export --product B0KTL55200");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("== B0KTL55200 (10 reviews, average rating 3.60, run 1) ==\n"
                                  "Ratings (rating:reviews): 5:4 4:2 3:1 2:2 1:1\n"));
  // 10 reviews: shares as counts; the sizes line says how many points the budget left out.
  EXPECT_TRUE(
      std::regex_search(text.out, std::regex(R"(; budget 30w(; \d+ more points? not shown)?\))")))
      << text.out;
  const std::regex point(R"(^- \d+ of 10 reviews: .+ \[AE[A-Z0-9]+:\d+\]$)");
  size_t points = 0;
  for (const std::string& line : Lines(text.out)) points += std::regex_match(line, point);
  EXPECT_GE(points, 1u) << text.out;
  // A dump without review ids (the Chinese CSV): the review's content hash.
  CommandResult zh = Run("export --product 酒店 --format jsonl --no-tokens");
  ASSERT_EQ(zh.exit_code, 0) << zh.err;
  EXPECT_TRUE(std::regex_search(zh.out, std::regex(R"("review":"h:[0-9a-f]{16}")"))) << zh.out;
  EXPECT_THAT(zh.out, HasSubstr("\"rating\":{\"mean\":"));
}

TEST_F(OutputCliTest, PromptBlocksHaveAnExactTokenCountWithinTheBudget) {
  std::string error;
  auto tokens = TokenCounter::Load(Encoding::kO200kBase, &error);
  ASSERT_TRUE(tokens) << error;
  for (const char* budget : {"30t", "60t", "120t"}) {
    CommandResult r = Run(std::string("export --format prompt --budget ") + budget);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Blocks are separated by one blank line; each block is measured from "Product:" to its
    // last line feed.
    size_t blocks = 0;
    for (size_t start = 0; start < r.out.size();) {
      size_t end = r.out.find("\n\n", start);
      end = end == std::string::npos ? r.out.size() : end + 1;
      const std::string block = r.out.substr(start, end - start);
      EXPECT_EQ(block.rfind("Product: ", 0), 0u) << block;
      EXPECT_LE(tokens->Count(block), static_cast<size_t>(std::stoi(budget))) << block;
      ++blocks;
      start = end + 1;
    }
    // A product whose header alone exceeds the budget is left out, and stderr says so.
    size_t left_out = 0;
    for (const std::string& line : Lines(r.err))
      left_out += line.find("left out") != std::string::npos;
    EXPECT_EQ(blocks + left_out, 10u) << budget << ": " << r.err;  // the summarised products
    if (std::string(budget) != "30t") {
      EXPECT_EQ(left_out, 0u) << r.err;
    }
  }
}

TEST_F(OutputCliTest, FlatKeepsTheStoredSelectionAndRefusesABudget) {
  CommandResult flat = Run("export --flat --no-tokens --product B0KTL55200");
  ASSERT_EQ(flat.exit_code, 0) << flat.err;
  EXPECT_THAT(flat.out, Not(HasSubstr("Praise")));
  EXPECT_THAT(flat.out, Not(HasSubstr("%")));
  EXPECT_THAT(flat.out, HasSubstr(":16"));  // a dump id (user:timestamp)
  CommandResult bad = Run("export --flat --budget 10w");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("--budget"));
  EXPECT_EQ(Run("export --format prompt --flat").exit_code, 1);
  EXPECT_EQ(Run("export --budget 10t --no-tokens").exit_code, 1);
}

// A store of one short review without a time, summarised: "Leaks. Bad." rated 1 (product K1).
std::string OneShortReview(const TempDir& dir) {
  const std::string db = dir / "short.db";
  CommandResult r = RunRevsum("run - --db " + db + " --quiet --embedder lexical",
                              "{\"asin\":\"K1\",\"text\":\"Leaks. Bad.\",\"rating\":1}\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

TEST_F(OutputCliTest, ExportFiltersCountOnlyTheReviewsInTheFilter) {
  CommandResult r = Run("export --no-tokens --format jsonl --product B0KTL55200 --min-rating 4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"reviews\":6,"));
  EXPECT_THAT(r.out, HasSubstr("\"distribution\":{\"4\":2,\"5\":4}"));
  CommandResult late = Run("export --no-tokens --product B0KTL55200 --since 2100-01-01");
  EXPECT_EQ(late.exit_code, 0) << late.err;
  EXPECT_EQ(late.out, "") << "no review of the product is in the filter";
  EXPECT_EQ(Run("export --since yesterday").exit_code, 1);
  // Times are read as summarize reads them (one parser): the same bounds pass or fail in both.
  TempDir dir;
  const std::string small = OneShortReview(dir);
  for (const char* bound : {"-5", "1969-12-31", "2020-01-01", "2020-13-01", "yesterday"}) {
    CommandResult summarize = RunRevsum(std::string("summarize --quiet --embedder lexical ") +
                                        "--since " + bound + " --db " + small);
    CommandResult exported =
        RunRevsum(std::string("export --no-tokens --since ") + bound + " --db " + small);
    const std::string refused = std::string("'") + bound + "' is not a date YYYY-MM-DD";
    EXPECT_EQ(summarize.err.find(refused) == std::string::npos,
              exported.err.find(refused) == std::string::npos)
        << bound << ": " << summarize.err << " / " << exported.err;
    EXPECT_EQ(exported.exit_code == 1, exported.err.find(refused) != std::string::npos) << bound;
  }
  // Ratings are read as summarize reads them: nan and inf were taken (and filtered nothing).
  for (const char* bad : {"nan", "inf", "4x"}) {
    CommandResult refused = Run(std::string("export --min-rating ") + bad);
    EXPECT_EQ(refused.exit_code, 1) << bad;
    EXPECT_THAT(refused.err, HasSubstr(std::string("--min-rating: '") + bad + "' is not a number"));
  }
}

TEST_F(OutputCliTest, ExportingAnUnfinishedRunSaysSo) {
  // A copy of the store whose run is marked unfinished, as a kill leaves a full re-run.
  const std::string copy = *dir_ / "unfinished.db";
  ASSERT_EQ(RunRevsum("merge " + copy + " " + Db()).exit_code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(copy.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE runs SET finished_at = NULL", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  CommandResult r = RunRevsum("export --no-tokens --run 1 --db " + copy);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: run 1 is unfinished"));
  r = Run("export --no-tokens --run 1");
  EXPECT_THAT(r.err, Not(HasSubstr("unfinished")));
}

TEST_F(OutputCliTest, KeysThatDifferOnlyByAnInvisibleCharacterPrintDifferently) {
  TempDir dir;
  const std::string db = dir / "lookalike.db";
  const std::string review = "The kettle boils fast. The lid is stiff.";
  CommandResult r = RunRevsum("run - --db " + db + " --quiet --embedder lexical",
                              "{\"asin\":\"K1\",\"text\":\"" + review +
                                  "\",\"rating\":5}\n"
                                  "{\"asin\":\"K\\u200b1\",\"text\":\"" +
                                  review + "\",\"rating\":1}\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* format : {"text", "markdown", "prompt"}) {
    r = RunRevsum(std::string("export --no-tokens --format ") + format + " --db " + db);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Markdown escapes the backslash itself, so that a renderer shows "K\u200b1".
    EXPECT_THAT(r.out, HasSubstr(format == std::string("markdown") ? "K\\\\u200b1" : "K\\u200b1"))
        << format;
    EXPECT_THAT(r.out, Not(HasSubstr("K\u200B1"))) << format;
  }
  r = RunRevsum("export --format json --db " + db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"K\\u200b1\"")) << "JSON keeps the key, escaped";
}

TEST_F(OutputCliTest, AFilterThatLeavesNothingSaysSo) {
  // A dump without times and --since: the output is empty, and stderr says why (it said nothing).
  TempDir dir;
  const std::string db = OneShortReview(dir);
  CommandResult r = RunRevsum("export --no-tokens --since 2020-01-01 --db " + db);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("no review passes the filter (--since and --until leave out "
                               "reviews without a time)"));
}

TEST_F(OutputCliTest, ASummaryLongerThanItsReviewSaysLongerNotSmaller) {
  // One short review: the heading, share and citation make the export longer than the review.
  TempDir dir;
  CommandResult r = RunRevsum("export --db " + OneShortReview(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("x longer)")) << r.out;
  EXPECT_THAT(r.out, HasSubstr(" more (")) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("smaller"))) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("saved"))) << r.out;
}

TEST_F(OutputCliTest, ShowFindsAReviewByItsCitationInEveryFormExportsWriteIt) {
  const std::string citation = QueryOne<std::string>(
      Db(), "SELECT citation FROM reviews WHERE external_id = '' ORDER BY id LIMIT 1", "");
  ASSERT_EQ(citation.rfind("h:", 0), 0u) << citation;
  // The store's column is the exporters' citation (export.h ReviewCitationId).
  const int64_t hash = QueryOne<int64_t>(
      Db(), "SELECT content_hash FROM reviews WHERE citation = '" + citation + "'", 0);
  EXPECT_EQ(citation, ReviewCitationId("", static_cast<uint64_t>(hash)));
  const std::string dump_id = QueryOne<std::string>(
      Db(), "SELECT citation FROM reviews WHERE external_id <> '' ORDER BY id LIMIT 1", "");
  EXPECT_EQ(dump_id, QueryOne<std::string>(Db(),
                                           "SELECT external_id FROM reviews WHERE "
                                           "citation = '" +
                                               dump_id + "'",
                                           ""));
  for (const std::string& id : {citation, dump_id}) {
    for (const std::string& form : {id, "'[" + id + "]'", "'" + id + "#1'", id.substr(0, 12)}) {
      CommandResult r = Run("show " + form + " --json");
      EXPECT_EQ(ShownCitation(r), id) << form << ": " << r.err;
    }
    CommandResult text = Run("show " + id);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("review " + id + "  product "));
  }
  // A store id still works, and a prefix that many reviews share lists some of them.
  CommandResult by_id = Run("show 2 --review --json");
  EXPECT_FALSE(ShownCitation(by_id).empty()) << by_id.err;
  CommandResult many = Run("show h:");
  EXPECT_EQ(many.exit_code, 1);
  EXPECT_THAT(many.err, HasSubstr("'h:' names more than 10 reviews: h:"));
  EXPECT_THAT(many.err, HasSubstr("(store id "));
  CommandResult none = Run("show h:zzzz");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("no product or review 'h:zzzz'"));
}

TEST_F(OutputCliTest, EveryShortCitationOfAnExportLeadsBackToItsReview) {
  for (const std::string flat : {"", " --flat"}) {
    CommandResult shorts = Run("export --format text --no-tokens --citations short" + flat);
    CommandResult fulls = Run("export --format text --no-tokens --citations full" + flat);
    ASSERT_EQ(shorts.exit_code, 0) << shorts.err;
    ASSERT_EQ(fulls.exit_code, 0) << fulls.err;
    static const std::regex kMark(R"(\[([A-Za-z0-9:%-]+)\]\n)");
    std::vector<std::string> short_marks, full_marks;
    for (auto [out, marks] : {std::pair{&shorts.out, &short_marks}, {&fulls.out, &full_marks}}) {
      for (std::sregex_iterator it(out->begin(), out->end(), kMark), end; it != end; ++it) {
        marks->push_back((*it)[1].str());
      }
    }
    ASSERT_EQ(short_marks.size(), full_marks.size());
    ASSERT_GT(short_marks.size(), 10u);
    size_t shorter = 0;
    for (size_t i = 0; i < short_marks.size(); ++i) {
      ASSERT_EQ(full_marks[i].rfind(short_marks[i], 0), 0u) << short_marks[i];
      shorter += short_marks[i].size() < full_marks[i].size();
      EXPECT_EQ(ShownCitation(Run("show " + short_marks[i] + " --json")), full_marks[i])
          << short_marks[i] << " names another review, or several";
    }
    EXPECT_GT(shorter, short_marks.size() / 2);
  }
}

TEST_F(OutputCliTest, ShowPrintsAProductsPointsWithCitations) {
  const int64_t stored = QueryOne<int64_t>(
      Db(), "SELECT count(*) FROM product_points WHERE product = 'B0KTL55200'", 0);
  ASSERT_GT(stored, 0);
  CommandResult r = Run("show B0KTL55200 --limit 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("points (run "));
  const std::string first =
      QueryOne<std::string>(Db(),
                            "SELECT text || '  [' || citation || ']' FROM product_points WHERE "
                            "product = 'B0KTL55200' ORDER BY idx LIMIT 1",
                            "");
  EXPECT_THAT(r.out, HasSubstr(" of 10 reviews (")) << r.out;
  EXPECT_THAT(r.out, HasSubstr(first)) << r.out;
  CommandResult json = Run("show B0KTL55200 --json --limit 1");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json.out).get(doc), simdjson::SUCCESS) << json.out;
  simdjson::dom::array points = doc["points"];
  EXPECT_EQ(int64_t(points.size()), stored);
  for (simdjson::dom::element p : points) {
    const std::string review{std::string_view(p["review"])};
    const std::string sentence{std::string_view(p["sentence"])};
    EXPECT_EQ(sentence.rfind(review + "#", 0), 0u) << sentence;
    EXPECT_EQ(ShownCitation(Run("show '" + sentence + "' --json")), review);
  }
  // Every sentence names itself as exports do.
  for (simdjson::dom::element s : doc["sentences"].get_array()) {
    const std::string citation{std::string_view(s["citation"])};
    EXPECT_EQ(citation.substr(citation.rfind('#') + 1), std::to_string(int64_t(s["index"])));
  }
  // A review has no points.
  CommandResult review = Run("show 1 --review --json");
  ASSERT_EQ(parser.parse(review.out).get(doc), simdjson::SUCCESS) << review.out;
  EXPECT_EQ(doc["points"].get_array().size(), 0u);
}

TEST_F(OutputCliTest, ViewsNameReviewsByCitationAndEvidenceIsTheLatestRunsByDefault) {
  for (const char* view :
       {"reviews", "review_sentences", "product_points", "point_evidence", "sentence_opinions"}) {
    const std::string v = view;
    EXPECT_EQ(QueryOne<int64_t>(Db(), "SELECT count(*) FROM " + v, 0) > 0, true) << v;
    EXPECT_EQ(QueryOne<int64_t>(Db(),
                                "SELECT count(*) FROM " + v + " x JOIN reviews r ON r.id = x." +
                                    (v == "reviews" ? "id" : "review_id") +
                                    " WHERE x.citation IS NOT r.citation OR r.citation = ''",
                                -1),
              0)
        << v;
  }
  // A second run of other parameters: point_evidence shows its points only, with its run;
  // all_point_evidence both runs'.
  TempDir dir;
  const std::string db = dir / "two_runs.db";
  for (const char* budget : {"30w", "60w"}) {
    CommandResult r = RunRevsum("run " + kSamples + "/en_reviews.jsonl --db " + db +
                                " --quiet --embedder lexical --budget " + budget);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(QueryOne<int64_t>(db, "SELECT count(DISTINCT run_id) FROM all_point_evidence", 0), 2);
  EXPECT_EQ(QueryOne<int64_t>(db, "SELECT count(DISTINCT run_id) FROM point_evidence", 0), 1);
  EXPECT_EQ(QueryOne<int64_t>(db, "SELECT min(run_id) FROM point_evidence", 0), 2);
  EXPECT_EQ(QueryOne<int64_t>(db,
                              "SELECT count(*) FROM point_evidence e WHERE NOT EXISTS "
                              "(SELECT 1 FROM product_points p WHERE p.point_id = e.point_id)",
                              -1),
            0);
}

// The lines of `out` but the first (a CSV header).
size_t CsvRows(const std::string& out) {
  const size_t lines = static_cast<size_t>(std::count(out.begin(), out.end(), '\n'));
  return lines > 0 ? lines - 1 : 0;
}

TEST_F(OutputCliTest, StandardToolsFindAndRebuildTheSearchIndex) {
  // sqlite-utils (a Debian package scripts/setup installs) and Datasette find the index by its
  // declaration; rebuilding it their way keeps what revsum search finds.
  TempDir dir;
  const std::string copy = dir / "copy.db";
  ASSERT_EQ(RunCommand("sqlite3 '" + Db() + "' \".backup '" + copy + "'\"").exit_code, 0);
  auto contain = [&](const std::string& word) {
    return static_cast<size_t>(QueryOne<int64_t>(
        copy, "SELECT count(*) FROM sentences WHERE instr(lower(text), '" + word + "')", 0));
  };
  ASSERT_GT(contain("物流"), 0u);
  auto revsum_hits = [&](const std::string& word) {
    const std::string out = RunRevsum("search " + word + " --json --limit 100000 --db " + copy).out;
    size_t n = 0;
    for (size_t at = out.find("\"sentence_id\""); at != std::string::npos;
         at = out.find("\"sentence_id\"", at + 1)) {
      ++n;
    }
    return n;
  };
  CommandResult english =
      RunCommand("sqlite-utils search '" + copy + "' sentences kettle --csv -c id --limit 100000");
  ASSERT_EQ(english.exit_code, 0) << english.err;
  EXPECT_EQ(CsvRows(english.out), revsum_hits("kettle"));
  EXPECT_GE(CsvRows(english.out), 2u);
  for (const std::string word : {"物流", "电池"}) {
    CommandResult tool = RunCommand("sqlite-utils search '" + copy + "' sentences " + word +
                                    " --csv -c id --limit 100000");
    ASSERT_EQ(tool.exit_code, 0) << tool.err;
    EXPECT_EQ(CsvRows(tool.out), contain(word)) << word;
    EXPECT_EQ(
        static_cast<size_t>(QueryOne<int64_t>(
            copy, "SELECT count(*) FROM sentences_fts WHERE sentences_fts MATCH '" + word + "'",
            -1)),
        contain(word))
        << "plain sqlite3: " << word;
  }
  CommandResult before = RunRevsum("search 物流 --json --limit 1000 --db " + copy);
  ASSERT_EQ(before.exit_code, 0) << before.err;
  CommandResult rebuild = RunCommand("sqlite-utils rebuild-fts '" + copy + "' sentences");
  ASSERT_EQ(rebuild.exit_code, 0) << rebuild.err;
  CommandResult after = RunRevsum("search 物流 --json --limit 1000 --db " + copy);
  EXPECT_EQ(after.out, before.out);
  EXPECT_THAT(after.out, HasSubstr("物流"));
}

TEST_F(OutputCliTest, LabelsAreShownAsLabelsNotAsAnAverageRating) {
  // zh_reviews.csv rates with 0/1 labels: "60 % positive", not "average rating 0.60".
  const double share = QueryOne<double>(Db(),
                                        "SELECT avg(r.rating) FROM reviews r JOIN products p ON "
                                        "p.id = r.product_id WHERE p.key = '水果'",
                                        -1);
  ASSERT_GT(share, 0.0);
  ASSERT_LT(share, 1.0);
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.0f %% positive (0/1 labels)", 100 * share);
  for (const char* format : {"text", "markdown", "prompt"}) {
    for (const std::string flat : {"", " --flat"}) {
      if (format == std::string("prompt") && !flat.empty()) continue;  // prompt is points only
      CommandResult r =
          Run(std::string("export --no-tokens --product 水果 --format ") + format + flat);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_THAT(r.out, HasSubstr(percent)) << format << flat;
      EXPECT_THAT(r.out, Not(HasSubstr("average rating"))) << format << flat;
    }
  }
  CommandResult text = Run("export --no-tokens --product 水果");
  EXPECT_THAT(text.out, HasSubstr("Labels (label:reviews): 1:"));
  for (const char* flat : {"", " --flat"}) {
    CommandResult json = Run(std::string("export --no-tokens --format jsonl --product 水果 "
                                         "--product B0KTL55200") +
                             flat);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_THAT(json.out, HasSubstr("\"scale\":\"labels\"")) << flat;
    EXPECT_THAT(json.out, HasSubstr("\"scale\":\"ratings\"")) << flat;
    EXPECT_THAT(json.out, Not(HasSubstr("avg_rating"))) << "one name for one thing";
  }
  CommandResult stars = Run("export --no-tokens --product B0KTL55200");
  EXPECT_THAT(stars.out, HasSubstr("average rating "));
  EXPECT_THAT(stars.out, HasSubstr("Ratings (rating:reviews): 5:"));
}

TEST_F(OutputCliTest, ABudgetThatFitsNoPointSaysSo) {
  // Find a budget that fits the prompt header and no point: the output is the header alone, and
  // stderr says why.
  bool seen = false;
  for (int tokens = 30; tokens <= 120 && !seen; tokens += 5) {
    CommandResult r =
        Run("export --format prompt --product B0KTL55200 --budget " + std::to_string(tokens) + "t");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (r.out.find("Product: ") == std::string::npos || r.out.find("\n- ") != std::string::npos) {
      continue;
    }
    seen = true;
    EXPECT_THAT(
        r.err, HasSubstr("B0KTL55200: the budget " + std::to_string(tokens) + "t fits no point ("));
  }
  EXPECT_TRUE(seen) << "no budget between 30t and 120t fits the header and no point";
}

TEST_F(OutputCliTest, CsvHasOneRowPerPointThatStandardToolsRead) {
  TempDir dir;
  CommandResult csv = Run("export --format csv --no-tokens");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("product,reviews,rating_mean,rating_scale,run,section,", 0), 0u);
  std::ofstream(dir / "points.csv") << csv.out;
  const std::string db = dir / "points.db";
  CommandResult load =
      RunCommand("sqlite-utils insert '" + db + "' points '" + (dir / "points.csv") + "' --csv");
  ASSERT_EQ(load.exit_code, 0) << load.err;
  // The same points as the JSON export, field for field.
  CommandResult json = Run("export --format jsonl --no-tokens");
  simdjson::dom::parser parser;
  int64_t points = 0;
  for (const std::string& line : Lines(json.out)) {
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(line).get(doc), simdjson::SUCCESS) << line;
    for (simdjson::dom::element p : doc["points"].get_array()) {
      ++points;
      const std::string sentence{std::string_view(p["sentence"])};
      const std::string text{std::string_view(p["text"])};
      EXPECT_EQ(QueryOne<std::string>(db,
                                      "SELECT text FROM points WHERE sentence = '" + sentence +
                                          "' AND section <> 'also_said'",
                                      ""),
                text[0] == '-' ? "'" + text : text)
          << sentence;
    }
  }
  ASSERT_GT(points, 10);
  EXPECT_EQ(QueryOne<int64_t>(db, "SELECT count(*) FROM points WHERE section <> 'also_said'", -1),
            points);
  EXPECT_EQ(RunRevsum("export --format csv --flat --db " + Db()).exit_code, 1);

  // Hostile text: quotes, commas, line breaks and formulas stay one field each, inert.
  const std::string hostile = dir / "hostile.db";
  const std::string key = R"(=HYPERLINK(\"http://x\",\"y\"))";
  CommandResult r =
      RunRevsum("run - --quiet --embedder lexical --db " + hostile,
                "{\"asin\":\"" + key +
                    "\",\"text\":\"@SUM(A1), \\\"really\\\", it leaks.\\nIt leaks, "
                    "again.\",\"rating\":1}\n{\"asin\":\"" +
                    key + "\",\"text\":\"It leaks, again. +1 for the lid.\",\"rating\":2}\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult bad = RunRevsum("export --format csv --no-tokens --db " + hostile);
  ASSERT_EQ(bad.exit_code, 0) << bad.err;
  std::ofstream(dir / "hostile.csv") << bad.out;
  const std::string loaded = dir / "hostile_loaded.db";
  load = RunCommand("sqlite-utils insert '" + loaded + "' p '" + (dir / "hostile.csv") + "' --csv");
  ASSERT_EQ(load.exit_code, 0) << load.err;
  EXPECT_GT(QueryOne<int64_t>(loaded, "SELECT count(*) FROM p", 0), 0);
  EXPECT_EQ(
      QueryOne<int64_t>(
          loaded, R"(SELECT count(*) FROM p WHERE product <> '''=HYPERLINK("http://x","y")')", -1),
      0);
  EXPECT_EQ(
      QueryOne<int64_t>(
          loaded, "SELECT count(*) FROM p WHERE substr(text, 1, 1) IN ('=', '+', '-', '@')", -1),
      0);
}

TEST_F(OutputCliTest, FieldsChooseTheKeysOfJsonOutputAndNameTheOnesThereAre) {
  CommandResult r = Run("export --format jsonl --no-tokens --fields product,rating");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 10u);
  for (const std::string& line : lines) {
    EXPECT_EQ(line.rfind("{\"product\":", 0), 0u) << line;
    EXPECT_THAT(line, HasSubstr(",\"rating\":"));
    EXPECT_THAT(line, Not(HasSubstr("\"points\"")));
  }
  // Strings keep the escaping contract (the hostile key's ESC stays \u001b).
  CommandResult all =
      Run("export --format json --no-tokens --fields product --product "
          "'EVIL\x1b]0;x\x07' --flat");
  EXPECT_THAT(all.out, Not(HasSubstr("\x1b")));
  CommandResult bad = Run("export --format json --no-tokens --fields product,ratin");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("no field 'ratin' (fields: product, run, reviews, rating,"));
  EXPECT_EQ(Run("export --fields product").exit_code, 1) << "text has no keys";
  CommandResult hits = Run("search kettle --json --fields review,text");
  ASSERT_EQ(hits.exit_code, 0) << hits.err;
  EXPECT_THAT(hits.out, HasSubstr("\"hits\":[{\"review\":"));
  EXPECT_THAT(hits.out, Not(HasSubstr("sentence_id")));
  CommandResult misspelt = Run("search nothing-matches-this --json --fields txt");
  EXPECT_EQ(misspelt.exit_code, 1);
  EXPECT_THAT(misspelt.err, HasSubstr("no field 'txt'"));
}

}  // namespace
}  // namespace revsum
