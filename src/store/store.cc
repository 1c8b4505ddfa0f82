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

#include "connection.h"
#include "revsum/hash.h"
#include "statement.h"

namespace revsum {

using store_internal::Fail;
using store_internal::NowUtc;
using store_internal::Statement;

namespace {
void Fnv1a(uint64_t* h, std::string_view s) { *h = Fnv1a64(s, *h); }

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
  // Owns `db` from here: an error below closes it.
  auto connection = std::make_unique<store_internal::Connection>(path, db, options);
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
      connection->Exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    if (ExecRetrying(db, "PRAGMA journal_mode = WAL", 30) != SQLITE_OK) {
      Fail(db, "switching to WAL");
    }
    connection->Exec("PRAGMA synchronous = NORMAL");
    // A 64 MiB page cache keeps the B-tree interiors of reviews, sentences and the FTS index in
    // memory during bulk ingest (the default 2 MiB re-reads them from the OS for every batch).
    connection->Exec("PRAGMA cache_size = -65536");
    connection->Exec("PRAGMA temp_store = MEMORY");
    // After a checkpoint the WAL file is cut back to this size (see Flush for the bound on growth).
    connection->Exec("PRAGMA journal_size_limit = 67108864");
    // Checkpoint when the WAL holds 64 MiB (16,384 pages of 4 KiB), the bound BoundWal keeps,
    // instead of SQLite's 4 MiB: a page rewritten by several commits (index pages, FTS5 segments
    // being merged) is copied into the database once, and the fsyncs of a checkpoint come 16
    // times less often. Measured on a 200,000-review ingest: 20% fewer bytes written.
    connection->Exec("PRAGMA wal_autocheckpoint = 16384");
  }
  connection->Exec("PRAGMA foreign_keys = ON");
  return std::unique_ptr<ReviewStore>(new ReviewStore(path, std::move(connection)));
}

ReviewStore::ReviewStore(std::string path, std::unique_ptr<store_internal::Connection> connection)
    : path_(std::move(path)),
      connection_(std::move(connection)),
      ingest_(std::make_unique<ReviewWriter>(*connection_)),
      reviews_(std::make_unique<ReviewQueries>(*connection_)),
      runs_(std::make_unique<RunStore>(*connection_)),
      points_(std::make_unique<PointStore>(*connection_)),
      opinion_models_(std::make_unique<OpinionModelStore>(*connection_)),
      search_(std::make_unique<SearchIndex>(*connection_)),
      report_(std::make_unique<ReportReader>(*connection_)) {}

ReviewStore::~ReviewStore() {
  Rollback();
  // The concerns' prepared statements are finalized before the connection closes.
  report_.reset();
  search_.reset();
  opinion_models_.reset();
  points_.reset();
  runs_.reset();
  ingest_.reset();
  reviews_.reset();
}

void ReviewStore::Flush() { connection_->Flush(); }

void ReviewStore::Rollback() {
  connection_->Rollback();
  if (ingest_) ingest_->ForgetUncommitted();  // ids of rolled-back products are gone
}

namespace store_internal {

Connection::Connection(std::string path, sqlite3* db, StoreOptions options)
    : path_(std::move(path)), db_(db), options_(options) {}

Connection::~Connection() { sqlite3_close_v2(db_); }

void Connection::Exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "";
    sqlite3_free(err);
    throw StoreError(path_ + ": " + sql + ": " + msg +
                     DiskRoomNote(db_, sqlite3_db_filename(db_, "main")));
  }
}

void Connection::Begin() {
  // SQLite may have rolled a transaction back by itself (SQLITE_FULL, SQLITE_IOERR); trust it.
  if (in_transaction_ && sqlite3_get_autocommit(db_)) in_transaction_ = false;
  if (!in_transaction_) {
    Exec("BEGIN IMMEDIATE");
    in_transaction_ = true;
  }
}

void Connection::MaybeCommit() {
  if (++pending_ >= options_.batch_size) Flush();
}

void Connection::Flush() {
  const bool committed = in_transaction_ && !sqlite3_get_autocommit(db_);
  if (committed) Exec("COMMIT");
  in_transaction_ = false;
  pending_ = 0;
  if (committed) BoundWal();
}

void Connection::BoundWal() {
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

void Connection::Rollback() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  in_transaction_ = false;
  pending_ = 0;
}

}  // namespace store_internal

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

std::string store_internal::NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace revsum
