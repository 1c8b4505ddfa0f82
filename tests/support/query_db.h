// One value out of a real SQLite file, for end-to-end tests that check what a command stored.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

namespace revsum::testing {

// The first column of the first row of `sql` on `db_path`, opened read-only; `if_none` when the
// query returns no row (or NULL, for text). T is int64_t, double or std::string.
template <typename T>
T QueryOne(const std::string& db_path, const std::string& sql, T if_none) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  T value = if_none;
  if (st && sqlite3_step(st) == SQLITE_ROW) {
    if constexpr (std::is_same_v<T, int64_t>) {
      value = sqlite3_column_int64(st, 0);
    } else if constexpr (std::is_same_v<T, double>) {
      value = sqlite3_column_double(st, 0);
    } else if (const unsigned char* text = sqlite3_column_text(st, 0)) {
      value = reinterpret_cast<const char*>(text);
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return value;
}

// A second connection to a store's file, for tests that look at the tables directly (the store
// keeps its own connection to itself; a test sees what the store committed).
class DbConnection {
 public:
  explicit DbConnection(const std::string& db_path) {
    EXPECT_EQ(sqlite3_open_v2(db_path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_busy_timeout(db_, 10000);
  }
  ~DbConnection() { sqlite3_close_v2(db_); }
  DbConnection(const DbConnection&) = delete;
  DbConnection& operator=(const DbConnection&) = delete;
  sqlite3* get() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace revsum::testing
