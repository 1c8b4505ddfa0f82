// Damaged input never crashes or hangs a reader: every prefix of a gzip dump, random byte flips in
// gzip, CSV and JSONL dumps all end in a finite number of records, with rejects for the damage.
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"

namespace revsum {
namespace {

using testing::Gzip;
using testing::ReadAll;
using testing::TempDir;

std::string SampleJsonl() {
  std::string json;
  for (int i = 0; i < 300; ++i) {
    json += "{\"rating\": " + std::to_string(i % 5 + 1) + ", \"text\": \"Review " +
            std::to_string(i) + ": 质量不错，物流很快。Would buy again.\", \"parent_asin\": \"B0" +
            std::to_string(i % 7) + "\"}\n";
  }
  return json;
}

// Lines of successive records never go backwards, and a dump of N lines has at most N records.
void ExpectSaneRecords(const testing::ReadResult& result, size_t max_records) {
  EXPECT_LE(result.reviews.size() + result.rejects.size(), max_records);
  uint64_t last = 0;
  for (const Review& r : result.reviews) {
    EXPECT_GT(r.line, last);
    last = r.line;
    EXPECT_FALSE(r.text.empty());
  }
}

TEST(Robustness, EveryPrefixOfAGzipDumpEndsCleanly) {
  TempDir dir;
  const std::string json = SampleJsonl();
  const std::string gz = Gzip(json);
  for (size_t cut = 0; cut < gz.size(); cut += 97) {
    SCOPED_TRACE(cut);
    auto result = ReadAll(dir.Write("cut.jsonl.gz", gz.substr(0, cut)));
    ExpectSaneRecords(result, 301);
    if (cut >= 2) {
      ASSERT_FALSE(result.rejects.empty());
      EXPECT_NE(result.rejects.back().reason.find("gzip"), std::string::npos);
    }
  }
}

TEST(Robustness, FlippedBytesInGzipNeverCrash) {
  TempDir dir;
  const std::string gz = Gzip(SampleJsonl());
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    std::string damaged = gz;
    for (int k = 0; k < 3; ++k) {
      damaged[10 + rng() % (damaged.size() - 10)] ^= static_cast<char>(1 + rng() % 255);
    }
    auto result = ReadAll(dir.Write("flip.jsonl.gz", damaged));
    ExpectSaneRecords(result, 400);
  }
}

TEST(Robustness, RandomBytesInTextDumpsNeverCrash) {
  TempDir dir;
  const std::string json = SampleJsonl();
  std::string csv = "cat,label,review\n";
  for (int i = 0; i < 200; ++i) {
    csv +=
        "水果," + std::to_string(i % 2) + ",\"很甜,\"\"新鲜\"\"\n第" + std::to_string(i) + "箱\"\n";
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const bool use_csv = round % 2 == 0;
    std::string damaged = use_csv ? csv : json;
    for (int k = 0; k < 8; ++k) {
      const char bytes[] = {'"', ',', '\n', '\r', '\0', '{', '\xff', '\xe6', '\t'};
      damaged[rng() % damaged.size()] = bytes[rng() % sizeof bytes];
    }
    ReadOptions options;
    options.max_record_bytes = 1 + rng() % 4096;
    options.max_raw_bytes = rng() % 64;
    testing::ReadResult result;
    try {
      result = ReadAll(dir.Write(use_csv ? "r.csv" : "r.jsonl", damaged), options);
    } catch (const ReadError& e) {
      // A damaged CSV header may lose its text column: the whole file is unreadable.
      EXPECT_TRUE(use_csv) << e.what();
      EXPECT_THAT(e.what(), ::testing::HasSubstr("no text column")) << e.what();
      continue;
    }
    ExpectSaneRecords(result, 1000);
    for (const Reject& r : result.rejects) EXPECT_LE(r.raw.size(), options.max_raw_bytes);
  }
}

}  // namespace
}  // namespace revsum
