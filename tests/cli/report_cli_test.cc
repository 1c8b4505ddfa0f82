// End-to-end specification of `revsum report`'s refusals: each exits 1 with a message that names
// the argument and the value at fault, and leaves no page (nor a temporary file) behind; and of
// what -o does to what is already there (src/cli/output_file.h): a regular file is replaced whole,
// keeping its mode; a FIFO, a symlink or a hard-linked file is written into, never replaced. Every
// target is made inside the test's own folder (no machine device is touched).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/run_revsum.h"

namespace revsum {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunRevsum;
using testing::TempDir;

using testing::kSamples;

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

  // Nothing was written at `path`: neither the page nor a temporary file beside it.
  static void ExpectNothingWritten(const std::string& path) {
    EXPECT_FALSE(std::filesystem::exists(path)) << path;
    ExpectNoTemporaries();
  }
  // No ".NAME.XXXXXX" temporary (nor an old-style NAME.partial) is left in the suite's folder.
  static void ExpectNoTemporaries() {
    for (const auto& entry : std::filesystem::directory_iterator(dir_->path())) {
      const std::string name = entry.path().filename().string();
      const bool temporary =
          name.size() > 8 && name[0] == '.' && name.find(".html.") != std::string::npos;
      EXPECT_FALSE(temporary) << "left behind: " << name;
      EXPECT_FALSE(name.size() > 8 && name.substr(name.size() - 8) == ".partial" &&
                   !std::filesystem::is_symlink(entry.path()))
          << "left behind: " << name;
    }
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  static TempDir* dir_;
};
TempDir* ReportCliTest::dir_ = nullptr;

TEST_F(ReportCliTest, WritesThePageOfASummarisedStore) {
  const std::string page = Out("ok.html");
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + page);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(page));
  ExpectNoTemporaries();
}

TEST_F(ReportCliTest, AnExistingPageIsReplacedWholeAndKeepsItsMode) {
  const std::string page = Out("private.html");
  std::ofstream(page) << "old page";
  ASSERT_EQ(chmod(page.c_str(), 0600), 0);
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + page);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Read(page), HasSubstr("<html"));
  struct stat st {};
  ASSERT_EQ(lstat(page.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ExpectNoTemporaries();
}

TEST_F(ReportCliTest, AFifoIsWrittenIntoNotReplaced) {
  const std::string fifo = Out("page.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = Read(fifo); });
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + fifo);
  reader.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(got, HasSubstr("<html"));
  EXPECT_THAT(got, HasSubstr("</html>"));
  EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << "the FIFO was replaced";
  ExpectNoTemporaries();
}

TEST_F(ReportCliTest, ASymlinkOrAHardLinkIsWrittenThroughAndStaysALink) {
  const std::string target = Out("target.html"), link = Out("link.html");
  std::ofstream(target) << "old page";
  std::filesystem::create_symlink(target, link);
  CommandResult r = RunRevsum("report --db " + Db() + " -o " + link);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_THAT(Read(target), HasSubstr("<html"));

  const std::string first = Out("first.html"), second = Out("second.html");
  std::ofstream(first) << "old page";
  std::filesystem::create_hard_link(first, second);
  r = RunRevsum("report --db " + Db() + " -o " + first);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::filesystem::hard_link_count(first), 2u);
  EXPECT_THAT(Read(second), HasSubstr("<html"));
  EXPECT_EQ(Read(first), Read(second));
  ExpectNoTemporaries();
}

TEST_F(ReportCliTest, APlantedPartialSymlinkIsNotFollowed) {
  // The old writer wrote OUT.partial and followed a symlink planted under that name.
  const std::string victim = Out("victim.txt"), page = Out("planted.html");
  std::ofstream(victim) << "keep me";
  std::filesystem::create_symlink(victim, page + ".partial");
  const CommandResult r = RunRevsum("report --db " + Db() + " -o " + page);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Read(victim), "keep me");
  EXPECT_THAT(Read(page), HasSubstr("<html"));
  EXPECT_FALSE(std::filesystem::is_symlink(page));
}

TEST_F(ReportCliTest, DashWritesStandardOutput) {
  const CommandResult r = RunRevsum("report --db " + Db() + " -o - --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("<html"));
  EXPECT_THAT(r.out, HasSubstr("</html>"));
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
  ExpectNoTemporaries();
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
