// Nothing lost, nothing merged, nothing touched that is refused: the store's identities, its
// checks before writing, concurrent opens, unfinished work and what plain SQL can read.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../../src/store/statement.h"
#include "revsum/store.h"

namespace revsum {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class IntegrityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("revsum_integrity_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    path_ = (dir_ / "reviews.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Review MakeReview(std::string product, std::string id, std::string text,
                           std::optional<double> rating = 4.0) {
    Review r;
    r.source = "dump.jsonl";
    r.line = 1;
    r.product = std::move(product);
    r.external_id = std::move(id);
    r.text = std::move(text);
    r.rating = rating;
    return r;
  }
  static std::vector<Sentence> OneSentence(const std::string& text) {
    return {Sentence{0, 0, static_cast<int32_t>(text.size()), text}};
  }
  // A plain connection to path_ with the schema created up to `version` (an older store to
  // migrate); nullptr (and a failed expectation) when it cannot be made.
  sqlite3* OpenAtSchema(int version) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    store_internal::RegisterStoreFunctions(db);
    EXPECT_EQ(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr), SQLITE_OK);
    store_internal::Migrate(db, version);
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "schema " << version << ": " << sqlite3_errmsg(db);
      sqlite3_close(db);
      return nullptr;
    }
    return db;
  }
  // The first column of the first row of `sql` on a fresh plain connection, as text.
  std::string Query(const std::string& sql) {
    sqlite3* db;
    EXPECT_EQ(sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    std::string out;
    if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }
  static std::string FileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Writes an SQLite file with plain SQL (no revsum).
  void MakeForeignDatabase(const std::string& sql) {
    sqlite3* db;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  void ExpectRefusedUntouched(const std::string& what) {
    const std::string before = FileBytes(path_);
    try {
      ReviewStore::Open(path_);
      FAIL() << "expected StoreError for " << what;
    } catch (const StoreError& e) {
      EXPECT_THAT(e.what(), HasSubstr(path_));
    }
    EXPECT_EQ(FileBytes(path_), before) << what << " was modified";
    EXPECT_FALSE(fs::exists(path_ + "-wal") && fs::file_size(path_ + "-wal") > 0) << what;
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(IntegrityTest, RecordsThatDifferOnlyInRatingTitleOrTimeAreDistinctReviews) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.csv", "csv", 10);
  Review five = MakeReview("耳机", "", "Great product.", 5.0);
  Review one = MakeReview("耳机", "", "Great product.", 1.0);
  Review titled = five;
  titled.title = "Wow";
  Review timed = five;
  timed.time = 1530000000;
  for (const Review* r : {&five, &one, &titled, &timed}) {
    EXPECT_TRUE(store->ingest().AddReview(src, *r, OneSentence(r->text)));
  }
  for (const Review* r : {&five, &one, &titled, &timed}) {
    EXPECT_FALSE(store->ingest().AddReview(src, *r, OneSentence(r->text)))
        << "re-ingest adds nothing";
  }
  store->Flush();
  EXPECT_EQ(store->reviews().Stats().reviews, 4);
}

TEST_F(IntegrityTest, ANewBadRecordAtAReusedPathAndLineIsKept) {
  auto store = ReviewStore::Open(path_);
  for (const char* day : {"monday", "tuesday"}) {
    int64_t src = store->ingest().AddSource("r.jsonl", "jsonl", 10);
    store->ingest().AddReject(src, Reject{"r.jsonl", 2, "malformed JSON: unclosed string",
                                          std::string("{\"text\":\"") + day + " bad\" "});
    store->ingest().FinishSource(src, 1, 0, 0, 1);
  }
  EXPECT_EQ(Query("SELECT count(*) FROM rejects"), "2");
  EXPECT_EQ(Query("SELECT group_concat(raw, '|') FROM (SELECT raw FROM rejects ORDER BY id)"),
            "{\"text\":\"monday bad\" |{\"text\":\"tuesday bad\" ");
}

TEST_F(IntegrityTest, TheSameBadRecordUnderAnotherPathIsStoredOnce) {
  auto store = ReviewStore::Open(path_);
  for (const char* path : {"dump.jsonl", "/abs/dump.jsonl", "-", "copy.jsonl.gz"}) {
    int64_t src = store->ingest().AddSource(path, "jsonl", 10);
    store->ingest().AddReject(src, Reject{path, 3, "malformed JSON: x", "{bad"});
    store->ingest().FinishSource(src, 1, 0, 0, 1);
  }
  EXPECT_EQ(Query("SELECT count(*) FROM rejects"), "1");
}

TEST_F(IntegrityTest, RefusesANewerSchemaWithoutTouchingIt) {
  MakeForeignDatabase("CREATE TABLE t(x); PRAGMA user_version = 999;");
  ExpectRefusedUntouched("a newer schema");
  EXPECT_EQ(Query("PRAGMA journal_mode"), "delete");
}

TEST_F(IntegrityTest, RefusesAForeignDatabaseWithAReviewsTableWithoutTouchingIt) {
  MakeForeignDatabase("CREATE TABLE reviews(id INTEGER PRIMARY KEY, body TEXT);");
  ExpectRefusedUntouched("a foreign database with a reviews table");
}

TEST_F(IntegrityTest, RefusesAForeignDatabaseWithOtherTablesWithoutTouchingIt) {
  MakeForeignDatabase("CREATE TABLE customers(name TEXT); INSERT INTO customers VALUES ('x');");
  ExpectRefusedUntouched("a foreign database");
  EXPECT_EQ(Query("SELECT count(*) FROM sqlite_master WHERE name = 'sources'"), "0");
}

TEST_F(IntegrityTest, RefusesAForeignDatabaseAtAnOlderRevsumVersionWithoutTouchingIt) {
  // Other programs use PRAGMA user_version too: one at 1-8 was "migrated" (or switched to WAL).
  for (int version = 1; version < kSchemaVersion; ++version) {
    fs::remove(path_);
    MakeForeignDatabase("CREATE TABLE customers(name TEXT); PRAGMA user_version = " +
                        std::to_string(version) + ";");
    ExpectRefusedUntouched("a foreign database at user_version " + std::to_string(version));
    EXPECT_EQ(Query("PRAGMA journal_mode"), "delete");
  }
}

TEST_F(IntegrityTest, RefusesAPathThatIsNotARegularFile) {
  // A FIFO hung the open; a device got a "-journal" file beside it.
  const std::string fifo = (dir_ / "store.fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (bool read_only : {false, true}) {
    StoreOptions options;
    options.read_only = read_only;
    try {
      ReviewStore::Open(fifo, options);
      ADD_FAILURE() << "opened a FIFO";
    } catch (const StoreError& e) {
      EXPECT_THAT(e.what(), HasSubstr("store.fifo: not a regular file"));
    }
  }
  EXPECT_FALSE(fs::exists(fifo + "-journal"));
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(IntegrityTest, RefusesAFileThatIsNotSqliteWithoutTouchingIt) {
  std::ofstream(path_) << "this is my thesis, not a database\n";
  ExpectRefusedUntouched("a text file");
}

TEST_F(IntegrityTest, RefusesPathsThatWouldKeepNothing) {
  for (const char* path : {"", ":memory:"}) {
    EXPECT_THROW(ReviewStore::Open(path), StoreError) << "'" << path << "'";
  }
}

TEST_F(IntegrityTest, ConcurrentFirstOpensOfANewFileAllSucceed) {
  // Before: "migrating to schema 1: table sources already exists" for all but one opener.
  for (int round = 0; round < 5; ++round) {
    const std::string path = (dir_ / ("race" + std::to_string(round) + ".db")).string();
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    std::string error;
    std::mutex mu;
    for (int t = 0; t < 6; ++t) {
      threads.emplace_back([&, t] {
        try {
          auto store = ReviewStore::Open(path);
          int64_t src = store->ingest().AddSource("d" + std::to_string(t) + ".jsonl", "jsonl", 1);
          store->ingest().AddReview(src, MakeReview("p", std::to_string(t), "Fine."),
                                    OneSentence("Fine."));
          store->ingest().FinishSource(src, 1, 1, 0, 0);
        } catch (const std::exception& e) {
          ++failures;
          std::lock_guard lock(mu);
          error = e.what();
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0) << error;
    auto store = ReviewStore::Open(path);
    EXPECT_EQ(store->reviews().Stats().reviews, 6);
  }
}

TEST_F(IntegrityTest, UnfinishedIngestsAndRunsAreMarkedAndNotCounted) {
  {
    auto store = ReviewStore::Open(path_);
    int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
    store->ingest().AddReview(src, MakeReview("B1", "r1", "Good."), OneSentence("Good."));
    store->Flush();  // committed, but the ingest never finishes (killed)
    RunInfo run;
    run.key = "k";
    run.params_json = "{}";
    run.embedder = "lexical";
    int64_t id = store->runs().BeginRun(run, {"centroid"});
    StoredSummary s;
    s.run_id = id;
    s.scope = "product";
    s.subject = "B1";
    s.text = "Good.";
    s.unit = "words";
    store->runs().AddSummary(s);
    store->Flush();  // a half run: never finished
  }
  auto store = ReviewStore::Open(path_);
  StoreStats st = store->reviews().Stats();
  EXPECT_EQ(st.unfinished_ingests, 1);
  EXPECT_EQ(st.unfinished_runs, 1);
  EXPECT_EQ(st.summaries, 0) << "a half run's summaries are not counted";
  EXPECT_EQ(st.runs, 0);
  EXPECT_EQ(Query("SELECT count(*) FROM unfinished_work"), "2");
  EXPECT_EQ(Query("SELECT count(*) FROM latest_summaries"), "0");
}

TEST_F(IntegrityTest, LatestSummariesGivesEveryProductItsLatestSummary) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->ingest().AddReview(src, MakeReview("手机", "1", "好。"), OneSentence("好。"));
  store->ingest().AddReview(src, MakeReview("书籍", "2", "差。"), OneSentence("差。"));
  auto add_run = [&](const std::string& key, std::vector<std::string> products) {
    RunInfo run;
    run.key = key;
    run.params_json = "{}";
    run.embedder = "lexical";
    int64_t id = store->runs().BeginRun(run, {"centroid"});
    for (const std::string& p : products) {
      StoredSummary s;
      s.run_id = id;
      s.scope = "product";
      s.subject = p;
      s.text = key + ":" + p;
      s.unit = "words";
      store->runs().AddSummary(s);
    }
    store->runs().FinishRun(id);
  };
  add_run("full", {"手机", "书籍"});
  add_run("partial", {"手机"});
  EXPECT_EQ(Query("SELECT group_concat(text, '|') FROM (SELECT text FROM latest_summaries "
                  "ORDER BY subject)"),
            "full:书籍|partial:手机");
}

TEST_F(IntegrityTest, ReadsAConsistentSnapshotByReviewId) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->ingest().AddReview(src, MakeReview("A", "1", "One."), OneSentence("One."));
  const int64_t snapshot = store->reviews().MaxReviewId();
  store->ingest().AddReview(src, MakeReview("A", "2", "Two."), OneSentence("Two."));
  store->ingest().AddReview(src, MakeReview("B", "3", "Three."), OneSentence("Three."));
  EXPECT_EQ(store->reviews().GetProductReviews("A", snapshot).size(), 1u);
  EXPECT_EQ(store->reviews().Products(snapshot), std::vector<std::string>{"A"});
  EXPECT_EQ(store->reviews().Products().size(), 2u);
}

TEST_F(IntegrityTest, PlainSqlReadsTheSearchIndexAndPerHeadWeights) {
  auto store = ReviewStore::Open(path_);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->ingest().AddReview(src, MakeReview("手机", "1", "电池续航很好"),
                            OneSentence("电池续航很好"));
  store->ingest().AddReview(src, MakeReview("B1", "2", "Battery lasts."),
                            OneSentence("Battery lasts."));
  auto review = store->reviews().GetProductReviews("B1").at(0);
  RunInfo run;
  run.key = "k";
  run.params_json = "{}";
  run.embedder = "lexical";
  int64_t id = store->runs().BeginRun(run, {"consensus", "centroid"});
  store->runs().AddScores(
      id, "product",
      {ScoreRow{review.sentences[0].id, 1.0, {0.25f, 0.75f}, std::nullopt, std::nullopt}});
  store->runs().FinishRun(id);
  // External content on sentences, declared as sqlite-utils and Datasette look for it; rowid =
  // sentences.id; CJK words as written (their character pairs, in sentences.search).
  EXPECT_THAT(Query("SELECT sql FROM sqlite_master WHERE name = 'sentences_fts'"),
              HasSubstr("content=\"sentences\""));
  EXPECT_EQ(Query("SELECT search FROM sentences WHERE text = '电池续航很好'"),
            "电池 池续 续航 航很 很好 好");
  for (const char* match : {"续航", "\"电池 池续 续航\"", "好*"}) {
    EXPECT_EQ(Query(std::string("SELECT text FROM sentences_fts WHERE sentences_fts MATCH '") +
                    match + "'"),
              "电池续航很好")
        << match;
  }
  EXPECT_EQ(Query("SELECT count(*) FROM sentences_fts WHERE sentences_fts MATCH '航续'"), "0");
  // FTS5's own rebuild re-reads the same index.
  Query("INSERT INTO sentences_fts(sentences_fts) VALUES ('rebuild')");
  EXPECT_EQ(Query("SELECT text FROM sentences_fts WHERE sentences_fts MATCH '续航'"),
            "电池续航很好");
  EXPECT_EQ(Query("SELECT s.text FROM sentences_fts f JOIN sentences s ON s.id = f.rowid "
                  "WHERE sentences_fts MATCH 'battery'"),
            "Battery lasts.");
  EXPECT_EQ(Query("SELECT group_concat(head || '=' || weight, ' ') FROM sentence_head_weights"),
            "consensus=0.25 centroid=0.75");
}

TEST_F(IntegrityTest, TheWalStaysBoundedWhileAReaderHoldsASnapshotForAWhile) {
  StoreOptions options;
  options.wal_bound_bytes = 1 << 20;
  options.batch_size = 50;
  auto store = ReviewStore::Open(path_, options);
  int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
  store->Flush();
  sqlite3* reader;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &reader), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM reviews;", nullptr, nullptr, nullptr),
            SQLITE_OK);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    sqlite3_exec(reader, "COMMIT", nullptr, nullptr, nullptr);
  });
  const std::string text(2000, 'x');
  uint64_t largest = 0;
  for (int i = 0; i < 3000; ++i) {
    store->ingest().AddReview(src, MakeReview("P", std::to_string(i), text + std::to_string(i)),
                              OneSentence(text));
    if (fs::exists(path_ + "-wal"))
      largest = std::max<uint64_t>(largest, fs::file_size(path_ + "-wal"));
  }
  store->Flush();
  release.join();
  sqlite3_close(reader);
  // ~12 MB were written; the WAL is cut back once the reader lets go, and never grows far past
  // the bound plus what was written while the writer waited for the reader.
  EXPECT_LT(fs::file_size(path_ + "-wal"), 2u << 20);
  EXPECT_LT(largest, 8u << 20);
}

TEST_F(IntegrityTest, MigratesASchema3StoreKeepingEverything) {
  {
    sqlite3* db = OpenAtSchema(3);
    ASSERT_NE(db, nullptr);
    const float heads[2] = {0.5f, 0.25f};
    const char* sql = R"sql(
      INSERT INTO sources(id, path, format) VALUES (1, 'old.csv', 'csv');
      INSERT INTO products(id, key) VALUES (1, '手机');
      INSERT INTO reviews(id, source_id, line, product_id, rating, text, content_hash)
        VALUES (1, 1, 2, 1, 1, '电池不行', 11), (2, 1, 3, 1, 0, '好看', 12);
      INSERT INTO sentences(id, review_id, idx, begin, end, text) VALUES (1, 1, 0, 0, 4, '电池不行');
      INSERT INTO sentences_fts(rowid, text) VALUES (1, ' 电  池  不  行 ');
      INSERT INTO rejects(source_id, line, reason, raw) VALUES (1, 9, 'bad', 'x'), (1, 10, 'bad', 'x');
      INSERT INTO runs(id, key, params, embedder, heads, started_at, finished_at)
        VALUES (1, 'k', '{}', 'lexical', 'a' || char(9) || 'b', 't', 't');
    )sql";
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_stmt* st;
    sqlite3_prepare_v2(db, "INSERT INTO scores VALUES (1, 'product', 1, 1.0, ?1)", -1, &st,
                       nullptr);
    sqlite3_bind_blob(st, 1, heads, sizeof heads, SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
  }
  auto store = ReviewStore::Open(path_);
  EXPECT_EQ(store->reviews().Stats().reviews, 2);
  EXPECT_EQ(store->search().Find("电池", 10).size(), 1u);
  EXPECT_EQ(Query("SELECT count(*) FROM rejects"), "1") << "the same bad bytes twice: one reject";
  EXPECT_EQ(Query("SELECT group_concat(head || '=' || weight, ' ') FROM sentence_head_weights"),
            "a=0.5 b=0.25");
  Review again = MakeReview("手机", "", "电池不行", 1.0);
  int64_t src = store->ingest().AddSource("old.csv", "csv", 1);
  EXPECT_FALSE(store->ingest().AddReview(src, again, OneSentence(again.text)))
      << "a migrated review is recognised by its new identity";
}

// Schema 7 moved scores from a WITHOUT ROWID table to a rowid table with the same unique key:
// every row of every run is kept, the key still refuses a second row (and INSERT OR REPLACE
// replaces it), and the views that read scores still work.
TEST_F(IntegrityTest, MigratesScoresToAnAppendOrderTableKeepingEveryRow) {
  {
    sqlite3* db = OpenAtSchema(6);
    ASSERT_NE(db, nullptr);
    const char* sql = R"sql(
      INSERT INTO sources(id, path, format) VALUES (1, 'a.jsonl', 'jsonl');
      INSERT INTO products(id, key) VALUES (1, 'B1');
      INSERT INTO reviews(id, source_id, line, product_id, text, content_hash)
        VALUES (1, 1, 1, 1, 'Good. Bad.', 11);
      INSERT INTO sentences(id, review_id, idx, begin, end, text)
        VALUES (1, 1, 0, 0, 5, 'Good.'), (2, 1, 1, 6, 10, 'Bad.');
      INSERT INTO runs(id, key, params, embedder, heads, started_at, finished_at)
        VALUES (1, 'k1', '{}', 'lexical', 'a', 't', 't'), (2, 'k2', '{}', 'lexical', 'a', 't', 't');
      INSERT INTO scores VALUES (2, 'product', 2, 0.75, '[0.5]'), (1, 'product', 1, 0.25, '[1]'),
        (1, 'product', 2, 0.75, '[0]'), (2, 'review', 1, 1.0, '[0.25]');
    )sql";
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  auto store = ReviewStore::Open(path_);
  EXPECT_EQ(Query("SELECT group_concat(run_id || scope || sentence_id || '=' || weight || "
                  "head_weights, ' ') FROM (SELECT * FROM scores ORDER BY 1, 2, 3)"),
            "1product1=0.25[1] 1product2=0.75[0] 2product2=0.75[0.5] 2review1=1.0[0.25]");
  EXPECT_EQ(Query("SELECT instr(upper(sql), 'WITHOUT ROWID') FROM sqlite_schema "
                  "WHERE name = 'scores'"),
            "0");
  EXPECT_EQ(Query("SELECT count(*) FROM sentence_scores"), "4");
  EXPECT_EQ(Query("SELECT group_concat(head || '=' || weight, ' ') FROM sentence_head_weights "
                  "WHERE run_id = 2 AND scope = 'review'"),
            "a=0.25");
  sqlite3* db;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  EXPECT_NE(sqlite3_exec(db,
                         "INSERT INTO scores(run_id, scope, sentence_id, weight, head_weights) "
                         "VALUES (1, 'product', 1, 0.5, '[2]')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << "the key still refuses a second row";
  EXPECT_EQ(sqlite3_exec(db,
                         "INSERT OR REPLACE INTO scores(run_id, scope, sentence_id, weight, "
                         "head_weights) VALUES (1, 'product', 1, 0.5, '[2]')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  EXPECT_EQ(Query("SELECT count(*) || ':' || sum(weight) FROM scores WHERE run_id = 1"), "2:1.25");
}

TEST_F(IntegrityTest, AWalStoreInAReadOnlyFolderCanStillBeRead) {
  const fs::path folder = dir_ / "readonly";
  fs::create_directories(folder);
  const std::string path = (folder / "s.db").string();
  {
    auto store = ReviewStore::Open(path);
    int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
    store->ingest().AddReview(src, MakeReview("B1", "r1", "Battery lasts."),
                              OneSentence("Battery lasts."));
    store->ingest().FinishSource(src, 1, 1, 0, 0);
  }
  // Root ignores permission bits, so root makes the folder immutable instead.
  const std::string lock = geteuid() == 0 ? "chattr +i '" + folder.string() + "'"
                                          : "chmod 0555 '" + folder.string() + "'";
  const std::string unlock = geteuid() == 0 ? "chattr -i '" + folder.string() + "'"
                                            : "chmod 0755 '" + folder.string() + "'";
  if (std::system((lock + " 2>/dev/null").c_str()) != 0) {
    if (std::getenv("CI")) FAIL() << "cannot make a folder read-only here: " << lock;
    GTEST_SKIP() << "cannot make a folder read-only here: " << lock;
  }
  StoreOptions read_only;
  read_only.read_only = true;
  try {
    auto store = ReviewStore::Open(path, read_only);
    EXPECT_EQ(store->reviews().Stats().reviews, 1);
    EXPECT_EQ(store->search().Find("battery", 10).size(), 1u);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  EXPECT_EQ(std::system(unlock.c_str()), 0);
}

TEST_F(IntegrityTest, AReadOnlyFolderStoreWhoseWalHoldsRowsIsRefusedNotReadWithoutThem) {
  // A writer that stopped without a checkpoint (killed, or still running elsewhere) leaves
  // committed rows only in the -wal file. In a folder nobody can write, without its -shm index,
  // SQLite can read the file only as immutable, ignoring the WAL: that showed 1 review of 2 (and
  // merge dropped the other). Now it is refused, naming the -wal; without a WAL it still opens.
  const fs::path folder = dir_ / "readonly-wal";
  fs::create_directories(folder);
  const std::string path = (folder / "s.db").string();
  {
    auto store = ReviewStore::Open(path);
    int64_t src = store->ingest().AddSource("a.jsonl", "jsonl", 10);
    store->ingest().AddReview(src, MakeReview("B1", "r1", "Battery lasts."),
                              OneSentence("Battery lasts."));
    store->ingest().FinishSource(src, 1, 1, 0, 0);
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    int on = 0;
    ASSERT_EQ(sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &on), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA wal_autocheckpoint = 0", nullptr, nullptr, nullptr),
              SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db,
                     "INSERT INTO products(key) VALUES ('B2'); INSERT INTO reviews(source_id, "
                     "product_id, line, text, content_hash) SELECT 1, id, 2, 'Screen cracked.', "
                     "42 FROM products WHERE key = 'B2'",
                     nullptr, nullptr, nullptr),
        SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  ASSERT_GT(fs::file_size(path + "-wal"), 0u) << "the row must be in the WAL only";
  // As a copy of the store with its WAL (cp s.db s.db-wal) has it: no -shm index.
  fs::remove(path + "-shm");
  const std::string lock = geteuid() == 0 ? "chattr +i '" + folder.string() + "'"
                                          : "chmod 0555 '" + folder.string() + "'";
  const std::string unlock = geteuid() == 0 ? "chattr -i '" + folder.string() + "'"
                                            : "chmod 0755 '" + folder.string() + "'";
  if (std::system((lock + " 2>/dev/null").c_str()) != 0) {
    if (std::getenv("CI")) FAIL() << "cannot make a folder read-only here: " << lock;
    GTEST_SKIP() << "cannot make a folder read-only here: " << lock;
  }
  StoreOptions read_only;
  read_only.read_only = true;
  try {
    auto store = ReviewStore::Open(path, read_only);
    ADD_FAILURE() << "opened, with " << store->reviews().Stats().reviews << " reviews of 2";
  } catch (const StoreError& e) {
    EXPECT_THAT(e.what(), HasSubstr("s.db-wal holds rows not yet in the database file"));
  }
  EXPECT_EQ(std::system(unlock.c_str()), 0);
  // Where it can be written, all of it is read.
  EXPECT_EQ(ReviewStore::Open(path, read_only)->reviews().Stats().reviews, 2);
}

}  // namespace
}  // namespace revsum
