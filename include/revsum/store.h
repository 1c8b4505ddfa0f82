// The SQLite store: every review, sentence, reject, run, score and summary revsum knows about.
//
// One file, readable with plain `sqlite3`. The schema is versioned with PRAGMA user_version and
// migrated forward on open; see src/store/schema.cc for every table, index and view. The database
// runs in WAL mode with foreign keys on; writes are batched into transactions of
// StoreOptions::batch_size records, and a crash (even SIGKILL) loses at most the open batch.
//
// Thread-safety: a ReviewStore is used by one thread at a time (revsum has one writer thread).
// Errors: every method throws StoreError with the database path and SQLite's message.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "revsum/review.h"

struct sqlite3;

namespace revsum {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StoreOptions {
  // Records per write transaction. Larger is faster; a crash loses at most one open batch.
  size_t batch_size = 2000;
  // Open without the right to write (show, search, export).
  bool read_only = false;
};

// The schema version this build writes (PRAGMA user_version); older files are migrated on open.
inline constexpr int kSchemaVersion = 3;

// Stable 64-bit content hash (FNV-1a) used to recognise a review seen before, whatever file it came
// from: product, external id and text, separated by NUL.
uint64_t ReviewContentHash(const Review& review);

// Text as indexed by FTS5: ideographs, kana and hangul are spaced apart so that FTS5's unicode61
// tokenizer sees one token per character and a phrase query matches any Chinese substring.
std::string FtsIndexText(std::string_view text);
// Rewrites a user's search so CJK runs become phrase queries over single characters; the rest of
// the FTS5 syntax (AND, OR, NOT, "phrases", prefix*) is passed through unchanged, except that ASCII
// punctuation touching CJK text (other than the operators "*()^+-:) becomes a space.
std::string FtsQuery(std::string_view query);

struct StoreStats {
  int64_t sources = 0, products = 0, reviews = 0, sentences = 0, rejects = 0, runs = 0,
          summaries = 0;
  double avg_sentences_per_review = 0;
  int schema_version = 0;
};

struct StoredSentence {
  int64_t id = 0;
  int64_t review_id = 0;
  int32_t index = 0, begin = 0, end = 0;
  std::string text;
  int32_t tokens = -1;  // o200k_base tokens; -1 when not counted
};

struct StoredReview {
  int64_t id = 0;
  std::string product;
  std::string external_id;
  std::string source;
  uint64_t line = 0;
  std::optional<double> rating;
  std::string title;
  std::string text;
  std::vector<StoredSentence> sentences;
};

struct SearchHit {
  int64_t sentence_id = 0, review_id = 0;
  std::string product;
  std::string text;
};

// A summarisation run: the parameters that define it. Runs with the same `key` replace each other.
struct RunInfo {
  int64_t id = 0;
  std::string key;          // canonical string of every parameter that affects the results
  std::string params_json;  // the same parameters, for people
  std::string embedder;     // embedder name(s) used, e.g. "lexical" or "auto(use-lite,lexical)"
  std::string model_hash;
  std::string started_at, finished_at;
};

// The scores of one scope: sentence ids with their final weight and per-head weights.
struct ScoreRow {
  int64_t sentence_id = 0;
  double weight = 0;
  std::vector<float> head_weights;  // in the order of the run's head names (a prefix of them)
};

struct StoredSummary {
  int64_t id = 0;
  int64_t run_id = 0;
  std::string scope;    // "review" or "product"
  std::string subject;  // review id (as text) or product key
  std::string text;
  std::vector<int64_t> sentence_ids;
  int64_t units_in = 0, units_out = 0;    // words (or tokens) before and after
  std::string unit;                       // "words" or the tokenizer's name
  std::string embedder;                   // the embedder that produced the weights
  std::string tokenizer;                  // empty when tokens were not counted
  int64_t tokens_in = 0, tokens_out = 0;  // review texts (one per line) and `text`, in tokenizer
};

class ReviewStore {
 public:
  // Opens (creating if needed) and migrates the database at `path`.
  static std::unique_ptr<ReviewStore> Open(const std::string& path, const StoreOptions& = {});
  ~ReviewStore();
  ReviewStore(const ReviewStore&) = delete;
  ReviewStore& operator=(const ReviewStore&) = delete;

  const std::string& path() const { return path_; }
  sqlite3* handle() { return db_; }

  // --- ingest -------------------------------------------------------------------------------
  // Registers (or finds) a dump by path; returns its id.
  int64_t AddSource(const std::string& path, const std::string& format, uint64_t size_bytes);
  // Records the counts of the latest ingest of a source.
  void FinishSource(int64_t source_id, uint64_t records, uint64_t ingested, uint64_t duplicates,
                    uint64_t rejected);
  // Adds a review and its sentences. Returns false, and stores nothing, when a review with the
  // same content hash is already stored.
  bool AddReview(int64_t source_id, const Review& review, const std::vector<Sentence>& sentences);
  // Keeps a rejected record (idempotent per source, line and reason).
  void AddReject(int64_t source_id, const Reject& reject);
  // Commits the open batch (also done automatically every batch_size records).
  void Flush();
  // Drops the open batch. Destroying the store does this too: only what was committed (every
  // batch_size records, by Flush, FinishSource, FinishRun) is kept, so a failure mid-way never
  // commits half a review or half a run.
  void Rollback();

  // --- reading ------------------------------------------------------------------------------
  StoreStats Stats();
  std::optional<StoredReview> GetReview(int64_t review_id);
  // Reviews of a product, in ingest order.
  std::vector<StoredReview> GetProductReviews(const std::string& product);
  std::vector<std::string> Products();
  bool HasProduct(const std::string& product);
  // Full-text search over sentences (see FtsQuery). Throws StoreError("search: ...") with SQLite's
  // message on an FTS5 syntax error.
  std::vector<SearchHit> Search(const std::string& query, size_t limit);
  // Reject reasons with their counts, most frequent first.
  std::vector<std::pair<std::string, int64_t>> RejectReasons(size_t limit);

  // --- runs, scores, summaries --------------------------------------------------------------
  // Starts a run with this key, deleting the scores and summaries of an earlier run with the same
  // key (re-running replaces, never duplicates). Returns the run id.
  int64_t BeginRun(const RunInfo& run, const std::vector<std::string>& head_names);
  void FinishRun(int64_t run_id);
  void AddScores(int64_t run_id, const std::string& scope, const std::vector<ScoreRow>& rows);
  int64_t AddSummary(const StoredSummary& summary);
  // The latest finished run; with a scope ("review" or "product"), the latest that has summaries
  // of that scope.
  std::optional<RunInfo> LatestRun(const std::string& scope = "");
  // The run with this id, if it exists.
  std::optional<RunInfo> GetRun(int64_t run_id);
  // Replaces a run's head names (the order of ScoreRow::head_weights). Heads may be appended as
  // later scopes bring new ones; rows written before carry only the heads known then.
  void SetRunHeads(int64_t run_id, const std::vector<std::string>& head_names);
  std::vector<std::string> RunHeadNames(int64_t run_id);
  std::vector<StoredSummary> GetSummaries(int64_t run_id, const std::string& scope,
                                          const std::string& subject);
  // Scores of the sentences of one subject in a run, keyed by sentence id.
  std::vector<std::pair<int64_t, ScoreRow>> GetScores(int64_t run_id, const std::string& scope,
                                                      const std::vector<int64_t>& sentence_ids);

 private:
  ReviewStore(std::string path, sqlite3* db, StoreOptions options);
  void Exec(const char* sql);
  void MaybeCommit();
  void Begin();

  std::string path_;
  sqlite3* db_ = nullptr;
  StoreOptions options_;
  bool in_transaction_ = false;
  size_t pending_ = 0;
  struct Statements;
  std::unique_ptr<Statements> stmts_;
};

}  // namespace revsum
