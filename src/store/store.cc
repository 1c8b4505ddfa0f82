#include "revsum/store.h"

#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <unordered_map>

#include "statement.h"

namespace revsum {

using store_internal::Fail;
using store_internal::Statement;

namespace {

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void Fnv1a(uint64_t* h, std::string_view s) {
  for (unsigned char c : s) {
    *h ^= c;
    *h *= 1099511628211ULL;
  }
}

std::string JoinIds(const std::vector<int64_t>& ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(ids[i]);
  }
  return s + "]";
}

std::vector<int64_t> ParseIds(const std::string& json) {
  std::vector<int64_t> ids;
  const char* p = json.c_str();
  while (*p) {
    if ((*p >= '0' && *p <= '9') || *p == '-') {
      char* end;
      ids.push_back(std::strtoll(p, &end, 10));
      p = end;
    } else {
      ++p;
    }
  }
  return ids;
}

std::vector<std::string> SplitTabs(const std::string& s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '\t') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

}  // namespace

uint64_t ReviewContentHash(const Review& review) {
  uint64_t h = 14695981039346656037ULL;
  Fnv1a(&h, review.product);
  Fnv1a(&h, std::string_view("\0", 1));
  Fnv1a(&h, review.external_id);
  Fnv1a(&h, std::string_view("\0", 1));
  Fnv1a(&h, review.text);
  return h;
}

struct ReviewStore::Statements {
  explicit Statements(sqlite3* db)
      : find_product(db, "SELECT id FROM products WHERE key = ?1"),
        add_product(db, "INSERT INTO products(key) VALUES (?1)"),
        add_review(db,
                   "INSERT OR IGNORE INTO reviews(source_id, line, product_id, external_id, rating,"
                   " title, text, time, content_hash) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"),
        add_sentence(db,
                     "INSERT INTO sentences(review_id, idx, begin, end, text, tokens) "
                     "VALUES (?1,?2,?3,?4,?5,?6)"),
        add_fts(db, "INSERT INTO sentences_fts(rowid, text) VALUES (?1, ?2)"),
        add_reject(db,
                   "INSERT OR IGNORE INTO rejects(source_id, line, reason, raw) "
                   "VALUES (?1,?2,?3,?4)"),
        add_score(db,
                  "INSERT OR REPLACE INTO scores(run_id, scope, sentence_id, weight, head_weights)"
                  " VALUES (?1,?2,?3,?4,?5)") {}
  Statement find_product, add_product, add_review, add_sentence, add_fts, add_reject, add_score;
  std::unordered_map<std::string, int64_t> product_ids;
};

std::unique_ptr<ReviewStore> ReviewStore::Open(const std::string& path,
                                               const StoreOptions& options) {
  sqlite3* db = nullptr;
  // One thread uses a connection at a time (see store.h), so SQLite's own mutexes are not needed.
  int flags =
      SQLITE_OPEN_NOMUTEX |
      (options.read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw StoreError(path + ": cannot open database: " + msg);
  }
  sqlite3_busy_timeout(db, 10000);
  sqlite3_extended_result_codes(db, 1);
  auto store = std::unique_ptr<ReviewStore>(new ReviewStore(path, db, options));
  if (!options.read_only) {
    store->Exec("PRAGMA journal_mode = WAL");
    store->Exec("PRAGMA synchronous = NORMAL");
    // A 64 MiB page cache keeps the B-tree interiors of reviews, sentences and the FTS index in
    // memory during bulk ingest (the default 2 MiB re-reads them from the OS for every batch).
    store->Exec("PRAGMA cache_size = -65536");
    store->Exec("PRAGMA temp_store = MEMORY");
    store_internal::Migrate(db);
  } else {
    Statement v(db, "PRAGMA user_version");
    int version = v.Step() ? static_cast<int>(v.Int(0)) : 0;
    v.Reset();
    if (version != kSchemaVersion) {
      throw StoreError(path + ": not a revsum database at schema " +
                       std::to_string(kSchemaVersion) + " (found version " +
                       std::to_string(version) + "); run `revsum ingest` on it first");
    }
  }
  store->Exec("PRAGMA foreign_keys = ON");
  store->stmts_ = std::make_unique<Statements>(db);
  return store;
}

ReviewStore::ReviewStore(std::string path, sqlite3* db, StoreOptions options)
    : path_(std::move(path)), db_(db), options_(options) {}

ReviewStore::~ReviewStore() {
  Rollback();
  stmts_.reset();
  sqlite3_close_v2(db_);
}

void ReviewStore::Exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "";
    sqlite3_free(err);
    throw StoreError(path_ + ": " + sql + ": " + msg);
  }
}

void ReviewStore::Begin() {
  // SQLite may have rolled a transaction back by itself (SQLITE_FULL, SQLITE_IOERR); trust it.
  if (in_transaction_ && sqlite3_get_autocommit(db_)) in_transaction_ = false;
  if (!in_transaction_) {
    Exec("BEGIN IMMEDIATE");
    in_transaction_ = true;
  }
}

void ReviewStore::MaybeCommit() {
  if (++pending_ >= options_.batch_size) Flush();
}

void ReviewStore::Flush() {
  if (in_transaction_ && !sqlite3_get_autocommit(db_)) Exec("COMMIT");
  in_transaction_ = false;
  pending_ = 0;
}

void ReviewStore::Rollback() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  in_transaction_ = false;
  pending_ = 0;
  if (stmts_) stmts_->product_ids.clear();  // ids of rolled-back products are gone
}

int64_t ReviewStore::AddSource(const std::string& path, const std::string& format,
                               uint64_t size_bytes) {
  Begin();
  Statement up(db_,
               "INSERT INTO sources(path, format, size_bytes) VALUES (?1, ?2, ?3) "
               "ON CONFLICT(path) DO UPDATE SET format = excluded.format, "
               "size_bytes = excluded.size_bytes");
  up.Bind(1, path).Bind(2, format);
  size_bytes ? up.Bind(3, static_cast<int64_t>(size_bytes)) : up.BindNull(3);
  up.Run();
  Statement get(db_, "SELECT id FROM sources WHERE path = ?1");
  get.Bind(1, path);
  if (!get.Step()) Fail(db_, "source row vanished");
  int64_t id = get.Int(0);
  get.Reset();
  return id;
}

void ReviewStore::FinishSource(int64_t source_id, uint64_t records, uint64_t ingested,
                               uint64_t duplicates, uint64_t rejected) {
  Begin();
  Statement st(db_,
               "UPDATE sources SET records = ?2, ingested = ?3, duplicates = ?4, rejected = ?5, "
               "ingested_at = ?6 WHERE id = ?1");
  st.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(records))
      .Bind(3, static_cast<int64_t>(ingested))
      .Bind(4, static_cast<int64_t>(duplicates))
      .Bind(5, static_cast<int64_t>(rejected))
      .Bind(6, NowUtc())
      .Run();
  Flush();
}

bool ReviewStore::AddReview(int64_t source_id, const Review& review,
                            const std::vector<Sentence>& sentences) {
  Begin();
  Statements& s = *stmts_;
  int64_t product_id;
  if (auto it = s.product_ids.find(review.product); it != s.product_ids.end()) {
    product_id = it->second;
  } else {
    s.find_product.Bind(1, review.product);
    if (s.find_product.Step()) {
      product_id = s.find_product.Int(0);
      s.find_product.Reset();
    } else {
      s.add_product.Bind(1, review.product).Run();
      product_id = sqlite3_last_insert_rowid(db_);
    }
    if (s.product_ids.size() > 100000) s.product_ids.clear();  // bound memory on huge catalogues
    s.product_ids.emplace(review.product, product_id);
  }
  s.add_review.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(review.line))
      .Bind(3, product_id)
      .Bind(4, review.external_id)
      .Bind(5, review.rating)
      .Bind(6, review.title)
      .Bind(7, review.text)
      .Bind(8, review.time)
      .Bind(9, static_cast<int64_t>(ReviewContentHash(review)))
      .Run();
  if (sqlite3_changes(db_) == 0) return false;  // already stored
  int64_t review_id = sqlite3_last_insert_rowid(db_);
  for (const Sentence& sentence : sentences) {
    s.add_sentence.Bind(1, review_id)
        .Bind(2, int64_t{sentence.index})
        .Bind(3, int64_t{sentence.begin})
        .Bind(4, int64_t{sentence.end})
        .Bind(5, sentence.text)
        .Bind(6, sentence.tokens >= 0 ? std::optional<int64_t>(sentence.tokens) : std::nullopt)
        .Run();
    s.add_fts.Bind(1, static_cast<int64_t>(sqlite3_last_insert_rowid(db_)))
        .Bind(2, FtsIndexText(sentence.text))
        .Run();
  }
  MaybeCommit();
  return true;
}

void ReviewStore::AddReject(int64_t source_id, const Reject& reject) {
  Begin();
  stmts_->add_reject.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(reject.line))
      .Bind(3, reject.reason)
      .BindBlob(4, reject.raw)
      .Run();
  MaybeCommit();
}

StoreStats ReviewStore::Stats() {
  Flush();
  StoreStats st;
  Statement q(db_,
              "SELECT (SELECT count(*) FROM sources), (SELECT count(*) FROM products),"
              " (SELECT count(*) FROM reviews), (SELECT count(*) FROM sentences),"
              " (SELECT count(*) FROM rejects), (SELECT count(*) FROM runs),"
              " (SELECT count(*) FROM summaries)");
  if (q.Step()) {
    st.sources = q.Int(0);
    st.products = q.Int(1);
    st.reviews = q.Int(2);
    st.sentences = q.Int(3);
    st.rejects = q.Int(4);
    st.runs = q.Int(5);
    st.summaries = q.Int(6);
    q.Reset();
  }
  st.avg_sentences_per_review =
      st.reviews ? static_cast<double>(st.sentences) / static_cast<double>(st.reviews) : 0;
  st.schema_version = kSchemaVersion;
  return st;
}

namespace {
constexpr const char* kReviewColumns =
    "SELECT r.id, p.key, r.external_id, s.path, r.line, r.rating, r.title, r.text "
    "FROM reviews r JOIN products p ON p.id = r.product_id JOIN sources s ON s.id = r.source_id ";

StoredReview ReadReviewRow(const Statement& q) {
  StoredReview r;
  r.id = q.Int(0);
  r.product = q.Text(1);
  r.external_id = q.Text(2);
  r.source = q.Text(3);
  r.line = static_cast<uint64_t>(q.Int(4));
  if (!q.IsNull(5)) r.rating = q.Double(5);
  r.title = q.Text(6);
  r.text = q.Text(7);
  return r;
}

// Columns: id, review_id, idx, begin, end, text, tokens.
StoredSentence ReadSentenceRow(const Statement& s) {
  return {s.Int(0),
          s.Int(1),
          static_cast<int32_t>(s.Int(2)),
          static_cast<int32_t>(s.Int(3)),
          static_cast<int32_t>(s.Int(4)),
          s.Text(5),
          s.IsNull(6) ? -1 : static_cast<int32_t>(s.Int(6))};
}
}  // namespace

std::optional<StoredReview> ReviewStore::GetReview(int64_t review_id) {
  Flush();
  Statement q(db_, std::string(kReviewColumns) + "WHERE r.id = ?1");
  q.Bind(1, review_id);
  if (!q.Step()) return std::nullopt;
  StoredReview r = ReadReviewRow(q);
  q.Reset();
  Statement s(db_,
              "SELECT id, review_id, idx, begin, end, text, tokens FROM sentences "
              "WHERE review_id = ?1 ORDER BY idx");
  s.Bind(1, review_id);
  while (s.Step()) r.sentences.push_back(ReadSentenceRow(s));
  return r;
}

std::vector<StoredReview> ReviewStore::GetProductReviews(const std::string& product) {
  Flush();
  std::vector<StoredReview> out;
  std::unordered_map<int64_t, size_t> position;
  Statement q(db_, std::string(kReviewColumns) + "WHERE p.key = ?1 ORDER BY r.id");
  q.Bind(1, product);
  while (q.Step()) {
    position[q.Int(0)] = out.size();
    out.push_back(ReadReviewRow(q));
  }
  Statement s(db_,
              "SELECT s.id, s.review_id, s.idx, s.begin, s.end, s.text, s.tokens FROM sentences s "
              "JOIN reviews r ON r.id = s.review_id JOIN products p ON p.id = r.product_id "
              "WHERE p.key = ?1 ORDER BY s.review_id, s.idx");
  s.Bind(1, product);
  while (s.Step()) out[position.at(s.Int(1))].sentences.push_back(ReadSentenceRow(s));
  return out;
}

std::vector<std::string> ReviewStore::Products() {
  Flush();
  std::vector<std::string> out;
  Statement q(db_, "SELECT key FROM products ORDER BY key");
  while (q.Step()) out.push_back(q.Text(0));
  return out;
}

bool ReviewStore::HasProduct(const std::string& product) {
  Statement q(db_, "SELECT 1 FROM products WHERE key = ?1");
  q.Bind(1, product);
  bool found = q.Step();
  q.Reset();
  return found;
}

std::vector<SearchHit> ReviewStore::Search(const std::string& query, size_t limit) {
  Flush();
  std::vector<SearchHit> hits;
  Statement q(db_,
              "SELECT s.id, s.review_id, p.key, s.text FROM sentences_fts f "
              "JOIN sentences s ON s.id = f.rowid JOIN reviews r ON r.id = s.review_id "
              "JOIN products p ON p.id = r.product_id "
              "WHERE sentences_fts MATCH ?1 ORDER BY f.rank LIMIT ?2");
  q.Bind(1, FtsQuery(query)).Bind(2, static_cast<int64_t>(limit));
  try {
    while (q.Step()) hits.push_back({q.Int(0), q.Int(1), q.Text(2), q.Text(3)});
  } catch (const StoreError&) {
    throw StoreError("search \"" + query + "\": " + sqlite3_errmsg(db_) +
                     " (FTS5 syntax: words, \"phrases\", AND, OR, NOT, prefix*)");
  }
  return hits;
}

std::vector<std::pair<std::string, int64_t>> ReviewStore::RejectReasons(size_t limit) {
  Flush();
  std::vector<std::pair<std::string, int64_t>> out;
  Statement q(db_,
              "SELECT reason, count(*) AS n FROM rejects GROUP BY reason ORDER BY n DESC, reason "
              "LIMIT ?1");
  q.Bind(1, static_cast<int64_t>(limit));
  while (q.Step()) out.emplace_back(q.Text(0), q.Int(1));
  return out;
}

int64_t ReviewStore::BeginRun(const RunInfo& run, const std::vector<std::string>& head_names) {
  Flush();
  Begin();
  std::string heads;
  for (size_t i = 0; i < head_names.size(); ++i) heads += (i ? "\t" : "") + head_names[i];
  // Same key = same run: drop its old results (ON DELETE CASCADE), keep the id stable.
  Statement find(db_, "SELECT id FROM runs WHERE key = ?1");
  find.Bind(1, run.key);
  int64_t id = 0;
  if (find.Step()) {
    id = find.Int(0);
    find.Reset();
    Statement del_scores(db_, "DELETE FROM scores WHERE run_id = ?1");
    del_scores.Bind(1, id).Run();
    Statement del_summaries(db_, "DELETE FROM summaries WHERE run_id = ?1");
    del_summaries.Bind(1, id).Run();
    Statement up(db_,
                 "UPDATE runs SET params = ?2, embedder = ?3, model_hash = ?4, heads = ?5, "
                 "started_at = ?6, finished_at = NULL WHERE id = ?1");
    up.Bind(1, id)
        .Bind(2, run.params_json)
        .Bind(3, run.embedder)
        .Bind(4, run.model_hash)
        .Bind(5, heads)
        .Bind(6, NowUtc())
        .Run();
  } else {
    Statement ins(db_,
                  "INSERT INTO runs(key, params, embedder, model_hash, heads, started_at) "
                  "VALUES (?1,?2,?3,?4,?5,?6)");
    ins.Bind(1, run.key)
        .Bind(2, run.params_json)
        .Bind(3, run.embedder)
        .Bind(4, run.model_hash)
        .Bind(5, heads)
        .Bind(6, NowUtc())
        .Run();
    id = sqlite3_last_insert_rowid(db_);
  }
  Flush();
  return id;
}

void ReviewStore::FinishRun(int64_t run_id) {
  Begin();
  Statement up(db_, "UPDATE runs SET finished_at = ?2 WHERE id = ?1");
  up.Bind(1, run_id).Bind(2, NowUtc()).Run();
  Flush();
}

void ReviewStore::AddScores(int64_t run_id, const std::string& scope,
                            const std::vector<ScoreRow>& rows) {
  Begin();
  for (const ScoreRow& row : rows) {
    stmts_->add_score.Bind(1, run_id)
        .Bind(2, scope)
        .Bind(3, row.sentence_id)
        .Bind(4, row.weight)
        .BindBlob(4 + 1, std::string_view(reinterpret_cast<const char*>(row.head_weights.data()),
                                          row.head_weights.size() * sizeof(float)))
        .Run();
  }
  MaybeCommit();
}

int64_t ReviewStore::AddSummary(const StoredSummary& summary) {
  Begin();
  Statement ins(db_,
                "INSERT OR REPLACE INTO summaries(run_id, scope, subject, text, sentence_ids, "
                "units_in, units_out, unit, embedder, tokenizer, tokens_in, tokens_out) "
                "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
  ins.Bind(1, summary.run_id)
      .Bind(2, summary.scope)
      .Bind(3, summary.subject)
      .Bind(4, summary.text)
      .Bind(5, JoinIds(summary.sentence_ids))
      .Bind(6, summary.units_in)
      .Bind(7, summary.units_out)
      .Bind(8, summary.unit)
      .Bind(9, summary.embedder);
  if (summary.tokenizer.empty()) {
    ins.BindNull(10).BindNull(11).BindNull(12);
  } else {
    ins.Bind(10, summary.tokenizer).Bind(11, summary.tokens_in).Bind(12, summary.tokens_out);
  }
  ins.Run();
  int64_t id = sqlite3_last_insert_rowid(db_);
  MaybeCommit();
  return id;
}

namespace {
// The first row of a runs query (columns: id, key, params, embedder, model_hash, started_at,
// finished_at), if any.
std::optional<RunInfo> FirstRun(Statement& q) {
  if (!q.Step()) return std::nullopt;
  RunInfo r{q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), q.Text(6)};
  q.Reset();
  return r;
}
constexpr const char* kRunColumns =
    "SELECT id, key, params, embedder, model_hash, started_at, finished_at FROM runs ";
}  // namespace

std::optional<RunInfo> ReviewStore::LatestRun(const std::string& scope) {
  Flush();
  Statement q(db_, std::string(kRunColumns) +
                       "WHERE finished_at IS NOT NULL AND (?1 = '' OR EXISTS (SELECT 1 FROM "
                       "summaries s WHERE s.run_id = runs.id AND s.scope = ?1)) "
                       "ORDER BY finished_at DESC, id DESC LIMIT 1");
  q.Bind(1, scope);
  return FirstRun(q);
}

std::optional<RunInfo> ReviewStore::GetRun(int64_t run_id) {
  Flush();
  Statement q(db_, std::string(kRunColumns) + "WHERE id = ?1");
  q.Bind(1, run_id);
  return FirstRun(q);
}

void ReviewStore::SetRunHeads(int64_t run_id, const std::vector<std::string>& head_names) {
  Begin();
  std::string heads;
  for (size_t i = 0; i < head_names.size(); ++i) heads += (i ? "\t" : "") + head_names[i];
  Statement up(db_, "UPDATE runs SET heads = ?2 WHERE id = ?1");
  up.Bind(1, run_id).Bind(2, heads).Run();
}

std::vector<std::string> ReviewStore::RunHeadNames(int64_t run_id) {
  Statement q(db_, "SELECT heads FROM runs WHERE id = ?1");
  q.Bind(1, run_id);
  std::vector<std::string> out;
  if (q.Step()) {
    out = SplitTabs(q.Text(0));
    q.Reset();
  }
  return out;
}

std::vector<StoredSummary> ReviewStore::GetSummaries(int64_t run_id, const std::string& scope,
                                                     const std::string& subject) {
  Flush();
  std::vector<StoredSummary> out;
  Statement q(db_,
              "SELECT id, run_id, scope, subject, text, sentence_ids, units_in, units_out, unit, "
              "embedder, tokenizer, tokens_in, tokens_out FROM summaries WHERE run_id = ?1 AND (?2 "
              "= '' OR scope = ?2) "
              "AND (?3 = '' OR subject = ?3) ORDER BY scope, subject");
  q.Bind(1, run_id).Bind(2, scope).Bind(3, subject);
  while (q.Step()) {
    out.push_back({q.Int(0), q.Int(1), q.Text(2), q.Text(3), q.Text(4), ParseIds(q.Text(5)),
                   q.Int(6), q.Int(7), q.Text(8), q.Text(9), q.Text(10), q.Int(11), q.Int(12)});
  }
  return out;
}

std::vector<std::pair<int64_t, ScoreRow>> ReviewStore::GetScores(
    int64_t run_id, const std::string& scope, const std::vector<int64_t>& sentence_ids) {
  Flush();
  std::vector<std::pair<int64_t, ScoreRow>> out;
  Statement q(db_,
              "SELECT weight, head_weights FROM scores WHERE run_id = ?1 AND scope = ?2 AND "
              "sentence_id = ?3");
  for (int64_t sid : sentence_ids) {
    q.Bind(1, run_id).Bind(2, scope).Bind(3, sid);
    if (q.Step()) {
      ScoreRow row;
      row.sentence_id = sid;
      row.weight = q.Double(0);
      std::string blob = q.Blob(1);
      row.head_weights.resize(blob.size() / sizeof(float));
      std::memcpy(row.head_weights.data(), blob.data(), row.head_weights.size() * sizeof(float));
      out.emplace_back(sid, std::move(row));
      q.Reset();
    }
  }
  return out;
}

}  // namespace revsum
