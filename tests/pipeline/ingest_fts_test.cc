// The search index that ingest writes: on the samples (English, Chinese, mixed), sentences_fts
// holds exactly one document per sentence, with exactly the tokens of (text, FtsCjkGrams(text)),
// every search gives what a reference index built row by row from the sentences gives, FTS5's own
// 'rebuild' changes nothing, and a Chinese query finds exactly the sentences that contain it. This
// is the contract that any faster way of writing the index (batching, commit size, skipped copies)
// keeps.
#include <sqlite3.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "revsum/ingest.h"
#include "support/query_db.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using testing::TempDir;

void Exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK)
      << sql << ": " << (err ? err : "");
}

int64_t Count(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
  int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  return n;
}

// The sentence ids of a MATCH on the reference index, best rank first (as ReviewStore::Search).
std::vector<int64_t> ReferenceHits(sqlite3* db, const std::string& query) {
  sqlite3_stmt* st = nullptr;
  const std::string sql =
      "SELECT rowid FROM temp.ref_fts WHERE ref_fts MATCH ?1 ORDER BY rank LIMIT 1000";
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
  const std::string fts = FtsQuery(query);
  sqlite3_bind_text(st, 1, fts.c_str(), static_cast<int>(fts.size()), SQLITE_TRANSIENT);
  std::vector<int64_t> ids;
  while (sqlite3_step(st) == SQLITE_ROW) ids.push_back(sqlite3_column_int64(st, 0));
  sqlite3_finalize(st);
  return ids;
}

TEST(IngestFtsTest, IndexHoldsEverySentenceWithItsPairsAndSearchesLikeARowByRowIndex) {
  TempDir dir;
  auto store = ReviewStore::Open(dir / "db.sqlite");
  const std::string samples = REVSUM_SAMPLES;
  IngestOptions options;
  options.threads = 2;
  options.batch_records = 7;  // many small worker batches, reordered by the writer
  for (const char* name : {"en_reviews.jsonl", "mixed_reviews.jsonl", "zh_reviews.csv"}) {
    IngestFile(*store, samples + "/" + name, options);
  }
  store->Flush();
  const revsum::testing::DbConnection connection(store->path());
  sqlite3* db = connection.get();
  const int64_t sentences = Count(db, "SELECT count(*) FROM sentences");
  ASSERT_GT(sentences, 100);
  ASSERT_GT(Count(db, "SELECT count(*) FROM sentences WHERE text GLOB '*[一-龥]*'"), 10);

  // The reference: a plain FTS5 table with the same tokenizer and columns, filled one row at a
  // time with each stored sentence and its FtsCjkGrams.
  Exec(db,
       "CREATE VIRTUAL TABLE temp.ref_fts USING fts5(text, search, tokenize = 'unicode61 "
       "remove_diacritics 2')");
  {
    sqlite3_stmt* read = nullptr;
    sqlite3_stmt* write = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT id, text, search FROM sentences", -1, &read, nullptr),
              SQLITE_OK);
    ASSERT_EQ(
        sqlite3_prepare_v2(db, "INSERT INTO temp.ref_fts(rowid, text, search) VALUES (?1, ?2, ?3)",
                           -1, &write, nullptr),
        SQLITE_OK);
    struct Row {
      int64_t id;
      std::string text, search;
      bool null_search;
    };
    std::vector<Row> rows;
    while (sqlite3_step(read) == SQLITE_ROW) {
      const auto* search = reinterpret_cast<const char*>(sqlite3_column_text(read, 2));
      rows.push_back({sqlite3_column_int64(read, 0),
                      reinterpret_cast<const char*>(sqlite3_column_text(read, 1)),
                      search ? search : "", search == nullptr});
    }
    sqlite3_finalize(read);
    for (const Row& row : rows) {
      const std::string grams = FtsCjkGrams(row.text);
      EXPECT_EQ(row.search, grams) << row.text;
      EXPECT_EQ(row.null_search, grams.empty()) << "no CJK: NULL, not '' " << row.text;
      sqlite3_bind_int64(write, 1, row.id);
      sqlite3_bind_text(write, 2, row.text.c_str(), static_cast<int>(row.text.size()),
                        SQLITE_TRANSIENT);
      if (grams.empty()) {
        sqlite3_bind_null(write, 3);
      } else {
        sqlite3_bind_text(write, 3, grams.c_str(), static_cast<int>(grams.size()),
                          SQLITE_TRANSIENT);
      }
      ASSERT_EQ(sqlite3_step(write), SQLITE_DONE);
      sqlite3_reset(write);
    }
    sqlite3_finalize(write);
  }

  // One document per sentence, with the same token count (the docsize rows feed bm25).
  EXPECT_EQ(Count(db, "SELECT count(*) FROM sentences_fts_docsize"), sentences);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM sentences s LEFT JOIN sentences_fts_docsize d "
                  "ON d.id = s.id WHERE d.id IS NULL"),
            0);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM sentences_fts_docsize a JOIN temp.ref_fts_docsize b "
                  "USING (id) WHERE a.sz IS NOT b.sz"),
            0);
  // Exactly the same (term, document, column, offset) instances in both indexes.
  Exec(db, "CREATE VIRTUAL TABLE temp.v_idx USING fts5vocab(main, sentences_fts, 'instance')");
  Exec(db, "CREATE VIRTUAL TABLE temp.v_ref USING fts5vocab(temp, ref_fts, 'instance')");
  const int64_t instances = Count(db, "SELECT count(*) FROM temp.v_ref");
  ASSERT_GT(instances, sentences);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM temp.v_idx"), instances);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM (SELECT * FROM temp.v_idx EXCEPT SELECT * FROM "
                  "temp.v_ref)"),
            0);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM (SELECT * FROM temp.v_ref EXCEPT SELECT * FROM "
                  "temp.v_idx)"),
            0);

  // Searches: the same sentences in the same order as the reference index.
  for (const char* query :
       {"battery", "fit OR fabric", "\"works great\"", "charg*", "电池", "物流 -包装", "质量", "好",
        "kettle OR 水壶", "don't", "NEAR(fit fine, 3)"}) {
    std::vector<int64_t> got;
    for (const SearchHit& hit : store->search().Find(query, 1000)) got.push_back(hit.sentence_id);
    const std::vector<int64_t> want = ReferenceHits(db, query);
    EXPECT_EQ(got, want) << query;
  }
  EXPECT_FALSE(store->search().Find("battery", 1000).empty());
  EXPECT_FALSE(store->search().Find("质量", 1000).empty());

  // A CJK query of one, two or more characters finds exactly the sentences that contain it, in
  // revsum search and, for a two-character word, in a plain MATCH as a user would write it.
  for (const std::string query : {"好", "质量", "物流很快", "很", "电池续航"}) {
    const std::string like = "SELECT count(*) FROM sentences WHERE instr(text, '" + query + "')";
    const int64_t contain = Count(db, like);
    EXPECT_EQ(static_cast<int64_t>(store->search().Find(query, 100000).size()), contain) << query;
    if (query.size() == 6) {
      EXPECT_EQ(
          Count(db, "SELECT count(*) FROM sentences_fts WHERE sentences_fts MATCH '" + query + "'"),
          contain)
          << query;
    }
  }
  ASSERT_GT(Count(db, "SELECT count(*) FROM sentences WHERE instr(text, '物流很快')"), 0);

  // FTS5's own rebuild (what sqlite-utils rebuild-fts runs) re-reads the same index.
  Exec(db, "INSERT INTO sentences_fts(sentences_fts) VALUES ('rebuild')");
  Exec(db, "INSERT INTO sentences_fts(sentences_fts) VALUES ('integrity-check')");
  EXPECT_EQ(Count(db, "SELECT count(*) FROM temp.v_idx"), instances);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM (SELECT * FROM temp.v_ref EXCEPT SELECT * FROM "
                  "temp.v_idx)"),
            0);
  EXPECT_EQ(store->search().Find("电池续航", 100000).size(),
            static_cast<size_t>(
                Count(db, "SELECT count(*) FROM sentences WHERE instr(text, '电池续航')")));
}

}  // namespace
}  // namespace revsum
