// ROUGE against the original ROUGE-1.5.5 perl script: ../shared/data/bench/rouge_fixtures.jsonl
// holds 252 per-entity results of the script (peer and reference texts exactly as it read them,
// R/P/F x100 for ROUGE-1, -2, -L). Every one must be reproduced within 0.1 points.
//
// The same file also pins the protocol around ROUGE: laying the gold out one sentence per line must
// give the reference texts the script read, and the "lead" baseline must give the peer texts of
// the "lead" system.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "revsum/eval.h"
#include "revsum/rouge.h"
#include "support/shared_data.h"

namespace revsum {
namespace {

struct Fixture {
  std::string dataset, system, id;
  size_t budget_words = 0;
  std::string peer_spl;
  std::vector<std::string> refs_spl;
  double expected[9] = {};  // R1 R,P,F; R2 R,P,F; RL R,P,F (x100)
};

std::vector<Fixture> LoadFixtures(const std::filesystem::path& path) {
  static const char* kKeys[9] = {"R1_R", "R1_P", "R1_F", "R2_R", "R2_P",
                                 "R2_F", "RL_R", "RL_P", "RL_F"};
  simdjson::dom::parser parser;
  simdjson::dom::document_stream stream;
  EXPECT_EQ(parser.load_many(path.string()).get(stream), simdjson::SUCCESS);
  std::vector<Fixture> fixtures;
  for (simdjson::dom::element e : stream) {
    Fixture f;
    f.dataset = std::string(std::string_view(e["dataset"]));
    f.system = std::string(std::string_view(e["system"]));
    f.id = std::string(std::string_view(e["id"]));
    f.budget_words = static_cast<size_t>(uint64_t(e["budget_words"]));
    f.peer_spl = std::string(std::string_view(e["peer_spl"]));
    for (simdjson::dom::element r : simdjson::dom::array(e["refs_spl"])) {
      f.refs_spl.emplace_back(std::string_view(r));
    }
    for (int k = 0; k < 9; ++k) f.expected[k] = double(e[kKeys[k]]);
    fixtures.push_back(std::move(f));
  }
  return fixtures;
}

// The lines of an SPL text as ROUGE-1.5.5 reads them: every non-empty line.
std::vector<std::string> Lines(const std::string& spl) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < spl.size()) {
    size_t end = spl.find('\n', start);
    if (end == std::string::npos) end = spl.size();
    if (end > start) lines.push_back(spl.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(RougeFixtures, ReproducesRouge155OnEveryFixtureWithinATenthOfAPoint) {
  REVSUM_REQUIRE_SHARED(path, "data/bench/rouge_fixtures.jsonl");
  const std::vector<Fixture> fixtures = LoadFixtures(path);
  ASSERT_EQ(fixtures.size(), 252u);
  double max_deviation = 0;
  std::string worst;
  for (const Fixture& f : fixtures) {
    std::vector<std::vector<std::string>> refs;
    for (const std::string& r : f.refs_spl) refs.push_back(Lines(r));
    RougeOptions options;
    options.max_words = f.budget_words;
    const RougeResult r = ScoreRougeUnits(Lines(f.peer_spl), refs, options);
    const RougeScores* metrics[3] = {&r.r1, &r.r2, &r.rl};
    for (int m = 0; m < 3; ++m) {
      const double got[3] = {metrics[m]->recall, metrics[m]->precision, metrics[m]->f};
      for (int k = 0; k < 3; ++k) {
        const double deviation = std::abs(100 * got[k] - f.expected[3 * m + k]);
        EXPECT_LE(deviation, 0.1) << f.dataset << " " << f.system << " " << f.id << " metric " << m
                                  << " value " << k << ": got " << 100 * got[k] << ", ROUGE-1.5.5 "
                                  << f.expected[3 * m + k];
        if (deviation > max_deviation) {
          max_deviation = deviation;
          worst = f.dataset + " " + f.system + " " + f.id;
        }
      }
    }
  }
  std::printf("max deviation from ROUGE-1.5.5 over %zu fixtures: %.6f points (%s)\n",
              fixtures.size(), max_deviation, worst.c_str());
}

std::map<std::string, BenchEntity> LoadEntities() {
  std::map<std::string, BenchEntity> by_id;
  for (const char* name : {"oposum_dev", "copycat_dev", "opinosis_dev"}) {
    const auto path = testing::SharedDir() / "data/bench" / (std::string(name) + ".jsonl");
    for (BenchEntity& e : ReadBenchSet(path.string())) {
      std::string id = e.id;
      by_id.emplace(std::move(id), std::move(e));
    }
  }
  return by_id;
}

// The fixtures hold the references uncut (the script applies -l itself), so the layout alone
// must reproduce them.
TEST(RougeFixtures, LayoutOfGoldGivesTheReferenceTextsRougeRead) {
  REVSUM_REQUIRE_SHARED(path, "data/bench/rouge_fixtures.jsonl");
  const auto entities = LoadEntities();
  for (const Fixture& f : LoadFixtures(path)) {
    const auto it = entities.find(f.id);
    ASSERT_NE(it, entities.end()) << f.id;
    const BenchEntity& e = it->second;
    ASSERT_EQ(e.gold.size(), f.refs_spl.size()) << f.id;
    ASSERT_EQ(e.budget_words, f.budget_words) << f.id;
    for (size_t g = 0; g < e.gold.size(); ++g) {
      EXPECT_EQ(SplitSentenceUnits(e.gold[g]), Lines(f.refs_spl[g])) << f.id << " gold " << g;
    }
  }
}

TEST(RougeFixtures, LeadSummaryIsThePeerTextOfTheLeadSystem) {
  REVSUM_REQUIRE_SHARED(path, "data/bench/rouge_fixtures.jsonl");
  const auto entities = LoadEntities();
  size_t checked = 0;
  for (const Fixture& f : LoadFixtures(path)) {
    if (f.system != "lead") continue;
    const BenchEntity& e = entities.at(f.id);
    EXPECT_EQ(SplitSentenceUnits(LeadSummary(e)), Lines(f.peer_spl)) << f.id;
    ++checked;
  }
  EXPECT_EQ(checked, 84u);
}

}  // namespace
}  // namespace revsum

namespace revsum {
namespace {

// End to end: the "lead" rows of the bench README's tables (../shared/data/bench/README.md; ROUGE
// F x100, two decimals), from the dev sets alone: LeadSummary for every entity, scored by
// ScoreSystem.
TEST(DevSets, LeadBaselineReproducesTheReadmeTables) {
  struct Row {
    const char* file;
    const char* dataset;
    size_t entities;
    double r1, r2, rl;
  };
  const Row rows[] = {{"oposum_dev.jsonl", "oposum", 30, 34.97, 13.71, 33.91},
                      {"copycat_dev.jsonl", "copycat", 28, 29.29, 5.04, 25.96},
                      {"opinosis_dev.jsonl", "opinosis", 26, 19.70, 4.13, 17.17}};
  for (const Row& row : rows) {
    REVSUM_REQUIRE_SHARED(path, std::string("data/bench/") + row.file);
    const std::vector<BenchEntity> set = ReadBenchSet(path.string());
    std::map<std::string, std::string> lead;
    for (const BenchEntity& e : set) lead[e.id] = LeadSummary(e);
    const std::vector<DatasetScores> scores = ScoreSystem(set, lead);
    ASSERT_EQ(scores.size(), 1u) << row.file;
    EXPECT_EQ(scores[0].dataset, row.dataset);
    EXPECT_EQ(scores[0].entities, row.entities);
    EXPECT_NEAR(scores[0].r1, row.r1, 0.006) << row.file;
    EXPECT_NEAR(scores[0].r2, row.r2, 0.006) << row.file;
    EXPECT_NEAR(scores[0].rl, row.rl, 0.006) << row.file;
    std::printf("%s lead: R1 %.2f R2 %.2f RL %.2f (README %.2f %.2f %.2f)\n", row.file,
                scores[0].r1, scores[0].r2, scores[0].rl, row.r1, row.r2, row.rl);
  }
}

}  // namespace
}  // namespace revsum
