// A prepared SQLite statement with RAII and typed binds; private to the store.
#pragma once

#include <sqlite3.h>
#include <sys/statvfs.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/store.h"

namespace revsum::store_internal {

// For an I/O error, a full disk or a damaged page: how much room the store's folder has left, as
// " (the disk holding it has 12,288 bytes free)"; "" otherwise. A full disk shows up as any of
// the three (SQLite cannot grow its -wal or map its -shm), and the message alone does not say
// that the store itself may be healthy.
inline std::string DiskRoomNote(sqlite3* db, const char* file) {
  const int primary = sqlite3_extended_errcode(db) & 0xFF;
  if (primary != SQLITE_IOERR && primary != SQLITE_FULL && primary != SQLITE_CORRUPT) return "";
  std::string folder = file && *file ? file : ".";
  const size_t slash = folder.rfind('/');
  folder = slash == std::string::npos ? "." : slash == 0 ? "/" : folder.substr(0, slash);
  struct statvfs fs;
  if (statvfs(folder.c_str(), &fs) != 0) return "";
  const auto free_bytes = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  std::string n = std::to_string(free_bytes);
  for (int i = static_cast<int>(n.size()) - 3; i > 0; i -= 3) n.insert(static_cast<size_t>(i), ",");
  return " (the disk holding it has " + n + " bytes free" +
         (free_bytes < (1u << 20) ? ": it is full; free some space and run the command again)"
                                  : ")");
}

[[noreturn]] inline void Fail(sqlite3* db, std::string_view what) {
  const char* file = sqlite3_db_filename(db, "main");
  throw StoreError(std::string(file && *file ? file : "(database)") + ": " + std::string(what) +
                   ": " + sqlite3_errmsg(db) + DiskRoomNote(db, file));
}

// Sets the counts of source `source_id` (records, ingested, duplicates, rejected) from its rows
// of source_parts: the sum over the set of parts of one N (shards) that covers the most of the
// dump (K present / N; complete = all K of N) and, among those, is the most current (its oldest
// part the latest). Parts of different N overlap, so no two sets are ever added.
void RecountSource(sqlite3* db, int64_t source_id);

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &stmt_, nullptr) != SQLITE_OK) {
      Fail(db, "prepare \"" + std::string(sql.substr(0, 60)) + "\"");
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(int i, int64_t v) { return Check(sqlite3_bind_int64(stmt_, i, v)); }
  Statement& Bind(int i, double v) { return Check(sqlite3_bind_double(stmt_, i, v)); }
  Statement& Bind(int i, std::string_view v) {
    return Check(
        sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  // Binds text without copying it: the caller keeps `v` alive and unchanged until the statement
  // has run (the ingest writer's review and sentence texts, bound once and stepped at once).
  Statement& BindStatic(int i, std::string_view v) {
    return Check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC));
  }
  Statement& BindBlob(int i, std::string_view v) {
    return Check(
        sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  Statement& BindNull(int i) { return Check(sqlite3_bind_null(stmt_, i)); }
  template <typename T>
  Statement& Bind(int i, const std::optional<T>& v) {
    return v ? Bind(i, *v) : BindNull(i);
  }

  // Steps once: true while a row is available, false when done. Resets itself when done.
  bool Step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) {
      Reset();
      return false;
    }
    std::string sql = sqlite3_sql(stmt_);
    Reset();
    Fail(db_, "executing \"" + sql.substr(0, 60) + "\"");
  }
  // Runs a statement that returns no rows.
  void Run() {
    while (Step()) {
    }
  }
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  double Double(int col) const { return sqlite3_column_double(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string Text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  std::string Blob(int col) const {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }

 private:
  Statement& Check(int rc) {
    if (rc != SQLITE_OK) Fail(db_, "bind");
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Throws StoreError, before anything is written, unless `db` is a revsum store this build can use
// or an empty database: refuses a newer schema and an SQLite file with tables of its own. An
// existing file that is not SQLite fails here with SQLite's "file is not a database".
void CheckIsRevsumStore(sqlite3* db, const std::string& path);

// Applies every migration between the file's user_version and `target` (tests build old schemas
// with a lower target). REQUIRES: the caller holds a write transaction and commits it.
void Migrate(sqlite3* db, int target = kSchemaVersion);

// Registers the SQL functions the migrations use (revsum_review_hash, revsum_reject_hash,
// revsum_fts_text, revsum_floats_json) on `db`.
void RegisterStoreFunctions(sqlite3* db);

// A reject's identity (see the rejects table): FNV-1a of reason and raw bytes, plus the line when
// there are no raw bytes (a file-level reject such as a truncated gzip stream).
uint64_t RejectContentHash(std::string_view source, uint64_t line, std::string_view reason,
                           std::string_view raw);

// summaries.sentence_ids: a JSON array of ids, and back.
std::string JoinIds(const std::vector<int64_t>& ids);

// The current UTC time as ISO 8601 ("2026-12-04T17:00:00Z"): runs' and models' timestamps.
std::string NowUtc();
std::vector<int64_t> ParseIds(const std::string& json);
// runs.heads: head names separated by tabs, and back.
std::string JoinTabs(const std::vector<std::string>& names);
std::vector<std::string> SplitTabs(const std::string& s);

// Per-head weights as stored in scores.head_weights: a JSON array of numbers ("%.6g").
std::string FloatsJson(const std::vector<float>& values);
std::vector<float> ParseFloatsJson(std::string_view json);

}  // namespace revsum::store_internal
