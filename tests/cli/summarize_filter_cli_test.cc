// revsum summarize / run with --min-rating, --max-rating, --since, --until: the real binary on
// samples/en_reviews.jsonl (ratings 1-5, Amazon timestamps), into a real SQLite file.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/query_db.h"
#include "support/run_revsum.h"

namespace revsum {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::RunRevsum;
using testing::TempDir;

const std::string kEnglish = std::string(REVSUM_SAMPLES) + "/en_reviews.jsonl";

// The lowest and highest rating of the reviews whose sentences the latest run scored.
std::string ScoredRatingRange(const std::string& db) {
  return testing::QueryOne<std::string>(
      db,
      "SELECT min(r.rating) || '-' || max(r.rating) FROM scores sc JOIN sentences s ON s.id = "
      "sc.sentence_id JOIN reviews r ON r.id = s.review_id WHERE sc.run_id = (SELECT max(id) FROM "
      "runs)",
      "");
}

TEST(SummarizeFilterCliTest, RatingBoundsRestrictWhatSummarizeAndRunRead) {
  TempDir dir;
  const std::string db = dir / "reviews.db";
  CommandResult run =
      RunRevsum("run -q " + kEnglish + " --embedder lexical --min-rating 4 --db " + db);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(ScoredRatingRange(db), "4.0-5.0");
  CommandResult low = RunRevsum("summarize -q --embedder lexical --max-rating 2 --db " + db);
  ASSERT_EQ(low.exit_code, 0) << low.err;
  EXPECT_EQ(ScoredRatingRange(db), "1.0-2.0");
  EXPECT_EQ(testing::QueryOne<int64_t>(db, "SELECT count(*) FROM runs", -1), 2)
      << "a filtered run is its own run";
}

TEST(SummarizeFilterCliTest, BadBoundsExitOneNamingTheOption) {
  TempDir dir;
  const std::string db = dir / "reviews.db";
  ASSERT_EQ(RunRevsum("ingest -q " + kEnglish + " --db " + db).exit_code, 0);
  struct Case {
    std::string args, named;
  };
  for (const Case& c :
       {Case{"--since 2020-13-01", "--since"}, Case{"--until tomorrow", "--until"},
        Case{"--min-rating high", "--min-rating"}, Case{"--max-rating 5x", "--max-rating"},
        Case{"--min-rating 4 --max-rating 2", "--min-rating"},
        Case{"--since 2021-01-02 --until 2021-01-01", "--since"}}) {
    CommandResult r = RunRevsum("summarize -q " + c.args + " --db " + db);
    EXPECT_EQ(r.exit_code, 1) << c.args;
    EXPECT_THAT(r.err, HasSubstr(c.named)) << c.args;
  }
  CommandResult run = RunRevsum("run -q " + kEnglish + " --since 2020/01/01 --db " + db);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("--since"));
}

}  // namespace
}  // namespace revsum
