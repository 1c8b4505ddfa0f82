// Benchmark-set and system-output files: reading, clear errors, round trips, and scoring.

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/eval.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;

const std::string kMiniSet = std::string(REVSUM_TEST_DATA) + "/eval/mini_set.jsonl";

// The message of the EvalError that `fn` throws ("" when it throws none).
template <typename Fn>
std::string ErrorOf(Fn fn) {
  try {
    fn();
  } catch (const EvalError& e) {
    return e.what();
  }
  return "";
}

TEST(ReadBenchSet, ReadsEntitiesWithReviewsAndGoldInFileOrder) {
  const std::vector<BenchEntity> set = ReadBenchSet(kMiniSet);
  ASSERT_EQ(set.size(), 2u);  // the blank line between them is skipped
  EXPECT_EQ(set[0].id, "kettle.K1");
  EXPECT_EQ(set[0].dataset, "mini");
  EXPECT_EQ(set[0].split, "dev");
  EXPECT_EQ(set[0].budget_words, 12u);
  ASSERT_EQ(set[0].reviews.size(), 2u);
  EXPECT_EQ(set[0].reviews[1].id, "K1-1");
  EXPECT_EQ(set[0].reviews[1].text, "Boils water in two minutes! Handle gets hot.");
  EXPECT_EQ(set[0].gold.size(), 2u);
  EXPECT_EQ(set[1].reviews[0].text, "茶壶很好看。盖子有点松。");
  EXPECT_EQ(set[1].reviews[1].text, "Pretty \"glass\" teapot.\nKeeps tea warm.");
}

TEST(ReadBenchSet, NamesFileAndLineOfAMissingField) {
  const std::string jsonl =
      "{\"id\":\"a\",\"dataset\":\"d\",\"split\":\"dev\",\"budget_words\":5,"
      "\"reviews\":[{\"id\":\"r\",\"text\":\"t\"}],\"gold\":[\"g\"]}\n"
      "{\"id\":\"b\",\"dataset\":\"d\",\"split\":\"dev\",\"budget_words\":5,"
      "\"reviews\":[{\"id\":\"r\",\"text\":\"t\"}]}\n";
  EXPECT_EQ(ErrorOf([&] { ParseBenchSet(jsonl, "set.jsonl"); }),
            "set.jsonl:2: field \"gold\" is missing");
}

TEST(ReadBenchSet, RejectsMalformedJsonWithItsLine) {
  EXPECT_THAT(ErrorOf([] { ParseBenchSet("\n{\"id\": \"a\",", "set.jsonl"); }),
              HasSubstr("set.jsonl:2: malformed JSON"));
  EXPECT_EQ(ErrorOf([] { ParseBenchSet("[1, 2]", "set.jsonl"); }),
            "set.jsonl:1: expected a JSON object");
}

TEST(ReadBenchSet, RejectsWrongTypesAndEmptyLists) {
  const std::string head = "{\"id\":\"a\",\"dataset\":\"d\",\"split\":\"dev\",";
  const std::string reviews = "\"reviews\":[{\"id\":\"r\",\"text\":\"t\"}]";
  EXPECT_EQ(ErrorOf([&] {
              ParseBenchSet(head + "\"budget_words\":0," + reviews + ",\"gold\":[\"g\"]}", "s");
            }),
            "s:1: field \"budget_words\" must be a positive integer");
  EXPECT_EQ(ErrorOf([&] {
              ParseBenchSet(head + "\"budget_words\":\"5\"," + reviews + ",\"gold\":[\"g\"]}", "s");
            }),
            "s:1: field \"budget_words\" must be a positive integer");
  EXPECT_EQ(ErrorOf([&] {
              ParseBenchSet(head + "\"budget_words\":5," + reviews + ",\"gold\":[]}", "s");
            }),
            "s:1: field \"gold\" is empty");
  EXPECT_EQ(ErrorOf([&] {
              ParseBenchSet(
                  head + "\"budget_words\":5,\"reviews\":[{\"id\":\"r\"}],\"gold\":[\"g\"]}", "s");
            }),
            "s:1: reviews[0].text must be a string");
  EXPECT_EQ(ErrorOf([&] {
              ParseBenchSet(head + "\"budget_words\":5," + reviews + ",\"gold\":[\"g\", 3]}", "s");
            }),
            "s:1: gold[1] must be a string");
}

TEST(ReadBenchSet, RejectsRepeatedIds) {
  const std::string line =
      "{\"id\":\"a\",\"dataset\":\"d\",\"split\":\"dev\",\"budget_words\":5,"
      "\"reviews\":[{\"id\":\"r\",\"text\":\"t\"}],\"gold\":[\"g\"]}\n";
  EXPECT_EQ(ErrorOf([&] { ParseBenchSet(line + line, "s"); }), "s:2: entity id \"a\" repeats");
}

TEST(ReadBenchSet, NamesAFileThatCannotBeOpened) {
  EXPECT_EQ(ErrorOf([] { ReadBenchSet("/nonexistent/set.jsonl"); }),
            "/nonexistent/set.jsonl: cannot open for reading");
}

TEST(SystemOutputs, RoundTripThroughAFile) {
  const std::map<std::string, std::string> summaries = {
      {"kettle.K1", "Boils fast.\nThe \"lid\" sticks \\ a bit.\t"},
      {"teapot.T1", "茶壶很好看。\x01"},
  };
  const auto path = std::filesystem::temp_directory_path() / "revsum_eval_outputs_test.jsonl";
  WriteSystemOutputs(path.string(), summaries);
  EXPECT_EQ(ReadSystemOutputs(path.string()), summaries);
  std::filesystem::remove(path);
}

TEST(SystemOutputs, WritesOneJsonObjectPerLine) {
  std::ostringstream out;
  WriteSystemOutputs(out, {{"a", "x\ny"}});
  EXPECT_EQ(out.str(), "{\"id\": \"a\", \"summary\": \"x\\ny\"}\n");
}

TEST(SystemOutputs, RejectsMissingSummaryAndRepeatedIds) {
  EXPECT_EQ(ErrorOf([] { ParseSystemOutputs("{\"id\": \"a\"}", "out.jsonl"); }),
            "out.jsonl:1: field \"summary\" is missing");
  EXPECT_EQ(ErrorOf([] {
              ParseSystemOutputs(
                  "{\"id\":\"a\",\"summary\":\"x\"}\n{\"id\":\"a\",\"summary\":\"y\"}",
                  "out.jsonl");
            }),
            "out.jsonl:2: summary id \"a\" repeats");
}

TEST(ScoreSystem, AGoldSummaryScoresPerfectlyAgainstItself) {
  BenchEntity e;
  e.id = "x";
  e.dataset = "mini";
  e.budget_words = 50;
  e.reviews = {{"r", "irrelevant"}};
  e.gold = {"The kettle boils water fast. The handle gets hot."};
  std::vector<EntityScores> per_entity;
  const auto scores = ScoreSystem({e}, {{"x", e.gold[0]}}, &per_entity);
  ASSERT_EQ(scores.size(), 1u);
  EXPECT_EQ(scores[0].dataset, "mini");
  EXPECT_EQ(scores[0].entities, 1u);
  EXPECT_DOUBLE_EQ(scores[0].r1, 100.0);
  EXPECT_DOUBLE_EQ(scores[0].r2, 100.0);
  EXPECT_DOUBLE_EQ(scores[0].rl, 100.0);
  ASSERT_EQ(per_entity.size(), 1u);
  EXPECT_EQ(per_entity[0].id, "x");
  EXPECT_DOUBLE_EQ(per_entity[0].r1.recall, 1.0);
}

// Entity "kettle.K1", budget 12, refs "The kettle boils water fast." (5 tokens after stemming:
// the kettl boil water fast) and "It boils quickly but the handle gets hot." (8 tokens).
// Summary "The kettle boils fast." -> the kettl boil fast (4 tokens).
// ROUGE-1 hits: ref 1: the kettl boil fast = 4; ref 2: boil the = 2 -> 6 / 13 = 0.46154;
// P = 6 / (4 + 4) = 0.75. The second entity gets an empty summary: all zero.
// Plain means over the 2 entities: R1 R = 0.23077, F = F(0.46154, 0.75) / 2.
TEST(ScoreSystem, AveragesEntitiesPerDataset) {
  const std::vector<BenchEntity> set = ReadBenchSet(kMiniSet);
  std::vector<EntityScores> per_entity;
  const auto scores =
      ScoreSystem(set, {{"kettle.K1", "The kettle boils fast."}, {"teapot.T1", ""}}, &per_entity);
  ASSERT_EQ(per_entity.size(), 2u);
  EXPECT_NEAR(per_entity[0].r1.recall, 0.46154, 1e-9);
  EXPECT_NEAR(per_entity[0].r1.precision, 0.75, 1e-9);
  EXPECT_EQ(per_entity[1].r1.f, 0.0);
  ASSERT_EQ(scores.size(), 1u);
  EXPECT_EQ(scores[0].entities, 2u);
  EXPECT_NEAR(scores[0].mean_r1.recall, 0.23077, 1e-9);
  EXPECT_NEAR(100 * scores[0].mean_r1.f, 100 * per_entity[0].r1.f / 2, 1e-9);
}

TEST(ScoreSystem, NamesTheEntityWithoutASummary) {
  const std::vector<BenchEntity> set = ReadBenchSet(kMiniSet);
  EXPECT_EQ(ErrorOf([&] {
              ScoreSystem(set, {{"kettle.K1", "x"}});
            }),
            "no summary for entity \"teapot.T1\" (dataset mini)");
}

TEST(LeadSummary, TakesTheFirstSentenceOfEachReviewThenTheSecond) {
  const std::vector<BenchEntity> set = ReadBenchSet(kMiniSet);
  // Budget 12: "The kettle boils fast." (4) + "Boils water in two minutes!" (5) = 9 words, then
  // the second sentences: "The lid sticks." (3) -> 12.
  EXPECT_EQ(LeadSummary(set[0]),
            "The kettle boils fast.\nBoils water in two minutes!\nThe lid sticks.");
}

}  // namespace
}  // namespace revsum

namespace revsum {
namespace {

TEST(RougeBootstrapAverage, EqualScoresAverageToThatScore) {
  double low = 0, high = 0;
  EXPECT_DOUBLE_EQ(RougeBootstrapAverage({0.25, 0.25, 0.25}, 1000, 95, &low, &high), 0.25);
  EXPECT_DOUBLE_EQ(low, 0.25);
  EXPECT_DOUBLE_EQ(high, 0.25);
}

// perl's srand(0) then rand(): x = 0x330E, x' = 0x5DEECE66D x + 0xB mod 2^48, rand = x' / 2^48:
// 0.170828, 0.749902, 0.096372. So one resample of 3 entities draws rand(3) -> 0, 2, 0, and of
// scores {0.1, 0.2, 0.4} averages (0.1 + 0.4 + 0.1) / 3 = 0.2 (not the plain mean 0.23333).
TEST(RougeBootstrapAverage, FollowsPerlsSeededRand) {
  EXPECT_DOUBLE_EQ(RougeBootstrapAverage({0.1, 0.2, 0.4}, 1), 0.2);
  EXPECT_DOUBLE_EQ(RougeBootstrapAverage({0.7}, 1), 0.7);
  const double avg = RougeBootstrapAverage({0.0, 1.0});
  EXPECT_GT(avg, 0.45);
  EXPECT_LT(avg, 0.55);
}

TEST(RougeBootstrapAverage, IsZeroWithoutScores) { EXPECT_EQ(RougeBootstrapAverage({}), 0.0); }

}  // namespace
}  // namespace revsum
