// End-to-end specification of `revsum report`'s refusals: each exits 1 with a message that names
// the argument and the value at fault, and leaves no page (nor a .partial file) behind.
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/run_revsum.h"

namespace revsum {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunRevsum;
using testing::TempDir;

const std::string kSamples = REVSUM_SAMPLES;

// One summarised store and one ingested but never summarised, for the whole suite.
class ReportCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    CommandResult r = RunRevsum("run " + kSamples + "/en_reviews.jsonl --db " + Db() +
                                " --budget 30w --embedder lexical --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = RunRevsum("ingest " + kSamples + "/en_reviews.jsonl --db " + NoRunsDb() + " --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Db() { return *dir_ / "reviews.db"; }
  static std::string NoRunsDb() { return *dir_ / "ingested.db"; }
  static std::string Out(const std::string& name) { return *dir_ / name; }

  // Nothing was written at `path`: neither the page nor its .partial file.
  static void ExpectNothingWritten(const std::string& path) {
    EXPECT_FALSE(std::filesystem::exists(path)) << path;
    EXPECT_FALSE(std::filesystem::exists(path + ".partial")) << path;
  }

  static TempDir* dir_;
};
TempDir* ReportCliTest::dir_ = nullptr;

TEST_F(ReportCliTest, WritesThePageOfASummarisedStore) {
  const std::string page = Out("ok.html");
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + page);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(page));
  EXPECT_FALSE(std::filesystem::exists(page + ".partial"));
}

TEST_F(ReportCliTest, AMissingDbFileIsNamed) {
  const std::string missing = Out("no-such.db");
  const std::string page = Out("missing-db.html");
  const CommandResult r = RunRevsum("report --db " + missing + " -o " + page);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--db"));
  EXPECT_THAT(r.err, HasSubstr(missing));
  ExpectNothingWritten(page);
  EXPECT_FALSE(std::filesystem::exists(missing)) << "report must not create the store";
}

TEST_F(ReportCliTest, AProductNotInTheStoreIsNamed) {
  const std::string page = Out("no-product.html");
  const CommandResult r = RunRevsum("report --db " + Db() + " --product NOPE-42 -o " + page);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--product 'NOPE-42'"));
  EXPECT_THAT(r.err, HasSubstr("no such product"));
  ExpectNothingWritten(page);
}

TEST_F(ReportCliTest, ARunThatDoesNotExistIsNamed) {
  const std::string page = Out("no-run.html");
  const CommandResult r = RunRevsum("report --db " + Db() + " --run 99 -o " + page);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--run 99: no such run"));
  ExpectNothingWritten(page);
}

TEST_F(ReportCliTest, AnUnwritableOutputPathIsNamed) {
  const std::string page = Out("no-such-dir") + "/page.html";
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + page);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("-o " + page + ": cannot write"));
  EXPECT_THAT(r.err, HasSubstr("No such file or directory"));
  ExpectNothingWritten(page);
}

TEST_F(ReportCliTest, AnOutputPathThatIsADirectoryIsNamedAndNoPartialIsLeft) {
  const std::string dir = Out("a-directory");
  std::filesystem::create_directory(dir);
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("-o " + dir + ": is a directory"));
  EXPECT_FALSE(std::filesystem::exists(dir + ".partial"));
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST_F(ReportCliTest, AStoreWithNoRunsIsRefused) {
  const std::string page = Out("no-runs.html");
  const CommandResult r = RunRevsum("report --db " + NoRunsDb() + " -o " + page);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--db " + NoRunsDb() + ": the store has no finished run"));
  EXPECT_THAT(r.err, HasSubstr("revsum summarize"));
  EXPECT_THAT(r.err, Not(HasSubstr("products,")));
  ExpectNothingWritten(page);
}

}  // namespace
}  // namespace revsum
