// End-to-end specification of the revsum CLI on samples/, into real SQLite files.
#include <sqlite3.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "revsum/tokens.h"
#include "support/paths.h"
#include "support/query_db.h"
#include "support/run_revsum.h"

namespace revsum {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunRevsum;
using testing::TempDir;

using testing::kSamples;
const std::string kCleanSamples = kSamples + "/en_reviews.jsonl " + kSamples +
                                  "/mixed_reviews.jsonl " + kSamples + "/zh_reviews.csv";

// Runs one SQL query returning a single integer.
int64_t QueryInt(const std::string& db_path, const std::string& sql) {
  return testing::QueryOne<int64_t>(db_path, sql, -1);
}

class CliTest : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string db_ = dir_ / "reviews.db";
};

TEST_F(CliTest, IngestStoresEveryRecordOfTheCleanSamples) {
  CommandResult r = RunRevsum("ingest " + kCleanSamples + " --db " + db_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("read 85\tingested 85\trejected 0"));
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM reviews"), 85);
  EXPECT_GT(QueryInt(db_, "SELECT count(*) FROM sentences"), 85);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM products"), 10);
}

TEST_F(CliTest, ReingestingTheSameFilesAddsNothing) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  int64_t sentences = QueryInt(db_, "SELECT count(*) FROM sentences");
  CommandResult again = RunRevsum("ingest " + kCleanSamples + " --db " + db_);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("(new 0, already stored 85"));
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM reviews"), 85);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM sentences"), sentences);
}

TEST_F(CliTest, MessyDumpsAreRejectedWithFileLineAndReasonAndTheRestIsKept) {
  CommandResult r = RunRevsum("ingest " + kSamples + "/messy/* --db " + db_);
  EXPECT_EQ(r.exit_code, 3) << "exit code 3 says some records were rejected";
  EXPECT_THAT(r.err, HasSubstr("messy/malformed_json.jsonl:2: rejected: malformed JSON"));
  EXPECT_THAT(r.err, HasSubstr("messy/invalid_utf8.jsonl:2: rejected: invalid UTF-8"));
  EXPECT_THAT(r.err, HasSubstr("messy/truncated.jsonl.gz:"));
  EXPECT_THAT(r.err, HasSubstr("truncated gzip"));
  int64_t rejects = QueryInt(db_, "SELECT count(*) FROM rejects");
  EXPECT_EQ(rejects, 10);
  // Every record read is either a stored (or already stored) review or a reject.
  EXPECT_EQ(QueryInt(db_,
                     "SELECT sum(records) - sum(ingested) - sum(duplicates) - sum(rejected) "
                     "FROM sources"),
            0);
  EXPECT_GT(QueryInt(db_, "SELECT count(*) FROM reviews"), 30);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM rejects WHERE raw IS NULL OR length(raw) = 0"), 0);
}

TEST_F(CliTest, AMissingFileIsASetupErrorNotAReject) {
  CommandResult r = RunRevsum("ingest " + dir_ / "nope.jsonl" + " --db " + db_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("nope.jsonl: cannot open"));
}

TEST_F(CliTest, StdinIsReadWithDash) {
  CommandResult r = RunRevsum("ingest - --db " + db_,
                              "{\"text\":\"Lovely mug.\",\"asin\":\"M1\"}\n"
                              "{\"text\":\"Chipped on arrival.\",\"asin\":\"M1\"}\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM reviews"), 2);
}

// A pipe or FIFO can be read once: every record of it is ingested, in the format its content
// shows (the first bytes are not lost to an earlier look), and a FIFO's one writer is enough.
TEST_F(CliTest, AFifoOrPipeIsReadOnceAndWhole) {
  const std::string fifo = dir_ / "dump.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // More than the 64 KiB the reader peeks at for the format, so a lost head would show.
  std::string dump;
  for (int i = 0; i < 2000; ++i) {
    dump += "{\"text\":\"Review " + std::to_string(i) +
            ": the lid closes firmly, the handle stays cool.\",\"asin\":\"K" +
            std::to_string(i % 3) + "\"}\n";
  }
  ASSERT_GT(dump.size(), 64u << 10);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << dump; });
  CommandResult r = RunRevsum("ingest " + fifo + " --db " + db_);
  writer.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("read 2000\tingested 2000\trejected 0"));
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM reviews"), 2000);
  // The same through a pipe named by path (what `<(cat dump)` gives a shell user).
  const std::string db2 = dir_ / "piped.db";
  const std::string file = dir_ / "dump.jsonl";
  std::ofstream(file, std::ios::binary) << dump;
  r = RunRevsum("ingest /dev/fd/4 --db " + db2 + " 4<&0", "", "cat '" + file + "' |");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(QueryInt(db2, "SELECT count(*) FROM reviews"), 2000);
}

TEST_F(CliTest, StatsShowsCounts) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  CommandResult r = RunRevsum("stats --db " + db_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("reviews    85"));
  EXPECT_THAT(r.out, HasSubstr("products   10"));
}

TEST_F(CliTest, SearchFindsEnglishAndChineseAndExplainsSyntaxErrors) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  CommandResult en = RunRevsum("search kettle --db " + db_);
  ASSERT_EQ(en.exit_code, 0) << en.err;
  EXPECT_THAT(en.out, HasSubstr("kettle"));
  CommandResult zh = RunRevsum("search 物流 --db " + db_);
  ASSERT_EQ(zh.exit_code, 0) << zh.err;
  EXPECT_THAT(zh.out, HasSubstr("物流"));
  CommandResult wide = RunRevsum("search ｋｅｔｔｌｅ --db " + db_);
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_EQ(wide.out, en.out) << "full-width letters are NFKC-normalised like the index";
  CommandResult comma = RunRevsum("search 物流,包装 --db " + db_);
  EXPECT_EQ(comma.exit_code, 0) << comma.err;
  EXPECT_EQ(RunRevsum("search ' ' --db " + db_).exit_code, 1);
  CommandResult bad = RunRevsum("search '\"unbalanced' --db " + db_);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("FTS5 syntax"));
}

TEST_F(CliTest, ShowListsSentencesWithIdsAndUnknownSubjectsFail) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  CommandResult product = RunRevsum("show B0KTL55200 --db " + db_);
  ASSERT_EQ(product.exit_code, 0) << product.err;
  EXPECT_THAT(product.out, HasSubstr("product B0KTL55200"));
  EXPECT_THAT(product.out, HasSubstr("] Boils a full liter in about four minutes."));
  CommandResult review = RunRevsum("show 1 --review --db " + db_);
  ASSERT_EQ(review.exit_code, 0) << review.err;
  EXPECT_THAT(review.out, HasSubstr("(store id 1)"));
  EXPECT_EQ(RunRevsum("show NO_SUCH_THING --db " + db_).exit_code, 1);
}

TEST_F(CliTest, RunThenExportInEveryFormat) {
  CommandResult run = RunRevsum("run " + kCleanSamples + " --db " + db_ + " --budget 40w");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM summaries WHERE scope = 'product'"), 10);

  CommandResult text = RunRevsum("export --db " + db_ + " --format text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("== B0KTL55200 (10 reviews, average rating"));
  EXPECT_THAT(text.out, HasSubstr(" [A"));  // citations: the dump's review ids
  EXPECT_THAT(text.out, HasSubstr("o200k_base tokens"));

  CommandResult md = RunRevsum("export --db " + db_ + " --format markdown --product B0KTL55200");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_THAT(md.out, HasSubstr("## B0KTL55200"));
  EXPECT_THAT(md.out, Not(HasSubstr("## B0MSE")));

  CommandResult json = RunRevsum("export --db " + db_ + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json.out).get(doc), simdjson::SUCCESS) << json.out;
  simdjson::dom::array products;
  ASSERT_EQ(doc.get_array().get(products), simdjson::SUCCESS);
  EXPECT_EQ(products.size(), 10u);

  // The token count shown for a summary is the tokenizer's count of the exported text itself.
  std::string error;
  auto tokens = TokenCounter::Load(Encoding::kO200kBase, &error);
  ASSERT_TRUE(tokens) << error;
  CommandResult jsonl = RunRevsum("export --db " + db_ + " --format jsonl");
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.err;
  simdjson::dom::document_stream lines;
  ASSERT_EQ(parser.parse_many(jsonl.out).get(lines), simdjson::SUCCESS);
  size_t n = 0;
  for (auto line : lines) {
    simdjson::dom::object o;
    ASSERT_EQ(line.get_object().get(o), simdjson::SUCCESS);
    std::string_view summary;
    int64_t after = 0, before = 0, saved = 0;
    ASSERT_EQ(o["summary"].get_string().get(summary), simdjson::SUCCESS);
    ASSERT_EQ(o["tokens_after"].get_int64().get(after), simdjson::SUCCESS);
    ASSERT_EQ(o["tokens_before"].get_int64().get(before), simdjson::SUCCESS);
    ASSERT_EQ(o["tokens_saved"].get_int64().get(saved), simdjson::SUCCESS);
    EXPECT_EQ(static_cast<size_t>(after), tokens->Count(summary));
    EXPECT_EQ(saved, before - after);
    ++n;
  }
  EXPECT_EQ(n, 10u);
}

TEST_F(CliTest, TokenCountsAreStoredPerSentenceAndPerSummary) {
  ASSERT_EQ(RunRevsum("run " + kCleanSamples + " --db " + db_ + " --budget 30w").exit_code, 0);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM sentences WHERE tokens IS NULL OR tokens <= 0"), 0);
  EXPECT_EQ(QueryInt(db_,
                     "SELECT count(*) FROM summaries WHERE tokenizer != 'o200k_base' OR "
                     "tokens_out <= 0 OR tokens_in <= tokens_out"),
            0);
  std::string error;
  auto tokens = TokenCounter::Load(Encoding::kO200kBase, &error);
  ASSERT_TRUE(tokens) << error;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT text, tokens_out FROM summaries UNION ALL "
                               "SELECT text, tokens FROM sentences",
                               -1, &st, nullptr),
            SQLITE_OK);
  size_t rows = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string text(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                     static_cast<size_t>(sqlite3_column_bytes(st, 0)));
    EXPECT_EQ(static_cast<size_t>(sqlite3_column_int64(st, 1)), tokens->Count(text)) << text;
    ++rows;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  EXPECT_GT(rows, 100u);
}

TEST_F(CliTest, ExportFailsCleanlyWithoutSummariesOrForUnknownProducts) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  CommandResult none = RunRevsum("export --db " + db_ + " --format json");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("no product summaries yet"));
  ASSERT_EQ(RunRevsum("summarize --db " + db_ + " --budget 20w").exit_code, 0);
  CommandResult unknown =
      RunRevsum("export --db " + db_ + " --format json --product B0KTL55200 --product nosuch");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("no product 'nosuch'"));
  EXPECT_EQ(unknown.out, "") << "nothing is written when the export fails";
  EXPECT_EQ(RunRevsum("export --db " + db_ + " --run 999").exit_code, 1);
  // A run of review summaries only does not hide the product summaries of an earlier run.
  ASSERT_EQ(RunRevsum("summarize --db " + db_ + " --scope review --budget 20w").exit_code, 0);
  EXPECT_EQ(RunRevsum("export --db " + db_ + " --format jsonl").exit_code, 0);
}

TEST_F(CliTest, SummarizingAnEmptyDatabaseIsAnError) {
  CommandResult r = RunRevsum("summarize --db " + db_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("nothing to summarise"));
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM runs"), 0);
}

TEST_F(CliTest, EveryHeadOfTheRunIsKeptWhenTheFirstProductIsASingleSentence) {
  std::string dump = dir_ / "h.jsonl";
  CommandResult r = RunRevsum("ingest - --db " + db_,
                              "{\"text\":\"Only one sentence here.\",\"asin\":\"A1\"}\n"
                              "{\"text\":\"Great kettle. Boils fast.\",\"asin\":\"B2\"}\n"
                              "{\"text\":\"Boils water fast. The lid sticks.\",\"asin\":\"B2\"}\n"
                              "{\"text\":\"Fast to boil. Handle gets hot.\",\"asin\":\"B2\"}\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(RunRevsum("summarize --db " + db_ + " --embedder lexical").exit_code, 0);
  CommandResult show = RunRevsum("show B2 --heads --db " + db_);
  EXPECT_THAT(show.out, HasSubstr("consensus="));
}

TEST_F(CliTest, SummarizingAgainWithTheSameParametersReplacesTheRun) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  ASSERT_EQ(RunRevsum("summarize --db " + db_ + " --budget 30w").exit_code, 0);
  int64_t summaries = QueryInt(db_, "SELECT count(*) FROM summaries");
  int64_t scores = QueryInt(db_, "SELECT count(*) FROM scores");
  ASSERT_EQ(RunRevsum("summarize --db " + db_ + " --budget 30w").exit_code, 0);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM runs"), 1);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM summaries"), summaries);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM scores"), scores);
  ASSERT_EQ(RunRevsum("summarize --db " + db_ + " --budget 2s").exit_code, 0);
  EXPECT_EQ(QueryInt(db_, "SELECT count(*) FROM runs"), 2);
}

TEST_F(CliTest, SummariesNeverExceedTheirBudget) {
  ASSERT_EQ(RunRevsum("ingest " + kCleanSamples + " --db " + db_).exit_code, 0);
  for (const char* budget : {"15w", "2s", "40t", "20%"}) {
    CommandResult r =
        RunRevsum(std::string("summarize --scope both --db ") + db_ + " --budget " + budget);
    ASSERT_EQ(r.exit_code, 0) << budget << ": " << r.err;
  }
  EXPECT_EQ(QueryInt(db_,
                     "SELECT count(*) FROM summaries s JOIN runs r ON r.id = s.run_id "
                     "WHERE r.params LIKE '%\"15w\"%' AND s.units_out > 15"),
            0);
  EXPECT_EQ(QueryInt(db_,
                     "SELECT count(*) FROM summaries s JOIN runs r ON r.id = s.run_id "
                     "WHERE r.params LIKE '%\"2s\"%' AND json_array_length(s.sentence_ids) > 2"),
            0);
  EXPECT_EQ(QueryInt(db_,
                     "SELECT count(*) FROM summaries s JOIN runs r ON r.id = s.run_id "
                     "WHERE r.params LIKE '%\"40t\"%' AND s.units_out > 40"),
            0);
  EXPECT_EQ(QueryInt(db_,
                     "SELECT count(*) FROM summaries s JOIN runs r ON r.id = s.run_id "
                     "WHERE r.params LIKE '%\"20%%\"%' AND s.units_out > 0.2 * s.units_in"),
            0);
  EXPECT_GT(QueryInt(db_, "SELECT count(*) FROM summaries WHERE scope = 'review'"), 50);
}

TEST_F(CliTest, ShowIncludesTheSummaryAndPerHeadWeights) {
  ASSERT_EQ(RunRevsum("run " + kCleanSamples + " --db " + db_ + " --budget 30w").exit_code, 0);
  CommandResult r = RunRevsum("show B0KTL55200 --heads --db " + db_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("summary (run "));
  EXPECT_THAT(r.out, HasSubstr("w="));
  EXPECT_THAT(r.out, HasSubstr("consensus="));
  // The weights of one scope sum to 1.
  EXPECT_NEAR(static_cast<double>(QueryInt(
                  db_,
                  "SELECT round(sum(sc.weight) * 1000) FROM scores sc JOIN sentences s ON "
                  "s.id = sc.sentence_id JOIN reviews r ON r.id = s.review_id JOIN products p ON "
                  "p.id = r.product_id WHERE p.key = 'B0KTL55200' AND sc.scope = 'product'")),
              1000.0, 1.0);
}

TEST_F(CliTest, EvalScoresAnotherSystemsOutput) {
  std::string gold = std::string(REVSUM_TEST_DATA) + "/eval/mini_set.jsonl";
  CommandResult own = RunRevsum("eval --gold " + gold +
                                " --budget-from-file --embedder lexical "
                                "--write-summaries " +
                                dir_ / "out.jsonl");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_THAT(own.out, HasSubstr("mini"));
  CommandResult again = RunRevsum("eval --gold " + gold + " --system " + dir_ / "out.jsonl");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, own.out) << "scoring the written summaries gives the same table";
}

TEST_F(CliTest, BadArgumentsFailWithAMessage) {
  CommandResult r = RunRevsum("summarize --db " + db_ + " --budget 12x");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--budget"));
}

}  // namespace
}  // namespace revsum
