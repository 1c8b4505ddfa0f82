// The store's one SQLite connection and its write batch, shared by the store's classes (store.h);
// private to src/store/.
#pragma once

#include <sqlite3.h>

#include <string>

#include "revsum/store.h"

namespace revsum::store_internal {

class Connection {
 public:
  Connection(std::string path, sqlite3* db, StoreOptions options);
  ~Connection();  // closes the connection (the open batch is the owner's to roll back first)
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* db() const { return db_; }
  const std::string& path() const { return path_; }
  const StoreOptions& options() const { return options_; }

  // Runs `sql`; throws StoreError with the path, the statement and SQLite's message.
  void Exec(const char* sql);
  // Opens the write batch unless it is open (SQLite may have rolled it back by itself after
  // SQLITE_FULL or SQLITE_IOERR; that is trusted).
  void Begin();
  // Counts one record into the batch; commits (Flush) every options().batch_size records.
  void MaybeCommit();
  // Commits the open batch, then bounds the WAL (ReviewStore::Flush).
  void Flush();
  // Drops the open batch.
  void Rollback();

 private:
  void BoundWal();

  std::string path_;
  sqlite3* db_ = nullptr;
  StoreOptions options_;
  bool in_transaction_ = false;
  size_t pending_ = 0;
};

}  // namespace revsum::store_internal
