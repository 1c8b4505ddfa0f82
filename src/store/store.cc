#include "revsum/store.h"

#include <sqlite3.h>

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "revsum/hash.h"
#include "statement.h"

namespace revsum {

using store_internal::Fail;
using store_internal::NowUtc;
using store_internal::Statement;

namespace {

void Fnv1a(uint64_t* h, std::string_view s) { *h = Fnv1a64(s, *h); }

// The one insert of a summary row (AddSummary, AddSummaries), and its binding.
constexpr const char* kInsertSummary =
    "INSERT OR REPLACE INTO summaries(run_id, scope, subject, text, sentence_ids, units_in, "
    "units_out, unit, embedder, tokenizer, tokens_in, tokens_out, reviews_covered) "
    "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)";

Statement& BindSummary(Statement& ins, const StoredSummary& summary) {
  ins.Bind(1, summary.run_id)
      .Bind(2, summary.scope)
      .Bind(3, summary.subject)
      .Bind(4, summary.text)
      .Bind(5, store_internal::JoinIds(summary.sentence_ids))
      .Bind(6, summary.units_in)
      .Bind(7, summary.units_out)
      .Bind(8, summary.unit)
      .Bind(9, summary.embedder)
      .Bind(13, summary.reviews_covered);
  if (summary.tokenizer.empty()) return ins.BindNull(10).BindNull(11).BindNull(12);
  return ins.Bind(10, summary.tokenizer).Bind(11, summary.tokens_in).Bind(12, summary.tokens_out);
}

}  // namespace

namespace {
void Fnv1aTagged(uint64_t* h, const std::optional<double>& v) {
  if (!v) return Fnv1a(h, std::string_view("\0", 1));
  double d = *v == 0 ? 0.0 : *v;  // -0 and 0 are one rating
  char bytes[1 + sizeof d] = {1};
  std::memcpy(bytes + 1, &d, sizeof d);
  Fnv1a(h, std::string_view(bytes, sizeof bytes));
}
void Fnv1aTagged(uint64_t* h, const std::optional<int64_t>& v) {
  if (!v) return Fnv1a(h, std::string_view("\0", 1));
  char bytes[1 + sizeof(int64_t)] = {1};
  std::memcpy(bytes + 1, &*v, sizeof(int64_t));
  Fnv1a(h, std::string_view(bytes, sizeof bytes));
}
constexpr std::string_view kNul("\0", 1);

uint64_t ReviewIdentityHash(std::string_view product, std::string_view external_id,
                            const std::optional<double>& rating, std::string_view title,
                            std::string_view text, const std::optional<int64_t>& time) {
  uint64_t h = kFnv1a64Offset;
  for (std::string_view field : {product, external_id, title, text}) {
    Fnv1a(&h, field);
    Fnv1a(&h, kNul);
  }
  Fnv1aTagged(&h, rating);
  Fnv1aTagged(&h, time);
  return h;
}
}  // namespace

uint64_t ReviewContentHash(const Review& review) {
  return ReviewIdentityHash(review.product, review.external_id, review.rating, review.title,
                            review.text, review.time);
}

namespace store_internal {

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

std::string JoinTabs(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) s += (k ? "\t" : "") + names[k];
  return s;
}

uint64_t RejectContentHash(std::string_view /*source*/, uint64_t line, std::string_view reason,
                           std::string_view raw) {
  uint64_t h = kFnv1a64Offset;
  Fnv1a(&h, reason);
  Fnv1a(&h, kNul);
  if (raw.empty()) {
    // A file-level reject ("truncated gzip stream") has no bytes of its own: the reason and the
    // line tell it apart, not the path, so the same dump under another path adds nothing.
    Fnv1a(&h, std::to_string(line));
  } else {
    Fnv1a(&h, raw);
  }
  return h;
}

std::string FloatsJson(const std::vector<float>& values) {
  // Each value as printf's "%.6g" of the double writes it: std::to_chars with chars_format::general
  // and a precision is specified to give exactly that text, without printf's format parsing (this
  // runs for every stored sentence score).
  std::string out = "[";
  char buf[64];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    const std::to_chars_result r = std::to_chars(
        buf, buf + sizeof buf, static_cast<double>(values[i]), std::chars_format::general, 6);
    out.append(buf, r.ptr);
  }
  out += ']';
  return out;
}

std::vector<float> ParseFloatsJson(std::string_view json) {
  std::vector<float> out;
  std::string s(json);
  const char* p = s.c_str();
  while (*p) {
    if (*p == '-' || *p == '.' || (*p >= '0' && *p <= '9')) {
      char* end;
      out.push_back(std::strtof(p, &end));
      p = end;
    } else {
      ++p;
    }
  }
  return out;
}

namespace {
std::string_view ArgText(sqlite3_value* v) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return p ? std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(v))) : "";
}
std::string_view ArgBlob(sqlite3_value* v) {
  const auto* p = static_cast<const char*>(sqlite3_value_blob(v));
  return p ? std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(v))) : "";
}
template <typename T>
std::optional<T> ArgOptional(sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return std::nullopt;
  if constexpr (std::is_same_v<T, double>)
    return sqlite3_value_double(v);
  else
    return sqlite3_value_int64(v);
}
void ResultText(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text64(ctx, s.data(), s.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
}  // namespace

void RegisterStoreFunctions(sqlite3* db) {
  constexpr int kFlags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
  auto add = [&](const char* name, int args, void (*fn)(sqlite3_context*, int, sqlite3_value**)) {
    if (sqlite3_create_function_v2(db, name, args, kFlags, nullptr, fn, nullptr, nullptr,
                                   nullptr) != SQLITE_OK) {
      Fail(db, std::string("registering ") + name);
    }
  };
  add("revsum_review_hash", 6, [](sqlite3_context* ctx, int, sqlite3_value** a) {
    sqlite3_result_int64(ctx, static_cast<int64_t>(ReviewIdentityHash(
                                  ArgText(a[0]), ArgText(a[1]), ArgOptional<double>(a[2]),
                                  ArgText(a[3]), ArgText(a[4]), ArgOptional<int64_t>(a[5]))));
  });
  add("revsum_reject_hash", 4, [](sqlite3_context* ctx, int, sqlite3_value** a) {
    sqlite3_result_int64(ctx, static_cast<int64_t>(RejectContentHash(
                                  ArgText(a[0]), static_cast<uint64_t>(sqlite3_value_int64(a[1])),
                                  ArgText(a[2]), ArgBlob(a[3]))));
  });
  add("revsum_fts_text", 1, [](sqlite3_context* ctx, int, sqlite3_value** a) {
    ResultText(ctx, FtsIndexText(ArgText(a[0])));
  });
  add("revsum_cjk_grams", 1, [](sqlite3_context* ctx, int, sqlite3_value** a) {
    const std::string grams = FtsCjkGrams(ArgText(a[0]));
    if (grams.empty()) {
      sqlite3_result_null(ctx);
    } else {
      ResultText(ctx, grams);
    }
  });
  add("revsum_floats_json", 1, [](sqlite3_context* ctx, int, sqlite3_value** a) {
    std::string_view blob = ArgBlob(a[0]);
    std::vector<float> values(blob.size() / sizeof(float));
    if (!values.empty()) std::memcpy(values.data(), blob.data(), values.size() * sizeof(float));
    ResultText(ctx, FloatsJson(values));
  });
}

}  // namespace store_internal

struct ReviewStore::Statements {
  explicit Statements(sqlite3* db)
      : find_product(db, "SELECT id FROM products WHERE key = ?1"),
        add_product(db, "INSERT INTO products(key) VALUES (?1)"),
        add_review(db,
                   "INSERT OR IGNORE INTO reviews(source_id, line, product_id, external_id, rating,"
                   " title, text, time, content_hash) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"),
        add_sentence(db,
                     "INSERT INTO sentences(review_id, idx, begin, end, text, tokens, search) "
                     "VALUES (?1,?2,?3,?4,?5,?6,?7)"),
        add_fts(db, "INSERT INTO sentences_fts(rowid, text, search) VALUES (?1, ?2, ?3)"),
        add_reject(db,
                   "INSERT OR IGNORE INTO rejects(source_id, line, reason, raw, content_hash) "
                   "VALUES (?1,?2,?3,?4,?5)"),
        add_score(db,
                  "INSERT OR REPLACE INTO scores(run_id, scope, sentence_id, weight, head_weights,"
                  " opinion, salience) VALUES (?1,?2,?3,?4,?5,?6,?7)") {}
  Statement find_product, add_product, add_review, add_sentence, add_fts, add_reject, add_score;
  std::unordered_map<std::string, int64_t> product_ids;
};

namespace {

// A file: URI for `path` (for immutable=1), with the characters URIs reserve escaped.
std::string FileUri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20 || c == 0x7F) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      uri += buf;
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri;
}

sqlite3* OpenConnection(const std::string& name, int flags, const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(name.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw StoreError(path + ": cannot open database: " + msg);
  }
  sqlite3_busy_timeout(db, 10000);
  sqlite3_extended_result_codes(db, 1);
  return db;
}

// Runs `sql` until it is not SQLITE_BUSY/LOCKED or `seconds` have passed (for the statements whose
// locks SQLite's busy handler does not wait for, such as switching the journal mode).
int ExecRetrying(sqlite3* db, const char* sql, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    int primary = rc & 0xFF;
    if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) ||
        std::chrono::steady_clock::now() > deadline) {
      return rc;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

std::unique_ptr<ReviewStore> ReviewStore::Open(const std::string& path,
                                               const StoreOptions& options) {
  // SQLite counts every allocation under a global mutex for sqlite3_memory_used(), which revsum
  // never reads; without the count the ingest writer's allocations take no lock. Only possible
  // before SQLite's first use in the process (later it returns SQLITE_MISUSE and nothing changes).
  static const int kNoMemStatus = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)kNoMemStatus;
  // SQLite reads "" as a private temporary database and ":memory:" as one in memory: nothing would
  // be kept, so neither is a store.
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) {
    throw StoreError("--db: '" + path +
                     "' is not a database file path; give a file, e.g. --db reviews.db");
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    throw StoreError(path + ": is a directory, not a database file");
  // A FIFO would hang the open, a device would get a "-journal" file beside it.
  if (exists && !S_ISREG(st.st_mode)) {
    throw StoreError(path +
                     ": not a regular file (a FIFO, device or socket); give --db a "
                     "database file");
  }
  sqlite3* db = nullptr;
  if (options.read_only) {
    if (!exists) throw StoreError(path + ": no such database; create it with `revsum ingest`");
    db = OpenConnection(path, SQLITE_OPEN_READONLY, path);
    if (sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) !=
        SQLITE_OK) {
      // A WAL database in a folder we cannot write cannot create its -shm index, and SQLite then
      // opens it only as immutable, which ignores the -wal file. Committed rows a writer left
      // there (it stopped without a checkpoint, or the store was copied with its -wal) are part
      // of the store, so with a non-empty -wal it is refused rather than read without them.
      sqlite3_close(db);
      struct stat wal {};
      if (::stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0) {
        throw StoreError(path + ": cannot be read in this folder: its write-ahead log " + path +
                         "-wal holds rows not yet in the database file, which SQLite reads only "
                         "where it can create " +
                         path +
                         "-shm; copy the store with its -wal "
                         "file to a writable folder, or open it once with write access");
      }
      db = OpenConnection(FileUri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                          path);
    }
  } else {
    db = OpenConnection(path, SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE), path);
  }
  auto store = std::unique_ptr<ReviewStore>(new ReviewStore(path, db, options));
  store_internal::RegisterStoreFunctions(db);
  if (options.read_only) {
    store_internal::CheckIsRevsumStore(db, path);
    Statement v(db, "PRAGMA user_version");
    int version = v.Step() ? static_cast<int>(v.Int(0)) : 0;
    v.Reset();
    if (version != kSchemaVersion) {
      throw StoreError(
          path + ": a revsum store at schema " + std::to_string(version) +
          ", this revsum reads schema " + std::to_string(kSchemaVersion) +
          "; upgrade it with any writing command (e.g. `revsum ingest` of nothing new)");
    }
  } else {
    // Check, then write: a file that is refused is left exactly as it was. The check and the
    // migrations share one write transaction, so concurrent first opens wait for each other.
    if (ExecRetrying(db, "BEGIN IMMEDIATE", 30) != SQLITE_OK) {
      Fail(db, "locking the database to check its schema");
    }
    try {
      store_internal::CheckIsRevsumStore(db, path);
      store_internal::Migrate(db);
      store->Exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    if (ExecRetrying(db, "PRAGMA journal_mode = WAL", 30) != SQLITE_OK) {
      Fail(db, "switching to WAL");
    }
    store->Exec("PRAGMA synchronous = NORMAL");
    // A 64 MiB page cache keeps the B-tree interiors of reviews, sentences and the FTS index in
    // memory during bulk ingest (the default 2 MiB re-reads them from the OS for every batch).
    store->Exec("PRAGMA cache_size = -65536");
    store->Exec("PRAGMA temp_store = MEMORY");
    // After a checkpoint the WAL file is cut back to this size (see Flush for the bound on growth).
    store->Exec("PRAGMA journal_size_limit = 67108864");
    // Checkpoint when the WAL holds 64 MiB (16,384 pages of 4 KiB), the bound BoundWal keeps,
    // instead of SQLite's 4 MiB: a page rewritten by several commits (index pages, FTS5 segments
    // being merged) is copied into the database once, and the fsyncs of a checkpoint come 16
    // times less often. Measured on a 200,000-review ingest: 20% fewer bytes written.
    store->Exec("PRAGMA wal_autocheckpoint = 16384");
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
    throw StoreError(path_ + ": " + sql + ": " + msg +
                     store_internal::DiskRoomNote(db_, sqlite3_db_filename(db_, "main")));
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
  const bool committed = in_transaction_ && !sqlite3_get_autocommit(db_);
  if (committed) Exec("COMMIT");
  in_transaction_ = false;
  pending_ = 0;
  if (committed) BoundWal();
}

void ReviewStore::BoundWal() {
  // SQLite's automatic checkpoints are PASSIVE: while a reader holds an old snapshot they cannot
  // reach the end of the WAL, and the file grows without bound (662 MB seen during a 200k-review
  // ingest beside a summarize). Past wal_bound_bytes the writer runs a TRUNCATE checkpoint, which
  // waits (busy timeout, 10 s) for readers to move to a newer snapshot, then empties the file.
  struct stat st {};
  if (options_.read_only || ::stat((path_ + "-wal").c_str(), &st) != 0 ||
      static_cast<uint64_t>(st.st_size) < options_.wal_bound_bytes) {
    return;
  }
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
}

void ReviewStore::Rollback() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  in_transaction_ = false;
  pending_ = 0;
  if (stmts_) stmts_->product_ids.clear();  // ids of rolled-back products are gone
}

namespace store_internal {

void RecountSource(sqlite3* db, int64_t source_id) {
  struct Set {
    std::set<int64_t> parts;  // K present
    std::string oldest;       // earliest ingested_at of its parts: how current the set is
    int64_t counts[4] = {0, 0, 0, 0};
  };
  std::map<int64_t, Set> sets;  // by N
  Statement q(db,
              "SELECT shard, shards, records, ingested, duplicates, rejected, "
              "coalesce(ingested_at, '') FROM source_parts WHERE source_id = ?1");
  q.Bind(1, source_id);
  while (q.Step()) {
    Set& set = sets[q.Int(1)];
    set.oldest = set.parts.empty() ? q.Text(6) : std::min(set.oldest, q.Text(6));
    set.parts.insert(q.Int(0));
    for (int c = 0; c < 4; ++c) set.counts[c] += q.Int(2 + c);
  }
  if (sets.empty()) return;
  // Coverage of the dump: K present / N (a 0/0 set, counts from before schema 10, is whole).
  const auto coverage = [](int64_t n, const Set& set) {
    return n <= 0 ? 1.0 : static_cast<double>(set.parts.size()) / static_cast<double>(n);
  };
  const Set* best = nullptr;
  double best_coverage = -1;
  for (const auto& [n, set] : sets) {
    const double c = std::min(coverage(n, set), 1.0);
    // A set is as current as its oldest part: a fresh 1/2 beside a stale 2/2 does not outrank
    // a whole-dump ingest between them. Ties go to the larger N (later in the map).
    if (best == nullptr || c > best_coverage ||
        (c == best_coverage && set.oldest >= best->oldest)) {
      best = &set;
      best_coverage = c;
    }
  }
  Statement up(db,
               "UPDATE sources SET records = ?2, ingested = ?3, duplicates = ?4, rejected = ?5 "
               "WHERE id = ?1");
  up.Bind(1, source_id);
  for (int c = 0; c < 4; ++c) up.Bind(2 + c, best->counts[c]);
  up.Run();
}

}  // namespace store_internal

int64_t ReviewStore::AddSource(const std::string& path, const std::string& format,
                               uint64_t size_bytes) {
  Begin();
  Statement up(db_,
               "INSERT INTO sources(path, format, size_bytes, status) "
               "VALUES (?1, ?2, ?3, 'ingesting') "
               "ON CONFLICT(path) DO UPDATE SET format = excluded.format, "
               "size_bytes = excluded.size_bytes, status = 'ingesting'");
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

void ReviewStore::Widen(std::optional<RatingRange>& range, double rating) {
  const bool label = rating == 0 || rating == 1;
  if (!range) {
    range = RatingRange{rating, rating, label};
  } else {
    range->min = std::min(range->min, rating);
    range->max = std::max(range->max, rating);
    range->labels_only = range->labels_only && label;
  }
  ++range->count;
  range->stars += rating >= 1 && rating <= 5;
  range->tenths += rating >= 0 && rating <= 10;
}

void ReviewStore::FinishSource(int64_t source_id, uint64_t records, uint64_t ingested,
                               uint64_t duplicates, uint64_t rejected,
                               const std::optional<RatingRange>& ratings, uint32_t shard,
                               uint32_t shards) {
  Begin();
  const std::string now = NowUtc();
  Statement part(db_,
                 "INSERT INTO source_parts(source_id, shard, shards, records, ingested, "
                 "duplicates, rejected, ingested_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
                 "ON CONFLICT(source_id, shard, shards) DO UPDATE SET records = excluded.records, "
                 "ingested = excluded.ingested, duplicates = excluded.duplicates, "
                 "rejected = excluded.rejected, ingested_at = excluded.ingested_at");
  part.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(shard))
      .Bind(3, static_cast<int64_t>(shards))
      .Bind(4, static_cast<int64_t>(records))
      .Bind(5, static_cast<int64_t>(ingested))
      .Bind(6, static_cast<int64_t>(duplicates))
      .Bind(7, static_cast<int64_t>(rejected))
      .Bind(8, now)
      .Run();
  Statement st(db_, "UPDATE sources SET ingested_at = ?2, status = 'done' WHERE id = ?1");
  st.Bind(1, source_id).Bind(2, now).Run();
  store_internal::RecountSource(db_, source_id);
  if (ratings) {
    // The range: the union with what earlier ingests of this path saw (min/max of NULL and x is
    // NULL in SQL, hence coalesce). The counts: this ingest's, which read the whole dump.
    Statement r(db_,
                "UPDATE sources SET rating_min = min(coalesce(rating_min, ?2), ?2), "
                "rating_max = max(coalesce(rating_max, ?3), ?3), "
                "rating_labels = coalesce(rating_labels, 1) AND ?4, rating_count = ?5, "
                "rating_stars = ?6, rating_tenths = ?7 WHERE id = ?1");
    r.Bind(1, source_id)
        .Bind(2, ratings->min)
        .Bind(3, ratings->max)
        .Bind(4, static_cast<int64_t>(ratings->labels_only))
        .Bind(5, static_cast<int64_t>(ratings->count))
        .Bind(6, static_cast<int64_t>(ratings->stars))
        .Bind(7, static_cast<int64_t>(ratings->tenths))
        .Run();
  }
  Flush();
}

ReviewStore::PreparedReview ReviewStore::Prepare(const Review& review,
                                                 const std::vector<Sentence>& sentences) {
  PreparedReview prepared;
  prepared.content_hash = ReviewContentHash(review);
  for (size_t i = 0; i < sentences.size(); ++i) {
    if (FtsIndexTextIsText(sentences[i].text)) continue;
    prepared.fts_texts.resize(sentences.size());
    prepared.fts_texts[i] = FtsCjkGrams(sentences[i].text);
  }
  return prepared;
}

bool ReviewStore::AddReview(int64_t source_id, const Review& review,
                            const std::vector<Sentence>& sentences) {
  return AddReview(source_id, review, sentences, Prepare(review, sentences));
}

bool ReviewStore::AddReview(int64_t source_id, const Review& review,
                            const std::vector<Sentence>& sentences,
                            const PreparedReview& prepared) {
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
      .BindStatic(6, review.title)
      .BindStatic(7, review.text)
      .Bind(8, review.time)
      .Bind(9, static_cast<int64_t>(prepared.content_hash))
      .Run();
  if (sqlite3_changes(db_) == 0) return false;  // already stored
  int64_t review_id = sqlite3_last_insert_rowid(db_);
  for (size_t i = 0; i < sentences.size(); ++i) {
    const Sentence& sentence = sentences[i];
    s.add_sentence.Bind(1, review_id)
        .Bind(2, int64_t{sentence.index})
        .Bind(3, int64_t{sentence.begin})
        .Bind(4, int64_t{sentence.end})
        .BindStatic(5, sentence.text)
        .Bind(6, sentence.tokens >= 0 ? std::optional<int64_t>(sentence.tokens) : std::nullopt);
    const bool cjk = i < prepared.fts_texts.size() && !prepared.fts_texts[i].empty();
    if (cjk) {
      s.add_sentence.BindStatic(7, prepared.fts_texts[i]);
    } else {
      s.add_sentence.BindNull(7);
    }
    s.add_sentence.Run();
    s.add_fts.Bind(1, static_cast<int64_t>(sqlite3_last_insert_rowid(db_)))
        .BindStatic(2, sentence.text);
    if (cjk) {
      s.add_fts.BindStatic(3, prepared.fts_texts[i]);
    } else {
      s.add_fts.BindNull(3);
    }
    s.add_fts.Run();
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
      .Bind(5, static_cast<int64_t>(store_internal::RejectContentHash(reject.source, reject.line,
                                                                      reject.reason, reject.raw)))
      .Run();
  MaybeCommit();
}

StoreStats ReviewStore::Stats() {
  Flush();
  StoreStats st;
  Statement q(db_,
              "SELECT (SELECT count(*) FROM sources), (SELECT count(*) FROM products),"
              " (SELECT count(*) FROM reviews), (SELECT count(*) FROM sentences),"
              " (SELECT count(*) FROM rejects),"
              " (SELECT count(*) FROM runs WHERE finished_at IS NOT NULL),"
              " (SELECT count(*) FROM summaries s JOIN runs r ON r.id = s.run_id"
              "   WHERE r.finished_at IS NOT NULL),"
              " (SELECT count(*) FROM sources WHERE status = 'ingesting'),"
              " (SELECT count(*) FROM runs WHERE finished_at IS NULL)");
  if (q.Step()) {
    st.sources = q.Int(0);
    st.products = q.Int(1);
    st.reviews = q.Int(2);
    st.sentences = q.Int(3);
    st.rejects = q.Int(4);
    st.runs = q.Int(5);
    st.summaries = q.Int(6);
    st.unfinished_ingests = q.Int(7);
    st.unfinished_runs = q.Int(8);
    q.Reset();
  }
  st.avg_sentences_per_review =
      st.reviews ? static_cast<double>(st.sentences) / static_cast<double>(st.reviews) : 0;
  st.schema_version = kSchemaVersion;
  return st;
}

namespace {
constexpr const char* kReviewColumns =
    "SELECT r.id, p.key, r.external_id, s.path, r.line, r.rating, r.title, r.text, r.citation "
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
  r.citation = q.Text(8);
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

std::vector<std::pair<int64_t, std::string>> ReviewStore::FindCitations(const std::string& text,
                                                                        size_t limit) {
  Flush();
  std::vector<std::pair<int64_t, std::string>> out;
  Statement exact(db_, "SELECT id, citation FROM reviews WHERE citation = ?1 ORDER BY id LIMIT ?2");
  exact.Bind(1, text).Bind(2, static_cast<int64_t>(limit));
  while (exact.Step()) out.emplace_back(exact.Int(0), exact.Text(1));
  if (!out.empty() || text.empty()) return out;
  // Every string that starts with `text` sorts in [text, upper): upper is `text` with its last
  // byte below 0xFF raised by one and the rest cut off (BINARY collation compares bytes).
  std::string upper = text;
  while (!upper.empty() && static_cast<unsigned char>(upper.back()) == 0xFF) upper.pop_back();
  Statement prefix(db_, upper.empty() ? "SELECT id, citation FROM reviews WHERE citation >= ?1 "
                                        "ORDER BY citation, id LIMIT ?3"
                                      : "SELECT id, citation FROM reviews WHERE citation >= ?1 AND "
                                        "citation < ?2 ORDER BY citation, id LIMIT ?3");
  if (!upper.empty()) upper.back() = static_cast<char>(upper.back() + 1);
  prefix.Bind(1, text);
  if (!upper.empty()) prefix.Bind(2, upper);
  prefix.Bind(3, static_cast<int64_t>(limit));
  while (prefix.Step()) out.emplace_back(prefix.Int(0), prefix.Text(1));
  return out;
}

std::vector<std::string> ReviewStore::CitationNeighbours(const std::string& citation, size_t n) {
  Flush();
  std::vector<std::string> out;
  Statement below(db_,
                  "SELECT citation FROM reviews WHERE citation < ?1 ORDER BY citation DESC "
                  "LIMIT ?2");
  Statement above(db_,
                  "SELECT citation FROM reviews WHERE citation > ?1 ORDER BY citation LIMIT ?2");
  Statement same(db_,
                 "SELECT count(*) > 1 FROM (SELECT 1 FROM reviews WHERE citation = ?1 LIMIT 2)");
  for (Statement* q : {&below, &above}) {
    q->Bind(1, citation).Bind(2, static_cast<int64_t>(n));
    while (q->Step()) out.push_back(q->Text(0));
  }
  same.Bind(1, citation);
  if (same.Step() && same.Int(0)) out.push_back(citation);
  return out;
}

int64_t ReviewStore::MaxReviewId() {
  Flush();
  Statement q(db_, "SELECT coalesce(max(id), 0) FROM reviews");
  int64_t id = q.Step() ? q.Int(0) : 0;
  q.Reset();
  return id;
}

std::vector<StoredReview> ReviewStore::GetProductReviews(const std::string& product,
                                                         int64_t up_to) {
  Flush();
  std::vector<StoredReview> out;
  std::unordered_map<int64_t, size_t> position;
  Statement q(db_, std::string(kReviewColumns) + "WHERE p.key = ?1 AND r.id <= ?2 ORDER BY r.id");
  q.Bind(1, product).Bind(2, up_to);
  while (q.Step()) {
    position[q.Int(0)] = out.size();
    out.push_back(ReadReviewRow(q));
  }
  Statement s(db_,
              "SELECT s.id, s.review_id, s.idx, s.begin, s.end, s.text, s.tokens FROM sentences s "
              "JOIN reviews r ON r.id = s.review_id JOIN products p ON p.id = r.product_id "
              "WHERE p.key = ?1 AND r.id <= ?2 ORDER BY s.review_id, s.idx");
  s.Bind(1, product).Bind(2, up_to);
  while (s.Step()) out[position.at(s.Int(1))].sentences.push_back(ReadSentenceRow(s));
  return out;
}

namespace {
// The WHERE terms shared by the batch reads: ?1 = up_to, ?2..?5 = the filter's bounds (NULL when
// unset; a NULL rating or time fails a set bound because the comparison is NULL).
constexpr const char* kFilterTerms =
    "r.id <= ?1 AND (?2 IS NULL OR r.rating >= ?2) AND (?3 IS NULL OR r.rating <= ?3) AND "
    "(?4 IS NULL OR r.time >= ?4) AND (?5 IS NULL OR r.time <= ?5)";

void BindFilter(Statement& q, int64_t up_to, const ReviewFilter& filter) {
  q.Bind(1, up_to).Bind(2, filter.min_rating).Bind(3, filter.max_rating);
  q.Bind(4, filter.since).Bind(5, filter.until);
}

// Product keys per batch query: well under SQLite's bound on host parameters.
constexpr size_t kKeysPerQuery = 512;
}  // namespace

std::vector<std::pair<std::string, int64_t>> ReviewStore::ProductReviewCounts(
    int64_t up_to, const ReviewFilter& filter) {
  std::vector<std::pair<std::string, int64_t>> out;
  Statement q(db_, std::string("SELECT p.key, count(*) FROM products p JOIN reviews r ON "
                               "r.product_id = p.id WHERE ") +
                       kFilterTerms + " GROUP BY p.id ORDER BY p.key");
  BindFilter(q, up_to, filter);
  while (q.Step()) out.emplace_back(q.Text(0), q.Int(1));
  return out;
}

std::vector<std::vector<StoredReview>> ReviewStore::GetProductsReviews(
    const std::vector<std::string>& products, int64_t up_to, const ReviewFilter& filter) {
  std::vector<std::vector<StoredReview>> out(products.size());
  std::unordered_map<std::string, size_t> slot;
  for (size_t i = 0; i < products.size(); ++i) slot.emplace(products[i], i);
  for (size_t first = 0; first < products.size(); first += kKeysPerQuery) {
    const size_t count = std::min(kKeysPerQuery, products.size() - first);
    std::string keys = "p.key IN (";
    for (size_t k = 0; k < count; ++k) keys += (k ? ",?" : "?") + std::to_string(6 + k);
    keys += ") AND ";
    auto bind = [&](Statement& q) {
      BindFilter(q, up_to, filter);
      for (size_t k = 0; k < count; ++k) q.Bind(static_cast<int>(6 + k), products[first + k]);
    };
    // review id -> (product slot, position in it)
    std::unordered_map<int64_t, std::pair<size_t, size_t>> position;
    Statement q(db_,
                std::string(kReviewColumns) + "WHERE " + keys + kFilterTerms + " ORDER BY r.id");
    bind(q);
    while (q.Step()) {
      StoredReview review = ReadReviewRow(q);
      const auto at = slot.find(review.product);
      if (at == slot.end()) continue;  // cannot happen: the key came from `products`
      std::vector<StoredReview>& reviews = out[at->second];
      position.emplace(review.id, std::make_pair(at->second, reviews.size()));
      reviews.push_back(std::move(review));
    }
    Statement s(db_, std::string("SELECT s.id, s.review_id, s.idx, s.begin, s.end, s.text, "
                                 "s.tokens FROM products p JOIN reviews r ON r.product_id = p.id "
                                 "JOIN sentences s ON s.review_id = r.id WHERE ") +
                         keys + kFilterTerms + " ORDER BY s.review_id, s.idx");
    bind(s);
    while (s.Step()) {
      const auto at = position.find(s.Int(1));
      if (at == position.end()) continue;
      out[at->second.first][at->second.second].sentences.push_back(ReadSentenceRow(s));
    }
  }
  return out;
}

void ReviewStore::AddSummaries(const std::vector<StoredSummary>& summaries) {
  if (summaries.empty()) return;
  Begin();
  Statement ins(db_, kInsertSummary);
  for (const StoredSummary& summary : summaries) BindSummary(ins, summary).Run();
  MaybeCommit();
}

void ReviewStore::AddPointsOfProducts(
    int64_t run_id, const std::vector<std::pair<std::string, std::vector<StoredPoint>>>& points) {
  if (points.empty()) return;
  Begin();
  Statement point(db_,
                  "INSERT INTO points(run_id, product, idx, text, sentence_id, review, polarity, "
                  "support, share, aspect, weight) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                  "?10, ?11)");
  Statement member(db_,
                   "INSERT INTO point_members(point_id, sentence_id, review_id, similarity) "
                   "VALUES (?1, ?2, ?3, ?4)");
  for (const auto& [product, product_points] : points) {
    for (const StoredPoint& p : product_points) {
      point.Bind(1, run_id).Bind(2, product).Bind(3, p.idx).Bind(4, p.text).Bind(5, p.sentence_id);
      point.Bind(6, p.review_id).Bind(7, p.polarity).Bind(8, p.support).Bind(9, p.share);
      if (p.aspect.empty()) {
        point.BindNull(10);
      } else {
        point.Bind(10, p.aspect);
      }
      point.Bind(11, p.weight).Run();
      const int64_t id = sqlite3_last_insert_rowid(db_);
      for (const StoredPointMember& m : p.members) {
        member.Bind(1, id).Bind(2, m.sentence_id).Bind(3, m.review_id).Bind(4, m.similarity).Run();
      }
    }
  }
  MaybeCommit();
}

std::vector<std::string> ReviewStore::Products(int64_t up_to) {
  Flush();
  std::vector<std::string> out;
  Statement q(db_,
              "SELECT key FROM products p WHERE EXISTS (SELECT 1 FROM reviews r WHERE "
              "r.product_id = p.id AND r.id <= ?1) ORDER BY key");
  q.Bind(1, up_to);
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
  return SearchProducts(query, limit, {});
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

int64_t ReviewStore::BeginRun(const RunInfo& run, const std::vector<std::string>& head_names,
                              bool keep_results) {
  Flush();
  Begin();
  const std::string heads = store_internal::JoinTabs(head_names);
  // Same key = same run: drop its old results (ON DELETE CASCADE), keep the id stable.
  Statement find(db_, "SELECT id FROM runs WHERE key = ?1");
  find.Bind(1, run.key);
  int64_t id = 0;
  if (find.Step()) {
    id = find.Int(0);
    find.Reset();
    if (!keep_results) {
      Statement del_scores(db_, "DELETE FROM scores WHERE run_id = ?1");
      del_scores.Bind(1, id).Run();
      Statement del_summaries(db_, "DELETE FROM summaries WHERE run_id = ?1");
      del_summaries.Bind(1, id).Run();
    }
    // An incremental run keeps the finished state and snapshot of the run it updates until
    // FinishRun: a kill leaves every product with valid (earlier or new) results.
    Statement up(db_, keep_results ? "UPDATE runs SET params = ?2, embedder = ?3, model_hash = ?4, "
                                     "heads = ?5, started_at = ?6 WHERE id = ?1"
                                   : "UPDATE runs SET params = ?2, embedder = ?3, model_hash = ?4, "
                                     "heads = ?5, started_at = ?6, finished_at = NULL, "
                                     "snapshot_review_id = ?7 WHERE id = ?1");
    up.Bind(1, id)
        .Bind(2, run.params_json)
        .Bind(3, run.embedder)
        .Bind(4, run.model_hash)
        .Bind(5, heads)
        .Bind(6, NowUtc());
    if (!keep_results) up.Bind(7, run.snapshot_review_id);
    up.Run();
  } else {
    Statement ins(db_,
                  "INSERT INTO runs(key, params, embedder, model_hash, heads, started_at, "
                  "snapshot_review_id) VALUES (?1,?2,?3,?4,?5,?6,?7)");
    ins.Bind(1, run.key)
        .Bind(2, run.params_json)
        .Bind(3, run.embedder)
        .Bind(4, run.model_hash)
        .Bind(5, heads)
        .Bind(6, NowUtc())
        .Bind(7, run.snapshot_review_id)
        .Run();
    id = sqlite3_last_insert_rowid(db_);
  }
  Flush();
  return id;
}

void ReviewStore::DeleteProductResults(int64_t run_id, const std::string& product) {
  Begin();
  Statement scores(db_,
                   "DELETE FROM scores WHERE run_id = ?1 AND scope = 'product' AND sentence_id IN "
                   "(SELECT s.id FROM sentences s JOIN reviews r ON r.id = s.review_id "
                   "JOIN products p ON p.id = r.product_id WHERE p.key = ?2)");
  scores.Bind(1, run_id).Bind(2, product).Run();
  Statement summary(
      db_, "DELETE FROM summaries WHERE run_id = ?1 AND scope = 'product' AND subject = ?2");
  summary.Bind(1, run_id).Bind(2, product).Run();
  MaybeCommit();
}

std::vector<std::string> ReviewStore::ProductsChangedSince(int64_t after, int64_t up_to) {
  Flush();
  std::vector<std::string> out;
  Statement q(db_,
              "SELECT DISTINCT p.key FROM reviews r JOIN products p ON p.id = r.product_id "
              "WHERE r.id > ?1 AND r.id <= ?2 ORDER BY p.key");
  q.Bind(1, after).Bind(2, up_to);
  while (q.Step()) out.push_back(q.Text(0));
  return out;
}

std::unordered_map<std::string, std::optional<int64_t>> ReviewStore::ProductCoverage(
    int64_t run_id) {
  Flush();
  std::unordered_map<std::string, std::optional<int64_t>> out;
  Statement q(db_,
              "SELECT subject, reviews_covered FROM summaries WHERE run_id = ?1 AND "
              "scope = 'product'");
  q.Bind(1, run_id);
  while (q.Step()) {
    out[q.Text(0)] = q.IsNull(1) ? std::nullopt : std::optional<int64_t>(q.Int(1));
  }
  return out;
}

std::unordered_set<int64_t> ReviewStore::ReviewsSummarised(int64_t run_id) {
  Flush();
  std::unordered_set<int64_t> out;
  Statement q(db_,
              "SELECT CAST(subject AS INTEGER) FROM summaries WHERE run_id = ?1 AND "
              "scope = 'review'");
  q.Bind(1, run_id);
  while (q.Step()) out.insert(q.Int(0));
  return out;
}

void ReviewStore::FinishRun(int64_t run_id, std::optional<int64_t> snapshot) {
  Begin();
  if (snapshot) {
    Statement up(db_, "UPDATE runs SET finished_at = ?2, snapshot_review_id = ?3 WHERE id = ?1");
    up.Bind(1, run_id).Bind(2, NowUtc()).Bind(3, *snapshot).Run();
  } else {
    Statement up(db_, "UPDATE runs SET finished_at = ?2 WHERE id = ?1");
    up.Bind(1, run_id).Bind(2, NowUtc()).Run();
  }
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
        .Bind(5, store_internal::FloatsJson(row.head_weights));
    if (row.opinion) {
      stmts_->add_score.Bind(6, static_cast<double>(*row.opinion));
    } else {
      stmts_->add_score.BindNull(6);
    }
    if (row.salience) {
      stmts_->add_score.Bind(7, static_cast<double>(*row.salience));
    } else {
      stmts_->add_score.BindNull(7);
    }
    stmts_->add_score.Run();
  }
  MaybeCommit();
}

int64_t ReviewStore::AddSummary(const StoredSummary& summary) {
  Begin();
  Statement ins(db_, kInsertSummary);
  BindSummary(ins, summary).Run();
  int64_t id = sqlite3_last_insert_rowid(db_);
  MaybeCommit();
  return id;
}

namespace {
// The first row of a runs query (columns: id, key, params, embedder, model_hash, started_at,
// finished_at, snapshot_review_id), if any.
std::optional<RunInfo> FirstRun(Statement& q) {
  if (!q.Step()) return std::nullopt;
  RunInfo r{q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), q.Text(6), q.Int(7)};
  q.Reset();
  return r;
}
constexpr const char* kRunColumns =
    "SELECT id, key, params, embedder, model_hash, started_at, finished_at,"
    " coalesce(snapshot_review_id, 0) FROM runs ";
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

std::optional<RunInfo> ReviewStore::FindRun(const std::string& key) {
  Flush();
  Statement q(db_, std::string(kRunColumns) + "WHERE key = ?1");
  q.Bind(1, key);
  return FirstRun(q);
}

void ReviewStore::SetRunHeads(int64_t run_id, const std::vector<std::string>& head_names) {
  Begin();
  const std::string heads = store_internal::JoinTabs(head_names);
  Statement up(db_, "UPDATE runs SET heads = ?2 WHERE id = ?1");
  up.Bind(1, run_id).Bind(2, heads).Run();
}

std::vector<std::string> ReviewStore::RunHeadNames(int64_t run_id) {
  Statement q(db_, "SELECT heads FROM runs WHERE id = ?1");
  q.Bind(1, run_id);
  std::vector<std::string> out;
  if (q.Step()) {
    out = store_internal::SplitTabs(q.Text(0));
    q.Reset();
  }
  return out;
}

namespace {
constexpr const char* kSummaryColumns =
    "id, run_id, scope, subject, text, sentence_ids, units_in, units_out, unit, embedder, "
    "tokenizer, tokens_in, tokens_out, reviews_covered";
StoredSummary ReadSummaryRow(const Statement& q) {
  StoredSummary s{
      q.Int(0),  q.Int(1),    q.Text(2), q.Text(3), q.Text(4),  store_internal::ParseIds(q.Text(5)),
      q.Int(6),  q.Int(7),    q.Text(8), q.Text(9), q.Text(10), q.Int(11),
      q.Int(12), std::nullopt};
  if (!q.IsNull(13)) s.reviews_covered = q.Int(13);
  return s;
}
}  // namespace

std::vector<StoredSummary> ReviewStore::GetSummaries(int64_t run_id, const std::string& scope,
                                                     const std::string& subject) {
  Flush();
  std::vector<StoredSummary> out;
  // One subject is a lookup on the (run_id, scope, subject) key; an `OR` in the WHERE would make
  // SQLite scan the whole run for it (an export of many products would be quadratic).
  // (The parameters a branch does not compare are still named so that all three bind.)
  std::string where = "run_id = ?1";
  where += scope.empty() ? " AND ?2 = ''" : " AND scope = ?2";
  where += subject.empty() ? " AND ?3 = ''" : " AND subject = ?3";
  Statement q(db_, std::string("SELECT ") + kSummaryColumns + " FROM summaries WHERE " + where +
                       " ORDER BY scope, subject");
  q.Bind(1, run_id).Bind(2, scope).Bind(3, subject);
  while (q.Step()) out.push_back(ReadSummaryRow(q));
  return out;
}

std::vector<StoredSummary> ReviewStore::LatestSummaries(const std::string& scope) {
  Flush();
  std::vector<StoredSummary> out;
  Statement q(db_, std::string("SELECT ") + kSummaryColumns +
                       " FROM (SELECT s.*, row_number() OVER (PARTITION BY s.subject ORDER BY "
                       "r.finished_at DESC, r.id DESC) AS rank FROM summaries s JOIN runs r ON "
                       "r.id = s.run_id WHERE r.finished_at IS NOT NULL AND s.scope = ?1) "
                       "WHERE rank = 1 ORDER BY subject");
  q.Bind(1, scope);
  while (q.Step()) out.push_back(ReadSummaryRow(q));
  return out;
}

std::vector<std::pair<int64_t, ScoreRow>> ReviewStore::GetScores(
    int64_t run_id, const std::string& scope, const std::vector<int64_t>& sentence_ids) {
  Flush();
  std::vector<std::pair<int64_t, ScoreRow>> out;
  Statement q(db_,
              "SELECT weight, head_weights, opinion, salience FROM scores WHERE run_id = ?1 AND "
              "scope = ?2 AND "
              "sentence_id = ?3");
  for (int64_t sid : sentence_ids) {
    q.Bind(1, run_id).Bind(2, scope).Bind(3, sid);
    if (q.Step()) {
      ScoreRow row;
      row.sentence_id = sid;
      row.weight = q.Double(0);
      row.head_weights = store_internal::ParseFloatsJson(q.Text(1));
      if (!q.IsNull(2)) row.opinion = static_cast<float>(q.Double(2));
      if (!q.IsNull(3)) row.salience = static_cast<float>(q.Double(3));
      out.emplace_back(sid, std::move(row));
      q.Reset();
    }
  }
  return out;
}

std::string store_internal::NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace revsum
