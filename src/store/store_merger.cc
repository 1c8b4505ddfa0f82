// Merging one store into another (store.h MergeStores): every table's rows, with ids mapped.
#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"  // FloatsJson, ParseFloatsJson: the one head-weights format

namespace revsum {

MergeCounts& MergeCounts::operator+=(const MergeCounts& o) {
  sources += o.sources;
  products += o.products;
  reviews += o.reviews;
  sentences += o.sentences;
  rejects += o.rejects;
  runs += o.runs;
  scores += o.scores;
  summaries += o.summaries;
  interrupted_runs += o.interrupted_runs;
  return *this;
}

namespace {

// A prepared statement on either connection that can copy values between them unchanged
// (sqlite3_bind_value keeps NULLs, blobs and numeric types as stored).
class Query {
 public:
  Query(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) Fail("preparing");
  }
  ~Query() { sqlite3_finalize(stmt_); }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  Query& Bind(int i, int64_t v) { return Check(sqlite3_bind_int64(stmt_, i, v)); }
  Query& Bind(int i, const std::string& v) {
    return Check(sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  Query& BindNull(int i) { return Check(sqlite3_bind_null(stmt_, i)); }
  Query& BindValue(int i, const Query& from, int col) {
    return Check(sqlite3_bind_value(stmt_, i, sqlite3_column_value(from.stmt_, col)));
  }
  // True while a row is available; resets the statement (keeping bindings) when done.
  bool Step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    sqlite3_reset(stmt_);
    if (rc != SQLITE_DONE) Fail("executing");
    return false;
  }
  // Runs a statement without rows; returns the rows it changed.
  int64_t Run() {
    while (Step()) {
    }
    const int64_t changed = sqlite3_changes64(db_);
    sqlite3_clear_bindings(stmt_);
    return changed;
  }
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string Text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }

 private:
  Query& Check(int rc) {
    if (rc != SQLITE_OK) Fail("binding");
    return *this;
  }
  [[noreturn]] void Fail(const char* what) {
    const char* sql = sqlite3_sql(stmt_);
    store_internal::Fail(
        db_, std::string(what) + " \"" + std::string(sql ? sql : "").substr(0, 60) + "\"");
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Input id -> output id (0 = none). A plain vector while the input's ids are dense, as revsum
// writes them; a hash map for the rest, so a store with huge ids cannot exhaust memory.
class IdMap {
 public:
  explicit IdMap(int64_t max_dense)
      : dense_(static_cast<size_t>(std::max<int64_t>(0, max_dense))) {}
  void Set(int64_t from, int64_t to) {
    if (from >= 0 && static_cast<size_t>(from) < dense_.size()) {
      dense_[static_cast<size_t>(from)] = to;
    } else {
      sparse_[from] = to;
    }
  }
  int64_t Get(int64_t from) const {
    if (from >= 0 && static_cast<size_t>(from) < dense_.size()) {
      return dense_[static_cast<size_t>(from)];
    }
    auto it = sparse_.find(from);
    return it == sparse_.end() ? 0 : it->second;
  }

 private:
  std::vector<int64_t> dense_;
  std::unordered_map<int64_t, int64_t> sparse_;
};

int64_t OneInt(sqlite3* db, const char* sql) {
  Query q(db, sql);
  int64_t v = q.Step() ? q.Int(0) : 0;
  q.Reset();
  return v;
}

// Room for a dense map of a table's ids: up to twice its row count (revsum's ids have no gaps
// beyond deleted rows).
int64_t DenseBound(sqlite3* db, const char* table) {
  const std::string sql = std::string("SELECT coalesce(max(id), 0), count(*) FROM ") + table;
  Query q(db, sql.c_str());
  int64_t bound = 0;
  if (q.Step()) bound = std::min(q.Int(0), 2 * q.Int(1) + 1024) + 1;
  q.Reset();
  return bound;
}

// One input's merge; runs inside the caller's transaction on `out`.
class Merger {
 public:
  Merger(sqlite3* in, sqlite3* out) : in_(in), out_(out) {}

  MergeCounts Run() {
    MergeSources();
    MergeProducts();
    MergeReviews();
    MergeSentences();
    MergeRejects();
    MergeRuns();
    MergeScores();
    MergeSummaries();
    MergePoints();
    MergeOpinionModels();
    FinishRuns();
    MergeSourceCounts();
    return counts_;
  }

 private:
  struct SourceState {
    int64_t out_id = 0;
    bool existed = false;  // the output had this path before the merge
  };

  void MergeSources() {
    Query find(out_, "SELECT id FROM sources WHERE path = ?1");
    Query insert(out_,
                 "INSERT INTO sources(path, format, size_bytes, records, ingested, duplicates, "
                 "rejected, ingested_at, status, rating_min, rating_max, rating_labels, "
                 "rating_count, rating_stars, rating_tenths) "
                 "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)");
    Query q(in_,
            "SELECT id, path, format, size_bytes, records, ingested, duplicates, rejected, "
            "ingested_at, status, rating_min, rating_max, rating_labels, rating_count, "
            "rating_stars, rating_tenths FROM sources ORDER BY id");
    while (q.Step()) {
      SourceState state;
      find.Bind(1, q.Text(1));
      if (find.Step()) {
        state.out_id = find.Int(0);
        state.existed = true;
        find.Reset();
      } else {
        find.Reset();
        for (int c = 1; c <= 15; ++c) insert.BindValue(c, q, c);
        insert.Run();
        state.out_id = sqlite3_last_insert_rowid(out_);
        ++counts_.sources;
      }
      sources_[q.Int(0)] = state;
    }
  }

  int64_t SourceId(int64_t in_id) const {
    auto it = sources_.find(in_id);
    return it == sources_.end() ? 0 : it->second.out_id;
  }

  void MergeProducts() {
    products_ = std::make_unique<IdMap>(DenseBound(in_, "products"));
    Query insert(out_, "INSERT OR IGNORE INTO products(key) VALUES (?1)");
    Query find(out_, "SELECT id FROM products WHERE key = ?1");
    Query q(in_, "SELECT id, key FROM products ORDER BY id");
    while (q.Step()) {
      counts_.products += insert.BindValue(1, q, 1).Run();
      find.BindValue(1, q, 1);
      if (find.Step()) products_->Set(q.Int(0), find.Int(0));
      find.Reset();
    }
  }

  void MergeReviews() {
    const int64_t bound = DenseBound(in_, "reviews");
    reviews_ = std::make_unique<IdMap>(bound);
    new_reviews_ = std::make_unique<IdMap>(bound);
    Query insert(out_,
                 "INSERT OR IGNORE INTO reviews(source_id, line, product_id, external_id, rating, "
                 "title, text, time, content_hash) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)");
    Query find(out_, "SELECT id FROM reviews WHERE content_hash = ?1");
    Query q(in_,
            "SELECT id, source_id, line, product_id, external_id, rating, title, text, time, "
            "content_hash FROM reviews ORDER BY id");
    while (q.Step()) {
      const int64_t in_id = q.Int(0);
      insert.Bind(1, SourceId(q.Int(1))).BindValue(2, q, 2).Bind(3, products_->Get(q.Int(3)));
      for (int c = 4; c <= 9; ++c) insert.BindValue(c, q, c);
      if (insert.Run() > 0) {
        reviews_->Set(in_id, sqlite3_last_insert_rowid(out_));
        new_reviews_->Set(in_id, 1);
        ++counts_.reviews;
      } else {
        find.BindValue(1, q, 9);
        if (find.Step()) reviews_->Set(in_id, find.Int(0));
        find.Reset();
      }
    }
  }

  // New reviews bring their sentences (and index them); the sentences of reviews the output
  // already had are mapped to the output's, by (review, position).
  void MergeSentences() {
    sentences_ = std::make_unique<IdMap>(DenseBound(in_, "sentences"));
    Query insert(out_,
                 "INSERT INTO sentences(review_id, idx, begin, end, text, tokens, search) "
                 "VALUES (?1,?2,?3,?4,?5,?6,?7)");
    Query index(out_, "INSERT INTO sentences_fts(rowid, text, search) VALUES (?1, ?2, ?3)");
    Query find(out_, "SELECT id FROM sentences WHERE review_id = ?1 AND idx = ?2");
    Query q(
        in_,
        "SELECT id, review_id, idx, begin, end, text, tokens, search FROM sentences ORDER BY id");
    while (q.Step()) {
      const int64_t review = reviews_->Get(q.Int(1));
      if (!review) continue;
      if (new_reviews_->Get(q.Int(1))) {
        insert.Bind(1, review);
        for (int c = 2; c <= 7; ++c) insert.BindValue(c, q, c);
        insert.Run();
        const int64_t id = sqlite3_last_insert_rowid(out_);
        index.Bind(1, id).BindValue(2, q, 5).BindValue(3, q, 7).Run();
        sentences_->Set(q.Int(0), id);
        ++counts_.sentences;
      } else {
        find.Bind(1, review).BindValue(2, q, 2);
        if (find.Step()) sentences_->Set(q.Int(0), find.Int(0));
        find.Reset();
      }
    }
  }

  void MergeRejects() {
    Query insert(out_,
                 "INSERT OR IGNORE INTO rejects(source_id, line, reason, raw, content_hash) "
                 "VALUES (?1,?2,?3,?4,?5)");
    Query q(in_, "SELECT source_id, line, reason, raw, content_hash FROM rejects ORDER BY id");
    while (q.Step()) {
      insert.Bind(1, SourceId(q.Int(0)));
      for (int c = 2; c <= 5; ++c) insert.BindValue(c, q, c - 1);
      counts_.rejects += insert.Run();
    }
  }

  // The input's parts of each dump (source_parts: what each shard's ingest counted), the newest
  // kept where both stores have a part; then every source's counts derived from its parts
  // (RecountSource), so a complete set of shards counts its dump once, and merging a store twice,
  // or shards of /2 and /3, counts nothing twice. Sources the output had before also take the
  // input's latest ingest time, 'ingesting' status and rating range (the union: every shard saw
  // the whole dump).
  void MergeSourceCounts() {
    // Parts 0/0 (counts of stores from before schema 10, shard unknown) add up as merge added
    // counts then: unless the input brought no row the output lacked (it was merged before).
    const MergeCounts& added = counts_;
    const bool brought = added.sources + added.products + added.reviews + added.sentences +
                             added.rejects + added.runs + added.scores + added.summaries >
                         0;
    Query unknown(
        out_,
        "INSERT INTO source_parts(source_id, shard, shards, records, ingested, "
        "duplicates, rejected, ingested_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8) "
        "ON CONFLICT(source_id, shard, shards) DO UPDATE SET "
        "records = records + excluded.records, ingested = ingested + excluded.ingested, "
        "duplicates = duplicates + excluded.duplicates, "
        "rejected = rejected + excluded.rejected, "
        "ingested_at = max(coalesce(ingested_at, ''), coalesce(excluded.ingested_at, ''))");
    Query part(out_,
               "INSERT INTO source_parts(source_id, shard, shards, records, ingested, duplicates, "
               "rejected, ingested_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8) "
               "ON CONFLICT(source_id, shard, shards) DO UPDATE SET records = excluded.records, "
               "ingested = excluded.ingested, duplicates = excluded.duplicates, "
               "rejected = excluded.rejected, ingested_at = excluded.ingested_at "
               "WHERE coalesce(excluded.ingested_at, '') > coalesce(ingested_at, '')");
    Query parts(in_,
                "SELECT source_id, shard, shards, records, ingested, duplicates, rejected, "
                "ingested_at FROM source_parts");
    while (parts.Step()) {
      const bool old_part = parts.Int(2) == 0;
      if (old_part && !brought) continue;
      Query& upsert = old_part ? unknown : part;
      upsert.Bind(1, SourceId(parts.Int(0)));
      for (int col = 2; col <= 8; ++col) upsert.BindValue(col, parts, col - 1);
      upsert.Run();
    }
    Query update(out_,
                 "UPDATE sources SET "
                 // The rating counts of the newer ingest (each read the whole dump).
                 "rating_count = CASE WHEN coalesce(?2, '') > coalesce(ingested_at, '') "
                 "THEN ?7 ELSE rating_count END, "
                 "rating_stars = CASE WHEN coalesce(?2, '') > coalesce(ingested_at, '') "
                 "THEN ?8 ELSE rating_stars END, "
                 "rating_tenths = CASE WHEN coalesce(?2, '') > coalesce(ingested_at, '') "
                 "THEN ?9 ELSE rating_tenths END, "
                 "ingested_at = max(coalesce(ingested_at, ''), coalesce(?2, '')), "
                 "status = CASE WHEN ?3 = 'ingesting' THEN 'ingesting' ELSE status END, "
                 "rating_min = CASE WHEN ?4 IS NULL THEN rating_min "
                 "ELSE min(coalesce(rating_min, ?4), ?4) END, "
                 "rating_max = CASE WHEN ?5 IS NULL THEN rating_max "
                 "ELSE max(coalesce(rating_max, ?5), ?5) END, "
                 "rating_labels = CASE WHEN ?6 IS NULL THEN rating_labels "
                 "ELSE coalesce(rating_labels, 1) AND ?6 END "
                 "WHERE id = ?1");
    Query q(in_,
            "SELECT id, ingested_at, status, rating_min, rating_max, rating_labels, rating_count, "
            "rating_stars, rating_tenths FROM sources");
    while (q.Step()) {
      const SourceState& state = sources_[q.Int(0)];
      if (state.existed) {
        update.Bind(1, state.out_id);
        for (int c = 2; c <= 9; ++c) update.BindValue(c, q, c - 1);
        update.Run();
      }
      store_internal::RecountSource(out_, state.out_id);
    }
  }

  struct RunState {
    int64_t out_id = 0;
    std::vector<size_t> column;  // input head i -> output head column[i]
    bool same_layout = true;     // column[i] == i for every i
  };

  void MergeRuns() {
    Query find(out_, "SELECT id, heads, finished_at, started_at FROM runs WHERE key = ?1");
    Query insert(out_,
                 "INSERT INTO runs(key, params, embedder, model_hash, heads, started_at, "
                 "finished_at) VALUES (?1,?2,?3,?4,?5,?6,?7)");
    // Finished when finished in either, so that an interrupted shard does not hide the finished
    // ones: the products its run had not reached have no summary, and the next summarize
    // re-scores them (reviews_covered) as it does after an interrupted incremental run. Started
    // at the earlier start.
    Query update(out_,
                 "UPDATE runs SET heads = ?2, finished_at = CASE WHEN finished_at IS NULL THEN ?3 "
                 "WHEN ?3 IS NULL THEN finished_at ELSE max(finished_at, ?3) END, "
                 "started_at = min(started_at, ?4) WHERE id = ?1");
    Query q(in_,
            "SELECT id, key, params, embedder, model_hash, heads, started_at, finished_at "
            "FROM runs ORDER BY id");
    while (q.Step()) {
      const std::vector<std::string> in_heads = store_internal::SplitTabs(q.Text(5));
      RunState state;
      find.BindValue(1, q, 1);
      if (find.Step()) {
        state.out_id = find.Int(0);
        if (find.IsNull(2) != q.IsNull(7)) ++counts_.interrupted_runs;
        std::vector<std::string> heads = store_internal::SplitTabs(find.Text(1));
        find.Reset();
        for (size_t i = 0; i < in_heads.size(); ++i) {
          auto at = std::find(heads.begin(), heads.end(), in_heads[i]);
          if (at == heads.end()) at = heads.insert(heads.end(), in_heads[i]);
          state.column.push_back(static_cast<size_t>(at - heads.begin()));
          state.same_layout = state.same_layout && state.column.back() == i;
        }
        update.Bind(1, state.out_id).Bind(2, store_internal::JoinTabs(heads)).BindValue(3, q, 7);
        update.BindValue(4, q, 6).Run();
      } else {
        find.Reset();
        for (int c = 1; c <= 7; ++c) insert.BindValue(c, q, c);
        insert.Run();
        state.out_id = sqlite3_last_insert_rowid(out_);
        ++counts_.runs;
      }
      runs_[q.Int(0)] = std::move(state);
    }
  }

  void MergeScores() {
    Query insert(out_,
                 "INSERT OR IGNORE INTO scores(run_id, scope, sentence_id, weight, head_weights, "
                 "opinion, salience) VALUES (?1,?2,?3,?4,?5,?6,?7)");
    Query q(in_,
            "SELECT run_id, scope, sentence_id, weight, head_weights, opinion, salience "
            "FROM scores ORDER BY run_id, scope, sentence_id");
    while (q.Step()) {
      auto run = runs_.find(q.Int(0));
      const int64_t sentence = sentences_->Get(q.Int(2));
      if (run == runs_.end() || !sentence) continue;
      insert.Bind(1, run->second.out_id).BindValue(2, q, 1).Bind(3, sentence).BindValue(4, q, 3);
      insert.BindValue(6, q, 5).BindValue(7, q, 6);
      if (run->second.same_layout || q.IsNull(4)) {
        insert.BindValue(5, q, 4);
      } else {
        // Re-laid out by head name: the output's layout puts some heads elsewhere.
        const std::vector<float> in = store_internal::ParseFloatsJson(q.Text(4));
        std::vector<float> out;
        for (size_t i = 0; i < in.size() && i < run->second.column.size(); ++i) {
          const size_t to = run->second.column[i];
          if (out.size() <= to) out.resize(to + 1, 0.0f);
          out[to] = in[i];
        }
        insert.Bind(5, store_internal::FloatsJson(out));
      }
      counts_.scores += insert.Run();
    }
  }

  // A shard's own opinion models (train.h), once each (by sha256). The snapshot id of a model is
  // the input's: it says how much of that shard the model read.
  void MergeOpinionModels() {
    Query insert(out_,
                 "INSERT OR IGNORE INTO opinion_models(sha256, trained_on, snapshot_review_id, "
                 "reviews, heldout_reviews, heldout_accuracy, default_accuracy, created_at, model) "
                 "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)");
    Query q(
        in_,
        "SELECT sha256, trained_on, snapshot_review_id, reviews, heldout_reviews, "
        "heldout_accuracy, default_accuracy, created_at, model FROM opinion_models ORDER BY id");
    while (q.Step()) {
      for (int c = 1; c <= 9; ++c) insert.BindValue(c, q, c - 1);
      insert.Run();
    }
  }

  void MergeSummaries() {
    Query insert(out_,
                 "INSERT OR IGNORE INTO summaries(run_id, scope, subject, text, sentence_ids, "
                 "units_in, units_out, unit, embedder, tokenizer, tokens_in, tokens_out, "
                 "reviews_covered) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)");
    Query q(in_,
            "SELECT run_id, scope, subject, text, sentence_ids, units_in, units_out, unit, "
            "embedder, tokenizer, tokens_in, tokens_out, reviews_covered FROM summaries "
            "ORDER BY id");
    while (q.Step()) {
      auto run = runs_.find(q.Int(0));
      if (run == runs_.end()) continue;
      std::string subject = q.Text(2);
      if (q.Text(1) == "review") {
        const int64_t review = reviews_->Get(std::strtoll(subject.c_str(), nullptr, 10));
        if (!review) continue;  // its review is gone from the input
        subject = std::to_string(review);
      }
      std::vector<int64_t> ids;
      for (int64_t id : store_internal::ParseIds(q.Text(4))) {
        if (const int64_t to = sentences_->Get(id)) ids.push_back(to);
      }
      insert.Bind(1, run->second.out_id).BindValue(2, q, 1).Bind(3, subject).BindValue(4, q, 3);
      insert.Bind(5, store_internal::JoinIds(ids));
      // reviews_covered as the input's run read it: summarize compares it with the merged
      // product's reviews and re-scores the product when they differ (merge.h).
      for (int c = 6; c <= 13; ++c) insert.BindValue(c, q, c - 1);
      counts_.summaries += insert.Run();
    }
  }

  // Points and their evidence (schema 5), with run, sentence and review ids remapped. A point that
  // is already in the output (same run, product and rank) is kept as it is, like a summary.
  void MergePoints() {
    Query insert(out_,
                 "INSERT OR IGNORE INTO points(run_id, product, idx, text, sentence_id, review, "
                 "polarity, support, share, aspect, weight) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,"
                 "?10,?11)");
    Query member(out_,
                 "INSERT OR IGNORE INTO point_members(point_id, sentence_id, review_id, "
                 "similarity) VALUES (?1,?2,?3,?4)");
    Query q(in_,
            "SELECT id, run_id, product, idx, text, sentence_id, review, polarity, support, "
            "share, aspect, weight FROM points ORDER BY id");
    Query members(in_,
                  "SELECT sentence_id, review_id, similarity FROM point_members "
                  "WHERE point_id = ?1 ORDER BY sentence_id");
    while (q.Step()) {
      auto run = runs_.find(q.Int(1));
      const int64_t sentence = sentences_->Get(q.Int(5));
      const int64_t review = reviews_->Get(q.Int(6));
      if (run == runs_.end() || !sentence || !review) continue;
      insert.Bind(1, run->second.out_id).BindValue(2, q, 2).BindValue(3, q, 3).BindValue(4, q, 4);
      insert.Bind(5, sentence).Bind(6, review);
      for (int c = 7; c <= 11; ++c) insert.BindValue(c, q, c);
      if (!insert.Run()) continue;
      const int64_t point = sqlite3_last_insert_rowid(out_);
      members.Bind(1, q.Int(0));
      while (members.Step()) {
        const int64_t s = sentences_->Get(members.Int(0));
        const int64_t r = reviews_->Get(members.Int(1));
        if (!s || !r) continue;
        member.Bind(1, point).Bind(2, s).Bind(3, r).BindValue(4, members, 2).Run();
      }
    }
  }

  // Every run the input had now covers the output's reviews as merged.
  void FinishRuns() {
    const int64_t max_review = OneInt(out_, "SELECT coalesce(max(id), 0) FROM reviews");
    Query update(out_, "UPDATE runs SET snapshot_review_id = ?2 WHERE id = ?1");
    for (const auto& [in_id, state] : runs_) update.Bind(1, state.out_id).Bind(2, max_review).Run();
  }

  sqlite3* in_;
  sqlite3* out_;
  MergeCounts counts_;
  std::unordered_map<int64_t, SourceState> sources_;
  std::unordered_map<int64_t, RunState> runs_;
  std::unique_ptr<IdMap> products_, reviews_, new_reviews_, sentences_;
};

}  // namespace

const std::vector<std::string>& MergedTables() {
  // Merger::Run's steps, table by table (MergeSourceCounts writes source_parts, MergePoints
  // point_members too).
  static const std::vector<std::string> tables = {
      "sources", "products",  "reviews", "sentences",     "rejects",        "runs",
      "scores",  "summaries", "points",  "point_members", "opinion_models", "source_parts"};
  return tables;
}

MergeCounts MergeStores(ReviewStore& out, ReviewStore& in, const std::string& input) {
  out.Flush();
  sqlite3* db = out.connection().db();
  char* err = nullptr;
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "";
    sqlite3_free(err);
    throw StoreError(out.path() + ": locking the store to merge '" + input + "': " + msg);
  }
  try {
    // The input stays readable as one snapshot for the whole merge.
    Query(in.connection().db(), "BEGIN").Run();
    MergeCounts counts = Merger(in.connection().db(), db).Run();
    Query(in.connection().db(), "COMMIT").Run();
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "";
      sqlite3_free(err);
      throw StoreError(out.path() + ": committing the merge of '" + input + "': " + msg);
    }
    return counts;
  } catch (...) {
    if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace revsum
