// SummarizeStore over a real store: products in parallel with identical results, incremental
// re-runs that re-score only what changed, and the snapshot a run reads.
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/ingest.h"
#include "revsum/points.h"
#include "revsum/run.h"
#include "revsum/use_lite.h"
#include "support/paths.h"
#include "support/query_db.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using testing::TempDir;

using testing::kSamples;

// Every summary and score of the store as one string, by natural keys (product keys, review and
// sentence ids are the same in stores built from the same dumps in the same order).
std::string Fingerprint(ReviewStore& store) {
  store.Flush();
  const revsum::testing::DbConnection db(store.path());
  std::string out;
  sqlite3_stmt* st = nullptr;
  const char* sql =
      "SELECT s.scope || '|' || s.subject || '|' || s.text || '|' || s.sentence_ids || '|' || "
      "s.units_in || '|' || s.units_out FROM summaries s ORDER BY s.scope, s.subject";
  EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql, -1, &st, nullptr), SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW)
    (out += reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) += '\n';
  sqlite3_finalize(st);
  sql =
      "SELECT scope || '|' || sentence_id || '|' || printf('%.9g', weight) || '|' || "
      "head_weights FROM scores ORDER BY scope, sentence_id";
  EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql, -1, &st, nullptr), SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW)
    (out += reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) += '\n';
  sqlite3_finalize(st);
  return out;
}

std::unique_ptr<ReviewStore> SampleStore(const std::string& path) {
  auto store = ReviewStore::Open(path);
  IngestOptions ingest;
  ingest.read.fields.product = "";
  for (const char* f : {"/en_reviews.jsonl", "/mixed_reviews.jsonl", "/zh_reviews.csv"}) {
    IngestFile(*store, kSamples + f, ingest);
  }
  return store;
}

RunOptions Lexical(int threads) {
  RunOptions options;
  options.embedder = EmbedderChoice::kLexical;
  options.review_scope = true;
  options.threads = threads;
  return options;
}

TEST(SummarizeStoreTest, ResultsAreIdenticalWhateverTheThreadCount) {
  TempDir dir;
  auto one = SampleStore(dir / "one.db");
  auto three = SampleStore(dir / "three.db");
  RunReport a = SummarizeStore(*one, Lexical(1));
  RunReport b = SummarizeStore(*three, Lexical(3));
  EXPECT_GT(a.product_summaries, 5u);
  EXPECT_EQ(a.product_summaries, b.product_summaries);
  EXPECT_EQ(a.review_summaries, b.review_summaries);
  EXPECT_EQ(Fingerprint(*one), Fingerprint(*three));
}

// A product above the memory budget runs alone and the waiting workers run batches of its USE-lite
// encoder: the same results as one thread (a budget of one byte makes every product run alone).
// Two products of 300 sentences, so that each encoder call has batches to share.
TEST(SummarizeStoreTest, AProductRunningAloneIsHelpedByTheWaitingWorkerThreadsWithTheSameResults) {
  TempDir dir;
  {
    std::ofstream dump(dir / "two.jsonl");
    for (int r = 0; r < 120; ++r) {
      const std::string n = std::to_string(r);
      dump << "{\"product_id\":\"P" << r % 2 << "\",\"text\":\"Kettle " << n << " boils in "
           << r % 7 + 2 << " minutes. The lid of unit " << n
           << " cracked after a month. Support answered ticket " << n
           << " within a day. The cord is " << r % 5 + 1
           << " feet long. I would buy it again for review " << n << ".\"}\n";
    }
  }
  std::unique_ptr<ReviewStore> stores[2];
  for (int k = 0; k < 2; ++k) {
    stores[k] = ReviewStore::Open(dir / ("s" + std::to_string(k) + ".db"));
    IngestOptions ingest;
    ingest.read.fields.product = "product_id";
    IngestFile(*stores[k], dir / "two.jsonl", ingest);
  }
  RunOptions one;
  one.embedder = EmbedderChoice::kAuto;
  one.threads = 1;
  RunOptions alone = one;
  alone.threads = 2;
  alone.memory_budget = 1;
  alone.models.use_lite = std::make_shared<SharedUseLite>(Int8UseLite());
  const RunReport a = SummarizeStore(*stores[0], one);
  const RunReport b = SummarizeStore(*stores[1], alone);
  EXPECT_EQ(a.product_summaries, 2u);
  EXPECT_EQ(a.product_summaries, b.product_summaries);
  EXPECT_EQ(Fingerprint(*stores[0]), Fingerprint(*stores[1]));
  // Helpers are capped at one fewer than the cores (UseLiteEmbedder::HelpOnce): none on one core.
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_GT(dynamic_cast<const UseLiteEmbedder&>(alone.models.use_lite->Get()).batches_helped(),
              0u);
  }
}

// --threads is the run's cores: a single worker's encoder takes them (1 is one core), several
// workers' take one each, also when products run alone (the waiting workers help instead).
TEST(SummarizeStoreTest, TheThreadCountBoundsTheEncoderToo) {
  TempDir dir;
  auto store = ReviewStore::Open(dir / "threads.db");
  IngestOptions ingest;
  ingest.read.fields.product = "";
  IngestFile(*store, kSamples + "/en_reviews.jsonl", ingest);
  struct Case {
    int threads;
    size_t budget;
  };
  for (const Case c :
       {Case{1, kSummarizeMemoryBudget}, Case{2, kSummarizeMemoryBudget}, Case{2, 1}}) {
    RunOptions o;
    o.embedder = EmbedderChoice::kAuto;
    o.threads = c.threads;
    o.memory_budget = c.budget;
    o.incremental = false;
    o.models.use_lite = std::make_shared<SharedUseLite>(Int8UseLite());
    EXPECT_GT(SummarizeStore(*store, o).product_summaries, 2u);
    const auto& model = dynamic_cast<const UseLiteEmbedder&>(o.models.use_lite->Get());
    EXPECT_EQ(model.threads(), 1) << "--threads " << c.threads << ", budget " << c.budget;
  }
  // One product: its worker's encoder takes every thread the run may use.
  RunOptions one;
  one.embedder = EmbedderChoice::kAuto;
  one.threads = 3;
  one.incremental = false;
  one.products = {testing::QueryOne<std::string>(
      dir / "threads.db", "SELECT key FROM products ORDER BY key LIMIT 1", std::string())};
  one.models.use_lite = std::make_shared<SharedUseLite>(Int8UseLite());
  EXPECT_EQ(SummarizeStore(*store, one).product_summaries, 1u);
  EXPECT_EQ(dynamic_cast<const UseLiteEmbedder&>(one.models.use_lite->Get()).threads(), 3);
}

TEST(SummarizeStoreTest, AnIncrementalRunReScoresOnlyTheProductsThatChanged) {
  TempDir dir;
  auto incremental = SampleStore(dir / "inc.db");
  RunReport first = SummarizeStore(*incremental, Lexical(2));
  EXPECT_EQ(first.products_reused, 0u);
  std::ofstream(dir / "new.jsonl")
      << "{\"text\":\"The kettle boils fast. The lid broke.\",\"parent_asin\":\"B0KTL55200\"}\n"
      << "{\"text\":\"A brand new product. Works.\",\"parent_asin\":\"NEWPRODUCT\"}\n";
  IngestFile(*incremental, dir / "new.jsonl", IngestOptions{});
  RunReport second = SummarizeStore(*incremental, Lexical(2));
  EXPECT_EQ(second.run_id, first.run_id);
  EXPECT_EQ(second.products_rescored, 2u);
  EXPECT_EQ(second.products_reused, first.product_summaries - 1);
  EXPECT_EQ(second.review_summaries, 2u) << "only the new reviews get review summaries";

  // The same store summarised from scratch has exactly the same results.
  auto scratch = SampleStore(dir / "scratch.db");
  IngestFile(*scratch, dir / "new.jsonl", IngestOptions{});
  SummarizeStore(*scratch, Lexical(1));
  EXPECT_EQ(Fingerprint(*incremental), Fingerprint(*scratch));

  // Nothing new: everything is reused, and the run is finished again.
  RunReport third = SummarizeStore(*incremental, Lexical(2));
  EXPECT_EQ(third.products_rescored, 0u);
  EXPECT_EQ(third.products_reused, second.products_rescored + second.products_reused);
  EXPECT_EQ(Fingerprint(*incremental), Fingerprint(*scratch));
  EXPECT_EQ(incremental->reviews().Stats().unfinished_runs, 0);
}

TEST(SummarizeStoreTest, IncrementalOffRecomputesEverything) {
  TempDir dir;
  auto store = SampleStore(dir / "db");
  RunReport first = SummarizeStore(*store, Lexical(2));
  RunOptions full = Lexical(2);
  full.incremental = false;
  RunReport again = SummarizeStore(*store, full);
  EXPECT_EQ(again.products_rescored, first.products_rescored);
  EXPECT_EQ(again.products_reused, 0u);
}

TEST(SummarizeStoreTest, ARunRecordsTheSnapshotItRead) {
  TempDir dir;
  auto store = SampleStore(dir / "db");
  const int64_t last = store->reviews().MaxReviewId();
  RunReport report = SummarizeStore(*store, Lexical(1));
  EXPECT_EQ(store->runs().GetRun(report.run_id)->snapshot_review_id, last);
}

TEST(SummarizeStoreTest, ReviewsIngestedWhileARunIsGoingAreNotPartOfIt) {
  // Before: the product list was frozen but reviews were read live, so a product summarised after
  // a concurrent ingest scored sentences that did not exist when the run started.
  TempDir dir;
  auto store = SampleStore(dir / "db");
  const int64_t before = store->reviews().MaxReviewId();
  std::ofstream late(dir / "late.jsonl");
  for (int i = 0; i < 50; ++i) {
    late << "{\"text\":\"Late review " << i
         << ". Arrived during the run.\",\"parent_asin\":\"水果\"}\n";
  }
  late.close();
  RunOptions options = Lexical(1);
  options.review_scope = false;
  bool ingested = false;
  options.progress = [&](size_t, size_t) {
    if (ingested) return;
    auto writer = ReviewStore::Open(dir / "db");  // a second connection, as another process
    IngestFile(*writer, dir / "late.jsonl", IngestOptions{});
    ingested = true;
  };
  RunReport report = SummarizeStore(*store, options);
  ASSERT_TRUE(ingested);
  EXPECT_EQ(store->runs().GetRun(report.run_id)->snapshot_review_id, before);
  const revsum::testing::DbConnection db(store->path());
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(),
                               "SELECT count(*) FROM scores sc JOIN sentences s ON s.id = "
                               "sc.sentence_id WHERE s.review_id > ?1",
                               -1, &st, nullptr),
            SQLITE_OK);
  sqlite3_bind_int64(st, 1, before);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(st, 0), 0) << "sentences of the late reviews were scored";
  sqlite3_finalize(st);
}

// One product, "K1", with two low-rated reviews from 2020 and two high-rated ones from 2021, and
// one review with neither rating nor time.
std::unique_ptr<ReviewStore> RatedStore(const std::filesystem::path& dir) {
  std::ofstream(dir / "rated.jsonl")
      << "{\"text\":\"The kettle leaks from the lid. Water everywhere on the counter.\","
         "\"rating\":1,\"timestamp\":1580000000000,\"parent_asin\":\"K1\"}\n"
      << "{\"text\":\"The handle got hot and burned my hand.\",\"rating\":2,"
         "\"timestamp\":1590000000000,\"parent_asin\":\"K1\"}\n"
      << "{\"text\":\"Boils water in two minutes. Very quiet kettle.\",\"rating\":5,"
         "\"timestamp\":1612000000000,\"parent_asin\":\"K1\"}\n"
      << "{\"text\":\"Looks great on the counter and pours cleanly.\",\"rating\":4,"
         "\"timestamp\":1625000000000,\"parent_asin\":\"K1\"}\n"
      << "{\"text\":\"No rating and no date on this one.\",\"parent_asin\":\"K1\"}\n";
  auto store = ReviewStore::Open(dir / "rated.db");
  IngestFile(*store, dir / "rated.jsonl", IngestOptions{});
  return store;
}

// The ratings of the reviews whose sentences the run scored, sorted ("-" = no rating).
std::string ScoredRatings(ReviewStore& store, int64_t run_id) {
  store.Flush();
  const revsum::testing::DbConnection db(store.path());
  std::string out;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.get(),
                               "SELECT DISTINCT coalesce(r.rating, '-') FROM scores sc JOIN "
                               "sentences s ON s.id = sc.sentence_id JOIN reviews r ON r.id = "
                               "s.review_id WHERE sc.run_id = ?1 ORDER BY 1",
                               -1, &st, nullptr),
            SQLITE_OK);
  sqlite3_bind_int64(st, 1, run_id);
  while (sqlite3_step(st) == SQLITE_ROW) {
    out += reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    out += ' ';
  }
  sqlite3_finalize(st);
  return out;
}

TEST(SummarizeStoreTest, ARatingFilterReadsOnlyTheReviewsInRange) {
  TempDir dir;
  auto store = RatedStore(dir.path());
  RunOptions all = Lexical(1);
  all.review_scope = false;
  const RunReport unfiltered = SummarizeStore(*store, all);
  EXPECT_EQ(ScoredRatings(*store, unfiltered.run_id), "1.0 2.0 4.0 5.0 - ");
  RunOptions high = all;
  high.filter.min_rating = 4;
  const RunReport filtered = SummarizeStore(*store, high);
  EXPECT_NE(filtered.run_id, unfiltered.run_id) << "the filter is part of the run key";
  EXPECT_EQ(ScoredRatings(*store, filtered.run_id), "4.0 5.0 ");
  RunOptions low = all;
  low.filter.max_rating = 2;
  EXPECT_EQ(ScoredRatings(*store, SummarizeStore(*store, low).run_id), "1.0 2.0 ");
  EXPECT_NE(RunKey(high), RunKey(all));
  EXPECT_EQ(RunKey(all).find("rating"), std::string::npos) << "unfiltered keys are unchanged";
}

// An incremental run keeps a product's stored points only if the same points algorithm made
// them: the key names its version (kPointsVersion).
TEST(SummarizeStoreTest, TheRunKeyNamesThePointsAlgorithmVersion) {
  EXPECT_NE(RunKey(RunOptions{}).find(";points=" + std::to_string(kPointsVersion) + ";"),
            std::string::npos)
      << RunKey(RunOptions{});
}

TEST(SummarizeStoreTest, ADateFilterReadsOnlyTheReviewsInTheWindow) {
  TempDir dir;
  auto store = RatedStore(dir.path());
  RunOptions in2021 = Lexical(1);
  in2021.review_scope = false;
  in2021.filter.since = ParseFilterTime("2021-01-01", false);
  in2021.filter.until = ParseFilterTime("2021-12-31", true);
  EXPECT_EQ(ScoredRatings(*store, SummarizeStore(*store, in2021).run_id), "4.0 5.0 ");
  RunOptions before = Lexical(1);
  before.review_scope = false;
  before.filter.until = 1590000000;  // inclusive: the 2-star review's second
  EXPECT_EQ(ScoredRatings(*store, SummarizeStore(*store, before).run_id), "1.0 2.0 ");
}

TEST(SummarizeStoreTest, AFilterNoReviewPassesIsAClearError) {
  TempDir dir;
  auto store = RatedStore(dir.path());
  RunOptions none = Lexical(1);
  none.filter.min_rating = 4.5;
  none.filter.max_rating = 4.9;
  try {
    SummarizeStore(*store, none);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("passes the rating and date filter"));
  }
}

TEST(SummarizeStoreTest, FilterTimesAreDatesOrUnixSeconds) {
  EXPECT_EQ(ParseFilterTime("2020-01-31", false), 1580428800);
  EXPECT_EQ(ParseFilterTime("2020-01-31", true), 1580428800 + 86399);
  EXPECT_EQ(ParseFilterTime("2020-02-29", false), 1582934400);
  EXPECT_EQ(ParseFilterTime("1600000000", true), 1600000000);
  for (const char* bad : {"2020-13-01", "2021-02-29", "2020-1-31", "yesterday", "", "12a", "1e9"}) {
    EXPECT_THROW(ParseFilterTime(bad, false), std::invalid_argument) << bad;
  }
  EXPECT_EQ(ParseFilterRating("4.5"), 4.5);
  for (const char* bad : {"", "four", "4 stars", "nan", "inf", " 4"}) {
    EXPECT_THROW(ParseFilterRating(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace revsum
