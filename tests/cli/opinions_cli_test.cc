// revsum train and revsum opinions as a user runs them (include/revsum/opinion.h, train.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/paths.h"
#include "support/run_revsum.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;
using testing::RunRevsum;
using testing::TempDir;

using testing::kSamples;

TEST(OpinionsCli, ScoresEachStdinLineWithSideModelWordListsAndEscapedText) {
  const auto r =
      RunRevsum("opinions", "Stopped working after a week, total waste of money.\n\x1b[31mok\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1) {
    lines.push_back(r.out.substr(at, nl - at));
  }
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_THAT(lines[0], HasSubstr("\tcomplaint\t"));
  EXPECT_THAT(lines[1], HasSubstr("\\x1b[31mok"));
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  const auto json = RunRevsum("opinions --json", "质量很好，非常满意。\n");
  EXPECT_THAT(json.out, HasSubstr("\"polarity\":\"praise\""));
  EXPECT_THAT(json.out, HasSubstr("\"model\":"));
  EXPECT_THAT(json.out, HasSubstr("\"word_lists\":"));
}

TEST(TrainCli, AStoreWithTooFewRatingsKeepsTheDefaultAndSaysWhy) {
  TempDir dir;
  const std::string db = dir / "s.db";
  ASSERT_EQ(RunRevsum("ingest " + kSamples + "/en_reviews.jsonl --db " + db + " -q").exit_code, 0);
  const auto r = RunRevsum("train --db " + db);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("40 rated reviews, fewer than the 200"));
  EXPECT_THAT(r.err, HasSubstr("runs use the default model"));
  const auto run = RunRevsum("summarize --db " + db + " --embedder lexical");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("opinions from the default model"));
  const auto show = RunRevsum("show B0KTL55200 --db " + db + " --json");
  EXPECT_THAT(show.out, HasSubstr("\"polarity\":\""));
  EXPECT_THAT(show.out, HasSubstr("\"salience\":"));
  const auto heads = RunRevsum("show B0KTL55200 --db " + db + " --heads");
  EXPECT_THAT(heads.out, HasSubstr("salience="));
}

TEST(OpinionsCli, ADamagedModelFileIsRefusedNamingIt) {
  TempDir dir;
  const std::string path = dir / "bad.bin";
  std::ofstream(path) << "RVOPIN01 not a model";
  const auto r = RunRevsum("opinions --model " + path, "fine\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(path + ": not a revsum opinion model"));
}

}  // namespace
}  // namespace revsum
