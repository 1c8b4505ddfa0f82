// Ingest: dump → reader thread → segmentation workers → ordered writer → SQLite.
#include "revsum/ingest.h"

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/query_db.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using testing::TempDir;

int64_t Count(ReviewStore& store, const char* sql) {
  store.Flush();
  const testing::DbConnection db(store.path());
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql, -1, &st, nullptr), SQLITE_OK);
  int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  return n;
}

TEST(IngestTest, EveryRecordIsAReviewOrAReject) {
  TempDir dir;
  std::ofstream(dir / "mixed.jsonl") << "{\"text\":\"Good. Cheap.\",\"asin\":\"A\"}\n"
                                     << "{\"text\":\n"
                                     << "{\"text\":\"质量很好。物流很快！\",\"asin\":\"B\"}\n"
                                     << "{\"asin\":\"C\"}\n";
  auto store = ReviewStore::Open(dir / "db.sqlite");
  IngestCounts c = IngestFile(*store, dir / "mixed.jsonl", IngestOptions{});
  EXPECT_EQ(c.read, 4u);
  EXPECT_EQ(c.ingested, 2u);
  EXPECT_EQ(c.rejected, 2u);
  EXPECT_EQ(c.sentences, 4u);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM rejects"), 2);
  EXPECT_EQ(Count(*store, "SELECT records FROM sources"), 4);
}

TEST(IngestTest, RecordsAreStoredInReadingOrderWhateverTheThreadCount) {
  TempDir dir;
  {
    std::ofstream out(dir / "many.jsonl");
    for (int i = 0; i < 3000; ++i) {
      out << "{\"text\":\"Review number " << i << ". It is fine.\",\"asin\":\"P" << (i % 7)
          << "\"}\n";
    }
  }
  for (int threads : {1, 2, 4}) {
    auto store = ReviewStore::Open(dir / ("db" + std::to_string(threads)));
    IngestOptions options;
    options.threads = threads;
    options.batch_records = 64;
    IngestCounts c = IngestFile(*store, dir / "many.jsonl", options);
    EXPECT_EQ(c.ingested, 3000u);
    // Review ids follow the line order.
    EXPECT_EQ(Count(*store, "SELECT count(*) FROM reviews WHERE line != id"), 0) << threads;
  }
}

TEST(IngestTest, AFailureStopsEveryThreadRollsBackTheOpenBatchAndIsRethrown) {
  TempDir dir;
  {
    std::ofstream out(dir / "big.jsonl");
    for (int i = 0; i < 20000; ++i) {
      out << (i == 15000 ? std::string("not json")
                         : "{\"text\":\"Review " + std::to_string(i) + ". Fine.\"}")
          << "\n";
    }
  }
  auto store = ReviewStore::Open(dir / "db.sqlite");
  IngestOptions options;
  options.threads = 2;
  options.batch_records = 64;
  options.on_reject = [](const Reject&) { throw std::runtime_error("callback failed"); };
  EXPECT_THROW(IngestFile(*store, dir / "big.jsonl", options), std::runtime_error);
  // Batches committed before the failure stay (StoreOptions::batch_size records per transaction);
  // the open one is rolled back, so no review is stored without its sentences.
  const int64_t kept = Count(*store, "SELECT count(*) FROM reviews");
  const auto batch = static_cast<int64_t>(StoreOptions{}.batch_size);
  EXPECT_GT(kept, 0);
  EXPECT_EQ(kept % batch, 0);
  EXPECT_EQ(Count(*store,
                  "SELECT count(*) FROM reviews r WHERE NOT EXISTS "
                  "(SELECT 1 FROM sentences s WHERE s.review_id = r.id)"),
            0);
}

TEST(IngestTest, ProgressReportsBytesAndTotal) {
  TempDir dir;
  std::ofstream(dir / "one.jsonl") << "{\"text\":\"Fine.\"}\n";
  auto store = ReviewStore::Open(dir / "db.sqlite");
  IngestOptions options;
  IngestProgress last;
  options.progress = [&](const IngestProgress& p) { last = p; };
  IngestFile(*store, dir / "one.jsonl", options);
  EXPECT_EQ(last.records, 1u);
  EXPECT_EQ(last.total_bytes, last.bytes);
}

TEST(IngestTest, AccountsForAllRowsOfTheChineseShoppingDump) {
  REVSUM_REQUIRE_SHARED(csv, "data/zh/online_shopping_10_cats.csv");
  TempDir dir;
  auto store = ReviewStore::Open(dir / "zh.db");
  IngestOptions options;
  options.read.fields.product = "cat";
  IngestCounts c = IngestFile(*store, csv.string(), options);
  EXPECT_EQ(c.read, 62774u);
  // Every labelled row is a review: the 17 texts that repeat in their category with the other
  // label are reviews of their own; the one empty review is the one reject.
  EXPECT_EQ(c.ingested, 62773u);
  EXPECT_EQ(c.rejected, 1u);
  EXPECT_EQ(Count(*store,
                  "SELECT count(*) FROM reviews r WHERE NOT EXISTS (SELECT 1 FROM "
                  "sentences s WHERE s.review_id = r.id)"),
            0);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM reviews") + static_cast<int64_t>(c.duplicates) +
                Count(*store, "SELECT count(*) FROM rejects"),
            62774);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM products"), 10);
  EXPECT_GT(c.sentences, 62774u);
  std::cout << "online_shopping_10_cats.csv: read " << c.read << ", new " << c.ingested
            << ", duplicates " << c.duplicates << ", rejected " << c.rejected << ", sentences "
            << c.sentences << "\n";
  // Chinese search works on the real data.
  EXPECT_GT(store->search().Find("物流", 5).size(), 0u);
  IngestCounts again = IngestFile(*store, csv.string(), options);
  EXPECT_EQ(again.ingested, 0u) << "a second ingest adds nothing";
  EXPECT_EQ(again.duplicates, 62773u);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM rejects"), 1);
}

TEST(IngestTest, AReviewTextOverTheBoundIsRejectedNamingTheBound) {
  TempDir dir;
  std::ofstream(dir / "big.jsonl") << "{\"text\":\"" << std::string(3000, 'a') << ". ok.\"}\n"
                                   << "{\"text\":\"Short and fine.\"}\n";
  auto store = ReviewStore::Open(dir / "db.sqlite");
  IngestOptions options;
  options.max_text_bytes = 1000;
  std::vector<Reject> rejects;
  options.on_reject = [&](const Reject& r) { rejects.push_back(r); };
  IngestCounts c = IngestFile(*store, dir / "big.jsonl", options);
  EXPECT_EQ(c.ingested, 1u);
  ASSERT_EQ(rejects.size(), 1u);
  EXPECT_THAT(rejects[0].reason, ::testing::HasSubstr("the bound is 1000 bytes"));
  EXPECT_EQ(rejects[0].line, 1u);
}

TEST(IngestTest, BatchesCloseByBytesSoHugeRecordsDoNotPileUp) {
  TempDir dir;
  {
    std::ofstream out(dir / "wide.jsonl");
    for (int i = 0; i < 40; ++i) out << "{\"text\":\"" << std::string(200000, 'b') << i << ".\"}\n";
  }
  auto store = ReviewStore::Open(dir / "db.sqlite");
  IngestOptions options;
  options.batch_bytes = 1 << 20;
  size_t progress_calls = 0;
  options.progress = [&](const IngestProgress&) { ++progress_calls; };
  IngestCounts c = IngestFile(*store, dir / "wide.jsonl", options);
  EXPECT_EQ(c.ingested, 40u);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM reviews"), 40);
}

// The rating scale is the dump's (schema 6): a shard that keeps only 1- and 2-star products still
// records the dump's 1-5 range, so its points read a 2 as a complaint, as one store would — and a
// dump of 0/1 labels stays labels beside a star dump.
TEST(IngestTest, EachSourceRecordsItsDumpsRatingRangeAlsoForOtherShardsRecords) {
  TempDir dir;
  std::string low, high;
  for (int p = 0; p < 40; ++p) {
    const std::string key = "P" + std::to_string(p);
    (ProductShard(key, 2) == 1 ? low : high) = key;
  }
  ASSERT_FALSE(low.empty());
  ASSERT_FALSE(high.empty());
  std::ofstream(dir / "stars.jsonl")
      << "{\"asin\":\"" << low << "\",\"rating\":2,\"text\":\"Meh.\"}\n"
      << "{\"asin\":\"" << high << "\",\"rating\":5,\"text\":\"Great.\"}\n";
  std::ofstream(dir / "labels.jsonl")
      << "{\"asin\":\"" << low << "\",\"rating\":1,\"text\":\"Good.\"}\n";
  auto store = ReviewStore::Open(dir / "db.sqlite");
  IngestOptions options;
  options.shard = {1, 2};
  IngestFile(*store, dir / "stars.jsonl", options);
  IngestFile(*store, dir / "labels.jsonl", options);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM reviews"), 2);
  auto ranges = store->reviews().SourceRatings();
  const auto stars = ranges.find(dir / "stars.jsonl");
  ASSERT_NE(stars, ranges.end());
  EXPECT_EQ(stars->second.min, 2);
  EXPECT_EQ(stars->second.max, 5);  // the other shard's record
  EXPECT_FALSE(stars->second.labels_only);
  const auto labels = ranges.find(dir / "labels.jsonl");
  ASSERT_NE(labels, ranges.end());
  EXPECT_TRUE(labels->second.labels_only);
}

}  // namespace
}  // namespace revsum
