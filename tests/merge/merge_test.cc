// Sharded ingest and MergeStore over real stores: N shards of the samples, summarised and merged,
// hold what one store built in one process holds, compared by natural keys (content hashes,
// product keys, (review hash, sentence index)), never by internal ids.
#include "revsum/merge.h"

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/export.h"
#include "revsum/ingest.h"
#include "revsum/run.h"
#include "support/paths.h"
#include "support/query_db.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using testing::TempDir;

using testing::kSamples;

// Rows of one query, one string per row (columns joined by '|').
std::vector<std::string> Rows(ReviewStore& store, const std::string& sql) {
  store.Flush();
  const testing::DbConnection db(store.path());
  std::vector<std::string> out;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &st, nullptr), SQLITE_OK)
      << sql << ": " << sqlite3_errmsg(db.get());
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
      row += (c ? "|" : "") + std::string(text ? text : "NULL");
    }
    out.push_back(row);
  }
  sqlite3_finalize(st);
  return out;
}

// Sentence natural key: the review's content hash and the sentence's position.
constexpr const char* kSentenceKey =
    "(SELECT r.content_hash || '#' || s.idx FROM sentences s JOIN reviews r ON r.id = s.review_id "
    "WHERE s.id = ";

// Everything a store holds, by natural keys, sorted, as one map of table -> rows.
std::map<std::string, std::vector<std::string>> Contents(ReviewStore& store) {
  std::map<std::string, std::vector<std::string>> c;
  c["sources"] = Rows(store,
                      "SELECT path, format, size_bytes, records, ingested, duplicates, rejected, "
                      "status FROM sources ORDER BY path");
  c["products"] = Rows(store, "SELECT key FROM products ORDER BY key");
  c["reviews"] = Rows(store,
                      "SELECT r.content_hash, p.key, s.path, r.line, r.external_id, r.rating, "
                      "r.title, r.text, r.time FROM reviews r JOIN products p ON p.id = "
                      "r.product_id JOIN sources s ON s.id = r.source_id ORDER BY r.content_hash");
  // Within a product, reviews keep their order (summaries and exports depend on it).
  c["review order"] = Rows(store,
                           "SELECT p.key, group_concat(r.content_hash) FROM (SELECT * FROM "
                           "reviews ORDER BY id) r JOIN products p ON p.id = r.product_id GROUP "
                           "BY p.key ORDER BY p.key");
  c["sentences"] = Rows(store,
                        "SELECT r.content_hash, s.idx, s.begin, s.end, s.text, s.tokens FROM "
                        "sentences s JOIN reviews r ON r.id = s.review_id "
                        "ORDER BY r.content_hash, s.idx");
  c["rejects"] = Rows(store,
                      "SELECT j.content_hash, s.path, j.line, j.reason, hex(j.raw) FROM rejects j "
                      "JOIN sources s ON s.id = j.source_id ORDER BY j.content_hash");
  c["runs"] = Rows(store,
                   "SELECT key, params, embedder, model_hash, finished_at IS NOT NULL, "
                   "snapshot_review_id = (SELECT max(id) FROM reviews) FROM runs ORDER BY key");
  c["summaries"] = Rows(
      store,
      std::string("SELECT r.key, s.scope, CASE s.scope WHEN 'review' THEN (SELECT content_hash "
                  "FROM reviews WHERE id = CAST(s.subject AS INTEGER)) ELSE s.subject END AS "
                  "subj, s.text, (SELECT group_concat(") +
          kSentenceKey +
          "CAST(j.value AS INTEGER)), ',') FROM json_each(s.sentence_ids) j), s.units_in, "
          "s.units_out, s.unit, s.embedder, s.tokenizer, s.tokens_in, s.tokens_out, "
          "s.reviews_covered FROM summaries s JOIN runs r ON r.id = s.run_id "
          "ORDER BY r.key, s.scope, subj");
  // Head weights by head name (the head order of a run may differ between stores), zeros left out
  // (a row carries zeros for heads its scope lacked).
  c["scores"] =
      Rows(store, std::string("SELECT r.key, sc.scope, ") + kSentenceKey +
                      "sc.sentence_id) AS sk, printf('%.9g', sc.weight), (SELECT "
                      "group_concat(head || '=' || weight) FROM (SELECT head, weight FROM "
                      "sentence_head_weights h WHERE h.run_id = sc.run_id AND h.scope = "
                      "sc.scope AND h.sentence_id = sc.sentence_id AND weight != 0 ORDER BY "
                      "head)) FROM scores sc JOIN runs r ON r.id = sc.run_id "
                      "ORDER BY r.key, sc.scope, sk");
  return c;
}

// A dump with what becomes a reject at each level: a line the reader refuses (bad JSON) and a
// review with nothing visible after cleaning.
std::string WriteRejectDump(const TempDir& dir) {
  const std::string path = dir / "bad.jsonl";
  std::ofstream(path)
      << "{\"text\":\"The kettle whistles loudly.\",\"parent_asin\":\"B0BAD00001\"}\n"
      << "{\"text\": not json}\n"
      << "{\"text\":\"<br /> &nbsp; \",\"parent_asin\":\"B0BAD00002\"}\n";
  return path;
}

// The same dump under a second name: a source of duplicates only, whose counts must still add up
// across shards.
std::vector<std::string> Dumps(const TempDir& dir) {
  const std::string copy = dir / "en_copy.jsonl";
  std::filesystem::copy_file(kSamples + "/en_reviews.jsonl", copy);
  return {kSamples + "/en_reviews.jsonl", kSamples + "/mixed_reviews.jsonl",
          kSamples + "/zh_reviews.csv", WriteRejectDump(dir), copy};
}

RunOptions Lexical() {
  RunOptions options;
  options.embedder = EmbedderChoice::kLexical;
  options.review_scope = true;
  options.threads = 2;
  return options;
}

// Ingests every dump (one shard of them) and summarises, like `revsum run --shard K/N`.
IngestCounts BuildStore(const std::string& path, const std::vector<std::string>& dumps,
                        IngestShard shard = {}) {
  auto store = ReviewStore::Open(path);
  IngestOptions options;
  options.shard = shard;
  options.threads = 2;
  IngestCounts total;
  for (const std::string& dump : dumps) total += IngestFile(*store, dump, options);
  SummarizeStore(*store, Lexical());
  return total;
}

std::vector<std::string> SearchTexts(ReviewStore& store, const std::string& query) {
  std::vector<std::string> texts;
  for (const SearchHit& hit : store.search().Find(query, 1000))
    texts.push_back(hit.product + ": " + hit.text);
  std::sort(texts.begin(), texts.end());
  return texts;
}

void BuildShard(const std::string& path, const std::vector<std::string>& dumps, IngestShard shard,
                bool summarize);

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dumps_ = Dumps(dir_);
    one_counts_ = BuildStore(dir_ / "one.db", dumps_);
    for (uint32_t k = 1; k <= 3; ++k) {
      shards_.push_back(dir_ / ("shard" + std::to_string(k) + ".db"));
      shard_counts_.push_back(BuildStore(shards_.back(), dumps_, {k, 3}));
    }
  }

  TempDir dir_;
  std::vector<std::string> dumps_;
  IngestCounts one_counts_;
  std::vector<std::string> shards_;
  std::vector<IngestCounts> shard_counts_;
};

// A table of the schema that merge does not carry fails here: every table (but the full-text
// index, which the output builds from the sentences it receives) has rows in the fixture and the
// same number of rows in a merge of it into an empty store.
TEST_F(MergeTest, EveryTableOfTheSchemaIsCarried) {
  {
    auto one = ReviewStore::Open(dir_ / "one.db");
    StoredOpinionModel model;
    model.sha256 = std::string(64, 'a');
    model.trained_on = "{}";
    model.blob = "weights";
    one->opinion_models().Add(model);
  }
  auto out = ReviewStore::Open(dir_ / "merged.db");
  MergeStore(*out, dir_ / "one.db");
  auto in = ReviewStore::Open(dir_ / "one.db");
  const std::vector<std::string> tables =
      Rows(*out,
           "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND "
           "name NOT LIKE 'sentences_fts%' ORDER BY name");
  const std::set<std::string> carried(MergedTables().begin(), MergedTables().end());
  ASSERT_FALSE(tables.empty());
  for (const std::string& table : tables) {
    EXPECT_TRUE(carried.count(table)) << table << ": a table MergedTables() does not name";
    const std::string rows = Rows(*in, "SELECT count(*) FROM " + table).at(0);
    EXPECT_NE(rows, "0") << "the fixture has no row in " << table << "; add one";
    EXPECT_EQ(Rows(*out, "SELECT count(*) FROM " + table).at(0), rows) << table;
  }
  EXPECT_EQ(tables.size(), carried.size());
  EXPECT_EQ(Rows(*out, "SELECT count(*) FROM sentences_fts"),
            Rows(*in, "SELECT count(*) FROM sentences_fts"));
}

TEST_F(MergeTest, EveryRecordIsInExactlyOneShardAndTheCountsAddUp) {
  IngestCounts sum;
  for (const IngestCounts& c : shard_counts_) {
    EXPECT_EQ(c.read, c.ingested + c.duplicates + c.rejected + c.other_shard);
    EXPECT_EQ(c.read, one_counts_.read);
    EXPECT_GT(c.other_shard, 0u);
    sum += c;
  }
  EXPECT_EQ(sum.ingested, one_counts_.ingested);
  EXPECT_EQ(sum.duplicates, one_counts_.duplicates);
  EXPECT_EQ(sum.rejected, one_counts_.rejected);
  EXPECT_EQ(sum.sentences, one_counts_.sentences);
  EXPECT_EQ(one_counts_.rejected, 2u);  // the bad JSON line and the invisible review
  EXPECT_GT(one_counts_.duplicates, 0u);
}

TEST_F(MergeTest, ShardsMergedHoldWhatOneStoreHolds) {
  auto out = ReviewStore::Open(dir_ / "all.db");
  MergeCounts total;
  for (const std::string& shard : shards_) total += MergeStore(*out, shard);
  auto one = ReviewStore::Open(dir_ / "one.db");
  const auto expected = Contents(*one);
  const auto merged = Contents(*out);
  for (const auto& [table, rows] : expected) {
    EXPECT_FALSE(rows.empty()) << table;
    EXPECT_EQ(merged.at(table), rows) << table;
  }
  EXPECT_EQ(total.reviews, out->reviews().Stats().reviews);
  EXPECT_EQ(total.runs, 1);
  EXPECT_EQ(out->reviews().Stats().unfinished_runs, 0);
}

TEST_F(MergeTest, SearchFindsTheMergedSentences) {
  auto out = ReviewStore::Open(dir_ / "all.db");
  for (const std::string& shard : shards_) MergeStore(*out, shard);
  auto one = ReviewStore::Open(dir_ / "one.db");
  for (const char* query : {"kettle", "cord OR handle", "物流", "苹果", "whistles"}) {
    const std::vector<std::string> hits = SearchTexts(*out, query);
    EXPECT_FALSE(hits.empty()) << query;
    EXPECT_EQ(hits, SearchTexts(*one, query)) << query;
  }
  // The index matches the sentences row for row (rowid = sentences.id).
  EXPECT_EQ(Rows(*out, "SELECT count(*) FROM sentences_fts"),
            Rows(*out, "SELECT count(*) FROM sentences"));
}

TEST_F(MergeTest, MergingTheSameInputTwiceAddsNothing) {
  auto out = ReviewStore::Open(dir_ / "all.db");
  for (const std::string& shard : shards_) MergeStore(*out, shard);
  const auto before = Contents(*out);
  for (const std::string& shard : shards_) {
    MergeCounts again = MergeStore(*out, shard);
    EXPECT_EQ(again.sources + again.products + again.reviews + again.sentences + again.rejects +
                  again.runs + again.scores + again.summaries,
              0);
  }
  EXPECT_EQ(Contents(*out), before);
  EXPECT_EQ(Rows(*out, "SELECT count(*) FROM sentences_fts"),
            Rows(*out, "SELECT count(*) FROM sentences"));
}

TEST_F(MergeTest, OverlappingShardSetsAndReMergesCountEachDumpOnce) {
  // The /3 shards (SetUp), the /2 shards of the same dumps summarised another way (so they bring
  // runs of their own), and the /3 shards again: the dump's records and rejects are one store's,
  // not 2x (the /2 set added to the /3 set) or 3x.
  std::vector<std::string> halves;
  for (uint32_t k = 1; k <= 2; ++k) {
    halves.push_back(dir_ / ("half" + std::to_string(k) + ".db"));
    BuildShard(halves.back(), dumps_, {k, 2}, false);
    auto half = ReviewStore::Open(halves.back());
    RunOptions options = Lexical();
    options.review_scope = false;
    SummarizeStore(*half, options);
  }
  auto out = ReviewStore::Open(dir_ / "all.db");
  for (const std::string& shard : shards_) MergeStore(*out, shard);
  for (const std::string& half : halves) MergeStore(*out, half);
  for (const std::string& shard : shards_) MergeStore(*out, shard);
  auto one = ReviewStore::Open(dir_ / "one.db");
  EXPECT_EQ(Contents(*out).at("sources"), Contents(*one).at("sources"));
  // One shard alone says it counts a part: its own records, not the dump's.
  auto part = ReviewStore::Open(dir_ / "part.db");
  MergeStore(*part, shards_[0]);
  EXPECT_EQ(Rows(*part, "SELECT sum(records) FROM sources"),
            std::vector<std::string>{
                std::to_string(shard_counts_[0].read - shard_counts_[0].other_shard)});
}

TEST_F(MergeTest, ShardsIngestedIntoOneStoreCountTheWholeDump) {
  // --shard 1/3, 2/3 and 3/3 of the same dumps into one store: its counts are one ingest's.
  auto store = ReviewStore::Open(dir_ / "parts.db");
  for (uint32_t k = 1; k <= 3; ++k) {
    IngestOptions options;
    options.shard = {k, 3};
    for (const std::string& dump : dumps_) IngestFile(*store, dump, options);
  }
  auto one = ReviewStore::Open(dir_ / "one.db");
  EXPECT_EQ(Rows(*store, "SELECT path, records, rejected FROM sources ORDER BY path"),
            Rows(*one, "SELECT path, records, rejected FROM sources ORDER BY path"));
}

TEST_F(MergeTest, InputsAreNotModified) {
  const auto size = std::filesystem::file_size(shards_[0]);
  std::map<std::string, std::vector<std::string>> before;
  {
    auto in = ReviewStore::Open(shards_[0]);
    before = Contents(*in);
  }
  auto out = ReviewStore::Open(dir_ / "all.db");
  MergeStore(*out, shards_[0]);
  EXPECT_EQ(std::filesystem::file_size(shards_[0]), size);
  auto in = ReviewStore::Open(shards_[0]);
  EXPECT_EQ(Contents(*in), before);
}

TEST_F(MergeTest, AForeignOrNewerInputIsRefusedAndTheOutputIsUnchanged) {
  auto out = ReviewStore::Open(dir_ / "all.db");
  MergeStore(*out, shards_[0]);
  const auto before = Contents(*out);

  const std::string foreign = dir_ / "foreign.db";
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE orders(id INTEGER PRIMARY KEY)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const std::string newer = dir_ / "newer.db";
  std::filesystem::copy_file(shards_[1], newer);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(newer.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const std::string text = dir_ / "notes.txt";
  std::ofstream(text) << "not a database at all, but long enough to look like a header..........\n";

  EXPECT_THAT([&] { MergeStore(*out, foreign); },
              ::testing::ThrowsMessage<StoreError>(::testing::AllOf(
                  ::testing::HasSubstr("foreign.db"), ::testing::HasSubstr("not a revsum store"))));
  EXPECT_THAT([&] { MergeStore(*out, newer); },
              ::testing::ThrowsMessage<StoreError>(::testing::AllOf(
                  ::testing::HasSubstr("newer.db"), ::testing::HasSubstr("schema version 99"))));
  EXPECT_THROW(MergeStore(*out, text), StoreError);
  EXPECT_THROW(CheckMergeInput(dir_ / "missing.db"), StoreError);
  EXPECT_THAT([&] { MergeStore(*out, out->path()); },
              ::testing::ThrowsMessage<StoreError>(::testing::HasSubstr("output store itself")));
  EXPECT_EQ(Contents(*out), before);
}

TEST_F(MergeTest, AFailureMidMergeLeavesTheOutputAsItWas) {
  auto out = ReviewStore::Open(dir_ / "all.db");
  MergeStore(*out, shards_[0]);
  const auto before = Contents(*out);
  // A damaged input: its last review points at a source that does not exist, so the merge fails
  // after its sources, products and most reviews are written.
  const std::string damaged = dir_ / "damaged.db";
  std::filesystem::copy_file(shards_[1], damaged);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(damaged.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "UPDATE reviews SET source_id = 999 WHERE id = (SELECT max(id) "
                           "FROM reviews)",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  EXPECT_THROW(MergeStore(*out, damaged), StoreError);
  EXPECT_EQ(Contents(*out), before);
  // The output still works: the intact shards merge afterwards.
  MergeStore(*out, shards_[1]);
  EXPECT_GT(out->reviews().Stats().reviews, static_cast<int64_t>(before.at("reviews").size()));
}

TEST_F(MergeTest, RejectsAreKeptOnceAcrossShards) {
  // The reader's reject (bad JSON) is shard 1's; the invisible review is its product's shard's.
  const uint32_t invisible = ProductShard("B0BAD00002", 3);
  for (uint32_t k = 1; k <= 3; ++k) {
    const uint64_t expected = (k == 1 ? 1u : 0u) + (k == invisible ? 1u : 0u);
    EXPECT_EQ(shard_counts_[k - 1].rejected, expected) << "shard " << k;
  }
}

// --- summarize after merge: what each shard's run covered ----------------------------------------

// Ingests `dumps` (one shard of them) into the store at `path`, and summarises when `summarize`.
void BuildShard(const std::string& path, const std::vector<std::string>& dumps, IngestShard shard,
                bool summarize) {
  auto store = ReviewStore::Open(path);
  IngestOptions options;
  options.shard = shard;
  for (const std::string& dump : dumps) IngestFile(*store, dump, options);
  if (summarize) SummarizeStore(*store, Lexical());
}

// The default (structured) export and the flat one of every product, as text and as JSON, and
// the review scope's JSON: JSON names reviews and sentences by citation, so it too must be the
// same in a merged store as in one store.
std::string Exports(const std::string& path) {
  auto store = ReviewStore::Open(path);
  std::ostringstream out;
  for (const ExportFormat format : {ExportFormat::kText, ExportFormat::kJson}) {
    ExportOptions options;
    options.format = format;
    ExportSummaries(*store, options, out);
    options.flat = true;
    ExportSummaries(*store, options, out);
  }
  ExportOptions reviews;
  reviews.format = ExportFormat::kJson;
  reviews.scope = "review";
  ExportSummaries(*store, reviews, out);
  return out.str();
}

int64_t ProductsWithoutSummary(const std::string& path) {
  auto store = ReviewStore::Open(path);
  return std::stoll(Rows(*store,
                         "SELECT count(*) FROM products p WHERE NOT EXISTS (SELECT 1 FROM "
                         "summaries s WHERE s.scope = 'product' AND s.subject = p.key)")[0]);
}

TEST(MergeCoverageTest, ASummarizeAfterMergingASummarisedAndAnIngestedShardCoversEveryProduct) {
  // Shard 1 ingested and summarised, shard 2 only ingested; merged (shard 2 first, so its reviews
  // take the lower ids), then summarised: every product gets a summary, and the store exports
  // what one store summarised in one process exports. Before schema 9 the merged run's snapshot
  // (the highest review id) marked shard 2's products as read: "0 re-scored", half the products
  // without a summary, for good.
  TempDir dir;
  const std::vector<std::string> dumps = {kSamples + "/en_reviews.jsonl",
                                          kSamples + "/mixed_reviews.jsonl"};
  BuildShard(dir / "p1.db", dumps, {1, 2}, true);
  BuildShard(dir / "p2.db", dumps, {2, 2}, false);
  BuildShard(dir / "one.db", dumps, {}, true);
  {
    auto out = ReviewStore::Open(dir / "all.db");
    MergeStore(*out, dir / "p2.db");
    MergeStore(*out, dir / "p1.db");
    const RunReport report = SummarizeStore(*out, Lexical());
    EXPECT_GT(report.products_reused, 0u) << "shard 1's products keep their summaries";
  }
  EXPECT_EQ(ProductsWithoutSummary(dir / "all.db"), 0);
  EXPECT_EQ(Exports(dir / "all.db"), Exports(dir / "one.db"));
}

TEST(MergeCoverageTest, AnInterruptedShardDoesNotHideTheFinishedOnes) {
  // Shard 2's run was interrupted before its last product (its run unfinished, that product's
  // summary missing). Merged with the finished shard 1, the store exports (it said "no product
  // summaries yet"), and a summarize makes it export what one store built in one process does.
  TempDir dir;
  const std::vector<std::string> dumps = {kSamples + "/en_reviews.jsonl",
                                          kSamples + "/mixed_reviews.jsonl"};
  BuildShard(dir / "p1.db", dumps, {1, 2}, true);
  BuildShard(dir / "p2.db", dumps, {2, 2}, true);
  BuildShard(dir / "one.db", dumps, {}, true);
  {
    const testing::DbConnection p2(dir / "p2.db");
    ASSERT_EQ(sqlite3_exec(p2.get(),
                           "UPDATE runs SET finished_at = NULL; DELETE FROM summaries WHERE "
                           "scope = 'product' AND subject = (SELECT max(subject) FROM summaries "
                           "WHERE scope = 'product')",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
  }
  {
    auto out = ReviewStore::Open(dir / "all.db");
    MergeStore(*out, dir / "p1.db");
    EXPECT_EQ(MergeStore(*out, dir / "p2.db").interrupted_runs, 1);
    EXPECT_EQ(out->reviews().Stats().unfinished_runs, 0);
  }
  EXPECT_NO_THROW(Exports(dir / "all.db"));
  EXPECT_EQ(ProductsWithoutSummary(dir / "all.db"), 1);
  {
    auto out = ReviewStore::Open(dir / "all.db");
    const RunReport report = SummarizeStore(*out, Lexical());
    EXPECT_EQ(report.products_rescored, 1u);
  }
  EXPECT_EQ(ProductsWithoutSummary(dir / "all.db"), 0);
  EXPECT_EQ(Exports(dir / "all.db"), Exports(dir / "one.db"));
}

TEST(MergeCoverageTest, ReMergingAnUpdatedShardReScoresTheProductsItChanged) {
  // A first merge and summarize; then shard 1 gets two more reviews of one of its products and is
  // summarised again; merged again and summarised, the store exports what one store built from
  // everything exports (the stale summary of that product is re-scored, not kept).
  TempDir dir;
  const std::vector<std::string> dumps = {kSamples + "/en_reviews.jsonl",
                                          kSamples + "/mixed_reviews.jsonl"};
  BuildShard(dir / "p1.db", dumps, {1, 2}, true);
  BuildShard(dir / "p2.db", dumps, {2, 2}, true);
  {
    auto out = ReviewStore::Open(dir / "all.db");
    MergeStore(*out, dir / "p1.db");
    MergeStore(*out, dir / "p2.db");
    SummarizeStore(*out, Lexical());
  }
  // Two new reviews of a product of shard 1.
  std::string product;
  {
    auto p1 = ReviewStore::Open(dir / "p1.db");
    for (const std::string& key : p1->reviews().Products()) {
      if (ProductShard(key, 2) == 1) product = key;
    }
  }
  ASSERT_FALSE(product.empty());
  const std::string more = dir / "more.jsonl";
  std::ofstream(more) << "{\"text\":\"It stopped working after a week. Returned it.\","
                         "\"rating\":1,\"parent_asin\":\""
                      << product << "\"}\n"
                      << "{\"text\":\"Stopped working within days, sadly.\",\"rating\":1,"
                         "\"parent_asin\":\""
                      << product << "\"}\n";
  std::vector<std::string> all = dumps;
  all.push_back(more);
  BuildShard(dir / "p1.db", {more}, {1, 2}, true);
  BuildShard(dir / "one.db", all, {}, true);
  {
    auto out = ReviewStore::Open(dir / "all.db");
    MergeStore(*out, dir / "p1.db");
    const RunReport report = SummarizeStore(*out, Lexical());
    EXPECT_EQ(report.products_rescored, 1u) << product;
  }
  EXPECT_EQ(Exports(dir / "all.db"), Exports(dir / "one.db"));
}

TEST(ShardTest, TheShardOfAProductIsFnv1aOfItsKeyModN) {
  // FNV-1a 64 of "" is the offset basis 14695981039346656037; of "a" it is 0xaf63dc4c8601ec8c.
  EXPECT_EQ(ProductShard("", 1000000), 14695981039346656037ULL % 1000000 + 1);
  EXPECT_EQ(ProductShard("a", 7), 0xaf63dc4c8601ec8cULL % 7 + 1);
  EXPECT_EQ(ProductShard("B0KTL55200", 1), 1u);
  for (uint32_t n : {2u, 3u, 10u}) {
    const uint32_t k = ProductShard("B0KTL55200", n);
    EXPECT_GE(k, 1u);
    EXPECT_LE(k, n);
  }
}

TEST(ShardTest, ParseShardAcceptsKOfNAndExplainsEverythingElse) {
  IngestShard s = ParseShard("2/3");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(ParseShard("1000000/1000000").count, 1000000u);
  for (const char* bad : {"0/3", "4/3", "3", "/3", "2/", "a/3", "-1/3", "1/0", "1/1000001",
                          "1/99999999999999999999", "1/3/4", ""}) {
    EXPECT_THAT(
        [&] { ParseShard(bad); },
        ::testing::ThrowsMessage<std::invalid_argument>(::testing::AllOf(
            ::testing::HasSubstr("--shard"), ::testing::HasSubstr("1 <= K <= N <= 1000000"))))
        << bad;
  }
}

TEST(ShardTest, IngestRefusesABadShardBeforeReading) {
  TempDir dir;
  auto store = ReviewStore::Open(dir / "s.db");
  IngestOptions options;
  options.shard = {4, 3};
  EXPECT_THROW(IngestFile(*store, kSamples + "/en_reviews.jsonl", options), std::invalid_argument);
  EXPECT_EQ(store->reviews().Stats().sources, 0);
}

}  // namespace
}  // namespace revsum
