// The SQLite store, on real database files in a temporary directory.
#include "revsum/store.h"

#include "../../src/store/connection.h"  // the store's own connection, for its own tests

#include <sqlite3.h>

#include <filesystem>
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace revsum {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("revsum_store_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    path_ = (dir_ / "reviews.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Review MakeReview(std::string product, std::string id, std::string text) {
    Review r;
    r.source = "dump.jsonl";
    r.line = 1;
    r.product = std::move(product);
    r.external_id = std::move(id);
    r.text = std::move(text);
    r.rating = 4.0;
    return r;
  }
  static std::vector<Sentence> OneSentence(const std::string& text) {
    return {Sentence{0, 0, static_cast<int32_t>(text.size()), text}};
  }
  int64_t Count(const char* table) {
    sqlite3* db;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st;
    std::string sql = std::string("SELECT count(*) FROM ") + table;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_step(st), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(StoreTest, CreatesSchemaAtCurrentVersionFromEmptyFile) {
  auto store = ReviewStore::Open(path_);
  EXPECT_EQ(store->reviews().Stats().schema_version, kSchemaVersion);
  sqlite3* db = store->connection().db();
  sqlite3_stmt* st;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), kSchemaVersion);
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
}

TEST_F(StoreTest, ReopeningKeepsCommittedDataAndDropsTheOpenBatch) {
  {
    auto store = ReviewStore::Open(path_);
    int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
    EXPECT_TRUE(store->ingest().AddReview(src, MakeReview("B1", "r1", "Works well."),
                                          OneSentence("Works well.")));
    EXPECT_TRUE(
        store->ingest().AddReview(src, MakeReview("B1", "r2", "Kept."), OneSentence("Kept.")));
    store->ingest().FinishSource(src, 2, 2, 0, 0);  // commits
    EXPECT_TRUE(store->ingest().AddReview(src, MakeReview("B1", "r3", "Rolled back."),
                                          OneSentence("Rolled back.")));
  }
  auto store = ReviewStore::Open(path_);
  EXPECT_EQ(store->reviews().Stats().reviews, 2)
      << "what was committed stays; the open batch is dropped";
  EXPECT_EQ(store->reviews().Stats().sentences, 2);
}

TEST_F(StoreTest, RefusesDatabaseFromNewerRevsum) {
  {
    sqlite3* db;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  try {
    ReviewStore::Open(path_);
    FAIL() << "expected StoreError";
  } catch (const StoreError& e) {
    EXPECT_THAT(e.what(), HasSubstr("newer"));
    EXPECT_THAT(e.what(), HasSubstr(path_));
  }
}

TEST_F(StoreTest, AFullStoreSaysHowMuchRoomItsDiskHas) {
  // SQLite's page limit stands in for a full disk: the same SQLITE_FULL a full disk gives.
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  ASSERT_EQ(sqlite3_exec(store->connection().db(), "PRAGMA max_page_count = 40", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  try {
    for (int i = 0; i < 2000; ++i) {
      const std::string text = "Review number " + std::to_string(i) + std::string(400, 'x') + ".";
      store->ingest().AddReview(src, MakeReview("B1", "r" + std::to_string(i), text),
                                OneSentence(text));
    }
    store->Flush();
    FAIL() << "expected StoreError";
  } catch (const StoreError& e) {
    EXPECT_THAT(e.what(), HasSubstr("database or disk is full"));
    EXPECT_THAT(e.what(), HasSubstr("bytes free"));
  }
}

TEST_F(StoreTest, SameReviewTwiceIsStoredOnce) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  Review r = MakeReview("B1", "r1", "Battery lasts two days.");
  EXPECT_TRUE(store->ingest().AddReview(src, r, OneSentence(r.text)));
  EXPECT_FALSE(store->ingest().AddReview(src, r, OneSentence(r.text)));
  int64_t other = store->ingest().AddSource("b.jsonl", "jsonl", 10);
  EXPECT_FALSE(store->ingest().AddReview(other, r, OneSentence(r.text)));
  store->Flush();
  EXPECT_EQ(store->reviews().Stats().reviews, 1);
  EXPECT_EQ(store->reviews().Stats().sentences, 1);
}

TEST_F(StoreTest, RejectsAreKeptWithRawBytesOncePerLineAndReason) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("bad.jsonl", "jsonl", 10);
  const char kRaw[] = "{\"text\": \"\xff\xfe\"}";
  std::string raw(kRaw, sizeof kRaw - 1);
  store->ingest().AddReject(src, Reject{"bad.jsonl", 7, "invalid UTF-8 at byte 10", raw});
  store->ingest().AddReject(src, Reject{"bad.jsonl", 7, "invalid UTF-8 at byte 10", raw});
  store->Flush();
  EXPECT_EQ(Count("rejects"), 1);
  auto reasons = store->reviews().RejectReasons(10);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_EQ(reasons[0].first, "invalid UTF-8 at byte 10");
}

TEST_F(StoreTest, SearchFindsEnglishWords) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->ingest().AddReview(src, MakeReview("B1", "r1", "The battery died after a week."),
                            OneSentence("The battery died after a week."));
  store->ingest().AddReview(src, MakeReview("B1", "r2", "Lovely colour."),
                            OneSentence("Lovely colour."));
  auto hits = store->search().Find("battery", 10);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].text, "The battery died after a week.");
  EXPECT_EQ(hits[0].product, "B1");
  EXPECT_EQ(store->search().Find("batt*", 10).size(), 1u);
}

TEST_F(StoreTest, SearchFindsChineseSubstrings) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("zh.csv", "csv", 10);
  store->ingest().AddReview(src, MakeReview("手机", "1", "电池续航很好，屏幕也清楚。"),
                            OneSentence("电池续航很好，屏幕也清楚。"));
  store->ingest().AddReview(src, MakeReview("手机", "2", "物流太慢了"), OneSentence("物流太慢了"));
  EXPECT_EQ(store->search().Find("电池", 10).size(), 1u);
  EXPECT_EQ(store->search().Find("续航", 10).size(), 1u);
  EXPECT_EQ(store->search().Find("屏幕 OR 物流", 10).size(), 2u);
  EXPECT_EQ(store->search().Find("电脑", 10).size(), 0u);
  EXPECT_EQ(store->search().Find("电池,屏幕", 10).size(), 1u) << "ASCII comma between CJK words";
}

TEST_F(StoreTest, SearchSyntaxErrorIsAClearError) {
  auto store = ReviewStore::Open(path_);
  try {
    store->search().Find("\"unbalanced", 10);
    FAIL() << "expected StoreError";
  } catch (const StoreError& e) {
    EXPECT_THAT(e.what(), HasSubstr("search"));
    EXPECT_THAT(e.what(), HasSubstr("FTS5 syntax"));
  }
}

TEST_F(StoreTest, ShowsProductReviewsWithSentencesInOrder) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  std::vector<Sentence> two = {{0, 0, 6, "Great."}, {1, 7, 17, "Fits well."}};
  store->ingest().AddReview(src, MakeReview("B2", "r9", "Great. Fits well."), two);
  auto reviews = store->reviews().GetProductReviews("B2");
  ASSERT_EQ(reviews.size(), 1u);
  ASSERT_EQ(reviews[0].sentences.size(), 2u);
  EXPECT_EQ(reviews[0].sentences[1].text, "Fits well.");
  EXPECT_EQ(reviews[0].sentences[1].begin, 7);
  EXPECT_TRUE(store->reviews().HasProduct("B2"));
  EXPECT_FALSE(store->reviews().HasProduct("B3"));
}

TEST_F(StoreTest, RerunWithSameKeyReplacesResults) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->ingest().AddReview(src, MakeReview("B1", "r1", "Good."), OneSentence("Good."));
  auto review = store->reviews().GetProductReviews("B1").at(0);
  RunInfo run;
  run.key = "budget=5s";
  run.params_json = "{}";
  run.embedder = "lexical";
  for (int round = 0; round < 2; ++round) {
    int64_t id = store->runs().BeginRun(run, {"overall", "consensus"});
    store->runs().AddScores(
        id, "product",
        {ScoreRow{review.sentences[0].id, 1.0, {0.5f, 0.5f}, std::nullopt, std::nullopt}});
    StoredSummary s;
    s.run_id = id;
    s.scope = "product";
    s.subject = "B1";
    s.text = "Good.";
    s.sentence_ids = {review.sentences[0].id};
    s.units_in = 1;
    s.units_out = 1;
    s.unit = "words";
    store->runs().AddSummary(s);
    store->runs().FinishRun(id);
  }
  store->Flush();
  EXPECT_EQ(Count("runs"), 1);
  EXPECT_EQ(Count("scores"), 1);
  EXPECT_EQ(Count("summaries"), 1);
  auto latest = store->runs().LatestRun();
  ASSERT_TRUE(latest);
  EXPECT_THAT(store->runs().RunHeadNames(latest->id), ElementsAre("overall", "consensus"));
  auto summaries = store->runs().GetSummaries(latest->id, "product", "B1");
  ASSERT_EQ(summaries.size(), 1u);
  EXPECT_THAT(summaries[0].sentence_ids, ElementsAre(review.sentences[0].id));
  auto scores = store->runs().GetScores(latest->id, "product", {review.sentences[0].id});
  ASSERT_EQ(scores.size(), 1u);
  EXPECT_THAT(scores[0].second.head_weights, ElementsAre(0.5f, 0.5f));
}

TEST_F(StoreTest, AnIncrementalRunKeepsTheFinishedRunReadableUntilItFinishes) {
  // An incremental run (keep_results) that is killed before FinishRun leaves the run it updates
  // finished, with its snapshot: exports keep working and the next run is incremental again.
  // Before, BeginRun cleared finished_at and every export said "no product summaries yet".
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->ingest().AddReview(src, MakeReview("B1", "r1", "Good."), OneSentence("Good."));
  RunInfo run;
  run.key = "incremental";
  run.params_json = "{}";
  run.embedder = "lexical";
  run.snapshot_review_id = 1;
  const int64_t id = store->runs().BeginRun(run, {"overall"});
  StoredSummary s;
  s.run_id = id;
  s.scope = "product";
  s.subject = "B1";
  s.text = "Good.";
  s.sentence_ids = {store->reviews().GetProductReviews("B1").at(0).sentences[0].id};
  s.unit = "words";
  s.reviews_covered = 1;
  store->runs().AddSummary(s);
  store->runs().FinishRun(id);
  store->ingest().AddReview(src, MakeReview("B1", "r2", "Bad."), OneSentence("Bad."));
  run.snapshot_review_id = 2;
  EXPECT_EQ(store->runs().BeginRun(run, {"overall"}, /*keep_results=*/true), id);
  // ... killed here.
  std::optional<RunInfo> latest = store->runs().LatestRun();
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, id);
  EXPECT_EQ(latest->snapshot_review_id, 1);
  EXPECT_EQ(store->runs().LatestSummaries("product").size(), 1u);
  EXPECT_EQ(store->runs().ProductCoverage(id).at("B1"), std::optional<int64_t>(1));
  // Finished, it records the new snapshot.
  store->runs().FinishRun(id, 2);
  EXPECT_EQ(store->runs().LatestRun()->snapshot_review_id, 2);
  // A full (not incremental) re-run is unfinished until it finishes, as before.
  store->runs().BeginRun(run, {"overall"});
  EXPECT_FALSE(store->runs().LatestRun());
}

TEST(FtsTextTest, CjkRunsAreIndexedAsCharacterPairsAndTheirLastCharacter) {
  EXPECT_EQ(FtsIndexText("好用abc"), " 好  用 abc");
  EXPECT_EQ(FtsCjkGrams("好用abc"), "好用 用");
  EXPECT_EQ(FtsCjkGrams("手机电池很好，续航 ok 好"), "手机 机电 电池 池很 很好 好 续航 航 好");
  EXPECT_EQ(FtsCjkGrams("no cjk here"), "");
  EXPECT_EQ(FtsCjkGrams("カメラ"), "カメ メラ ラ");
  EXPECT_EQ(FtsQuery("电池 OR battery"), "\"电池\" OR battery");
}

}  // namespace
}  // namespace revsum
