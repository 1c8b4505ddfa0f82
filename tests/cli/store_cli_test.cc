// End-to-end: what the store promises through the CLI — setup errors before any write, the
// identities of records, concurrent writers, run keys without machine paths, unfinished work.
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/query_db.h"
#include "support/run_revsum.h"

namespace revsum {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunRevsum;
using testing::TempDir;

using testing::kSamples;

std::string QueryText(const std::string& db_path, const std::string& sql) {
  return testing::QueryOne<std::string>(db_path, sql, "");
}

class StoreCliTest : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string db_ = dir_ / "reviews.db";
};

TEST_F(StoreCliTest, RunChecksItsModelFilesBeforeTouchingTheStore) {
  fs::create_directories(dir_.path() / "empty_models");
  CommandResult r = RunRevsum("run " + kSamples + "/en_reviews.jsonl --db " + db_, "",
                              "REVSUM_MODELS_DIR=" + dir_ / "empty_models");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("empty_models"));
  EXPECT_FALSE(fs::exists(db_)) << "the store was created before the models were checked";
}

TEST_F(StoreCliTest, IngestFailsWithoutTheTokenizerVocabulary) {
  fs::create_directories(dir_.path() / "empty_models");
  CommandResult r = RunRevsum("ingest -q " + kSamples + "/en_reviews.jsonl --db " + db_, "",
                              "REVSUM_MODELS_DIR=" + dir_ / "empty_models");
  EXPECT_EQ(r.exit_code, 1) << "token counts must not be silently NULL";
  EXPECT_THAT(r.err, HasSubstr("tiktoken"));
}

TEST_F(StoreCliTest, SetupErrorsExitOneNotThree) {
  for (const std::string& input : {dir_ / "missing.jsonl", dir_.path().string()}) {
    CommandResult r = RunRevsum("ingest " + input + " --db " + db_);
    EXPECT_EQ(r.exit_code, 1) << input << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(input));
  }
  CommandResult r = RunRevsum("ingest " + kSamples + "/en_reviews.jsonl " + dir_ / "missing.jsonl" +
                              " --db " + db_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(fs::exists(db_)) << "inputs are checked before anything is stored";
}

TEST_F(StoreCliTest, AMisspeltFieldIsAnErrorBeforeAnyStoreExists) {
  // A misspelt --text-field stored 256 rejects and exited 3; a misspelt --product-field was an
  // error but left an empty store file behind. Both are errors now, with no file.
  for (const char* flag : {"--text-field reviewText", "--product-field asinn"}) {
    CommandResult r =
        RunRevsum("ingest " + kSamples + "/en_reviews.jsonl " + flag + " --db " + db_);
    EXPECT_EQ(r.exit_code, 1) << flag << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("no record has the")) << flag;
    EXPECT_THAT(r.err, HasSubstr("the first record has the keys")) << flag;
    EXPECT_FALSE(fs::exists(db_)) << flag;
  }
}

TEST_F(StoreCliTest, ReviewsThatCleanToNothingAreRejectedNotStoredInvisible) {
  std::ofstream(dir_ / "empty.jsonl")
      << "{\"text\":\"\xF0\x9F\x98\x80\xF0\x9F\x98\x80\"}\n"  // emoji only
      << "{\"text\":\"\\u200b\\u2003\"}\n"
      << "{\"text\":\"<p></p>\"}\n"
      << "{\"text\":\"&nbsp;\"}\n"
      << "{\"text\":\"???\"}\n"
      << "{\"text\":\"Works fine.\"}\n";
  CommandResult r = RunRevsum("ingest " + dir_ / "empty.jsonl" + " --db " + db_);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  // Emoji and "???" are something the reviewer said: kept, with one sentence; the rest are rejects.
  EXPECT_EQ(QueryText(db_, "SELECT count(*) FROM reviews"), "3");
  EXPECT_EQ(QueryText(db_, "SELECT count(*) FROM rejects WHERE reason LIKE 'no text after%'"), "3");
  EXPECT_EQ(QueryText(db_, "SELECT count(*) FROM sentences WHERE text = '\?\?\?'"), "1");
  EXPECT_EQ(QueryText(db_,
                      "SELECT count(*) FROM reviews r WHERE NOT EXISTS "
                      "(SELECT 1 FROM sentences s WHERE s.review_id = r.id)"),
            "0");
}

TEST_F(StoreCliTest, ConcurrentIngestsIntoANewStoreAllSucceed) {
  // Before: "migrating to schema 1: table sources already exists" for three of four.
  std::vector<std::string> files;
  for (int i = 0; i < 4; ++i) {
    std::string f = dir_ / ("d" + std::to_string(i) + ".jsonl");
    std::ofstream out(f);
    for (int k = 0; k < 300; ++k) {
      out << "{\"text\":\"Review " << i << "-" << k << " is fine.\",\"asin\":\"P" << i << "\"}\n";
    }
    files.push_back(f);
  }
  std::vector<CommandResult> results(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back(
        [&, i] { results[i] = RunRevsum("ingest -q " + files[i] + " --db " + db_); });
  }
  for (auto& t : threads) t.join();
  for (const CommandResult& r : results) EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(QueryText(db_, "SELECT count(*) FROM reviews"), "1200");
}

TEST_F(StoreCliTest, RunKeysNameSeedSetsByHashNotByPath) {
  ASSERT_EQ(RunRevsum("run -q " + kSamples + "/en_reviews.jsonl --embedder lexical --db " + db_)
                .exit_code,
            0);
  const std::string key = QueryText(db_, "SELECT key FROM runs");
  EXPECT_THAT(key, HasSubstr("seeds=en.txt@"));
  EXPECT_THAT(key, Not(HasSubstr("/")));
  EXPECT_THAT(QueryText(db_, "SELECT params FROM runs"), Not(HasSubstr("/models/")));
}

TEST_F(StoreCliTest, TheSameDumpUnderAnotherPathAddsNoRejects) {
  ASSERT_EQ(
      RunRevsum("ingest -q " + kSamples + "/messy/malformed_json.jsonl --db " + db_).exit_code, 3);
  const std::string rejects = QueryText(db_, "SELECT count(*) FROM rejects");
  fs::copy_file(kSamples + "/messy/malformed_json.jsonl", dir_.path() / "copy.jsonl");
  EXPECT_EQ(RunRevsum("ingest -q " + dir_ / "copy.jsonl" + " --db " + db_).exit_code, 3);
  std::ifstream in(kSamples + "/messy/malformed_json.jsonl");
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(RunRevsum("ingest -q - --db " + db_, bytes).exit_code, 3);
  EXPECT_EQ(QueryText(db_, "SELECT count(*) FROM rejects"), rejects);
}

TEST_F(StoreCliTest, DetectPrintsFormatFieldsAndRecordsWithoutWriting) {
  CommandResult r = RunRevsum("ingest --detect --db " + db_ + " " + kSamples + "/zh_reviews.csv " +
                              kSamples + "/messy/malformed_json.jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("zh_reviews.csv: format csv"));
  EXPECT_THAT(r.out, HasSubstr("line 2: product \"水果\""));
  EXPECT_THAT(r.out, HasSubstr("line 2: rejected: malformed JSON"));
  EXPECT_FALSE(fs::exists(db_)) << "--detect writes nothing";
  EXPECT_EQ(RunRevsum("ingest " + kSamples + "/zh_reviews.csv").exit_code, 1) << "--db needed";
}

TEST_F(StoreCliTest, ExportGivesEveryProductItsLatestSummaryAfterAPartialReRun) {
  const std::string zh = kSamples + "/zh_reviews.csv";
  ASSERT_EQ(RunRevsum("run -q " + zh + " --embedder lexical --db " + db_).exit_code, 0);
  const std::string products = QueryText(db_, "SELECT count(*) FROM products");
  ASSERT_EQ(
      RunRevsum("summarize -q --product 水果 --budget 1s --embedder lexical --db " + db_).exit_code,
      0);
  CommandResult all = RunRevsum("export --format jsonl --no-tokens --db " + db_);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(std::to_string(std::count(all.out.begin(), all.out.end(), '\n')), products)
      << "every product, not only the one re-summarised";
  EXPECT_THAT(all.out, HasSubstr("\"run\":2"));
  EXPECT_THAT(all.out, HasSubstr("\"run\":1"));
  CommandResult other = RunRevsum("export --product 衣服 --no-tokens --db " + db_);
  EXPECT_EQ(other.exit_code, 0) << "a product of run 1 only: " << other.err;
  EXPECT_EQ(QueryText(db_, "SELECT count(*) FROM latest_summaries WHERE scope = 'product'"),
            products);
}

TEST_F(StoreCliTest, ReviewSummariesCanBeExported) {
  ASSERT_EQ(RunRevsum("run -q " + kSamples +
                      "/en_reviews.jsonl --scope both --embedder lexical --db " + db_)
                .exit_code,
            0);
  CommandResult r = RunRevsum("export --scope review --format jsonl --no-tokens --db " + db_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::to_string(std::count(r.out.begin(), r.out.end(), '\n')),
            QueryText(db_, "SELECT count(*) FROM summaries WHERE scope = 'review'"));
  EXPECT_THAT(r.out, HasSubstr("\"review\":"));
  CommandResult md = RunRevsum("export --scope review --format markdown --no-tokens --db " + db_);
  // Named by its citation id (the reader's user_id:timestamp id of the first review), as its
  // citations are.
  EXPECT_THAT(md.out,
              HasSubstr("## review AEUJZDEGXDNCF32EPF3DHODZDOCI:1609655010777 of B0KTL55200\n"));
  EXPECT_THAT(md.out, HasSubstr(" [AEUJZDEGXDNCF32EPF3DHODZDOCI:1609655010777]\n"));
}

TEST_F(StoreCliTest, ADumpWithoutAProductFieldSaysSoOnceAndGetsAHeading) {
  std::ofstream(dir_ / "plain.jsonl") << "{\"text\":\"Nice mug. Holds heat.\"}\n"
                                      << "{\"text\":\"Chipped on arrival.\"}\n";
  CommandResult r = RunRevsum("run " + dir_ / "plain.jsonl" + " --embedder lexical --db " + db_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t notes = 0;
  for (size_t at = r.err.find("no product field"); at != std::string::npos;
       at = r.err.find("no product field", at + 1)) {
    ++notes;
  }
  EXPECT_EQ(notes, 1u) << r.err;
  CommandResult md = RunRevsum("export --format markdown --no-tokens --db " + db_);
  EXPECT_THAT(md.out, HasSubstr("## (no product field)\n")) << md.out;
  EXPECT_THAT(md.out, Not(HasSubstr("## \n")));
}

// The heads are documented in docs/how-it-works.md ("The heads"): every aspect head the seeds
// define is named there, and no head that does not exist.
TEST_F(StoreCliTest, TheReadmeNamesTheHeadsTheSeedsDefine) {
  std::ifstream doc(std::string(REVSUM_SAMPLES) + "/../docs/how-it-works.md");
  ASSERT_TRUE(doc) << "docs/how-it-works.md not found";
  std::string text((std::istreambuf_iterator<char>(doc)), {});
  std::ifstream seeds(std::string(REVSUM_SAMPLES) + "/../models/seeds/en.txt");
  std::string line;
  while (std::getline(seeds, line)) {
    if (line.rfind("[aspect:", 0) != 0) continue;
    const std::string name = line.substr(8, line.size() - 9);
    EXPECT_TRUE(text.find("`" + name + "`") != std::string::npos ||
                text.find("`aspect:" + name + "`") != std::string::npos)
        << "docs/how-it-works.md does not name aspect:" << name;
  }
  EXPECT_EQ(text.find("`fit`"), std::string::npos)
      << "docs/how-it-works.md names a head that does not exist";
}

TEST_F(StoreCliTest, AnIdTooLargeForAReviewIsNotFoundNotAnInternalError) {
  ASSERT_EQ(RunRevsum("ingest -q " + kSamples + "/en_reviews.jsonl --db " + db_).exit_code, 0);
  for (const char* flag : {"", " --review"}) {
    CommandResult r = RunRevsum(std::string("show 999999999999999999999") + flag + " --db " + db_);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_THAT(r.err, HasSubstr("no product or review '999999999999999999999'")) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("stoll")));
  }
}

}  // namespace
}  // namespace revsum
