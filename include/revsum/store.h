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
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "revsum/error.h"
#include "revsum/review.h"

struct sqlite3;

namespace revsum {

class StoreError : public Error {
 public:
  using Error::Error;
};

// The WAL is checkpointed and truncated once it passes this size (see ReviewStore::Flush).
inline constexpr uint64_t kWalBoundBytes = 64ull << 20;

struct StoreOptions {
  // Records per write transaction. Larger is faster; a crash loses at most one open batch. Every
  // commit writes again each touched page of the reviews' random-order indexes (content hash,
  // product) and of the FTS5 index: 10,000 records per commit instead of 2,000 halves the bytes a
  // 200,000-review ingest writes (1.2 GB to 0.58 GB) and saves about a sixth of the writer's CPU.
  size_t batch_size = 10000;
  // Open without the right to write (show, search, export).
  bool read_only = false;
  // After a commit, a WAL larger than this is checkpointed and truncated (see Flush).
  uint64_t wal_bound_bytes = kWalBoundBytes;
};

// The schema version this build writes (PRAGMA user_version); older files are migrated on open.
inline constexpr int kSchemaVersion = 12;

// Stable 64-bit content hash (FNV-1a) that is a review's identity, whatever file it came from:
// every stored field of the record (product, external id, rating, title, text, time). Two records
// that differ in any of them are two reviews; the same record ingested again is recognised.
uint64_t ReviewContentHash(const Review& review);

// Text as the index of schemas 4-11 held it: ideographs, kana and hangul spaced apart, one token
// per character (kept for those migrations).
std::string FtsIndexText(std::string_view text);
// True when FtsIndexText(text) == text: no byte that can start a spaced character, so the text
// holds no CJK and FtsCjkGrams(text) is "".
bool FtsIndexTextIsText(std::string_view text);
// sentences.search, the index's second column: each run of ideographs, kana or hangul written as
// its overlapping character pairs and then its last character, space-separated ("手机电池很好" ->
// "手机 机电 电池 池很 很好 好"); "" when the text has none (stored as NULL). Plain FTS5 then finds
// a two-character word as written (MATCH '电池'), a longer one as the phrase of its pairs
// (MATCH '"电池 池续 续航"'), and every character by prefix (MATCH '电*').
std::string FtsCjkGrams(std::string_view text);
// Rewrites a user's search into FTS5. FTS5's own syntax keeps its meaning: words, "phrases",
// AND, OR, NOT, (groups), prefix*, ^first, NEAR(a b, N). Web-search habits are translated:
// -word (or -"phrase", -(group)) means NOT it ("a -b c" -> "(a c) NOT b"), +word means word, and
// a word with punctuation ("don't", "wi-fi") is the phrase the tokenizer made of it in the index.
// A CJK run becomes the phrase of its character pairs ("电池续航" -> "\"电池 池续 续航\""), one
// character the prefix query "\"电\"*"; ASCII punctuation touching CJK separates words; a phrase
// that mixes CJK and other text becomes the AND group of its pieces. Throws StoreError("search
// \"QUERY\": ...") saying what to write instead for: an unclosed quote or parenthesis, a ')'
// without '(', a colon (FTS5's column filter), a group with only -words (FTS5 needs at least one
// positive term), an operator without a word on each side, and a query with no word at all.
std::string FtsQuery(std::string_view query);

struct StoreStats {
  int64_t sources = 0, products = 0, reviews = 0, sentences = 0, rejects = 0, runs = 0,
          summaries = 0;           // runs and summaries: finished runs only
  int64_t unfinished_ingests = 0;  // sources whose latest ingest never finished (killed, failed)
  int64_t unfinished_runs = 0;     // runs started and never finished; their rows are not counted
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
  std::string citation;  // reviews.citation: external_id, or "h:" + content hash when it is ''
  std::string source;
  uint64_t line = 0;
  std::optional<double> rating;
  std::string title;
  std::string text;
  std::vector<StoredSentence> sentences;
};

// Which of a product's reviews a summary reads (RunOptions::filter; revsum summarize
// --min-rating/--max-rating/--since/--until). Every bound is inclusive; an unset bound does not
// filter. A review without a rating fails any rating bound, one without a time any time bound:
// a filtered summary never silently mixes in reviews it cannot place.
struct ReviewFilter {
  std::optional<double> min_rating, max_rating;
  std::optional<int64_t> since, until;  // unix seconds (reviews.time)
  bool empty() const { return !min_rating && !max_rating && !since && !until; }
  bool operator==(const ReviewFilter&) const = default;
};

struct SearchHit {
  int64_t sentence_id = 0, review_id = 0;  // store ids
  std::string product;
  std::string text;
  std::string citation;  // the review's citation (reviews.citation)
  int32_t index = 0;     // the sentence's position in its review (sentences.idx)
};

// A summarisation run: the parameters that define it. Runs with the same `key` replace each other.
struct RunInfo {
  int64_t id = 0;
  std::string key;          // canonical string of every parameter that affects the results
  std::string params_json;  // the same parameters, for people
  std::string embedder;     // embedder name(s) used, e.g. "lexical" or "auto(use-lite,lexical)"
  std::string model_hash;
  std::string started_at, finished_at;
  // The reviews the run read: ids up to this one (0 = not recorded, runs before schema 4).
  int64_t snapshot_review_id = 0;
};

// The scores of one scope: sentence ids with their final weight and per-head weights.
struct ScoreRow {
  int64_t sentence_id = 0;
  double weight = 0;
  std::vector<float> head_weights;  // in the order of the run's head names (a prefix of them)
  // The sentence's learned opinion (opinion.h): polarity score and salience. Unset: NULL.
  std::optional<float> opinion, salience;
};

// An opinion model a store trained on its own ratings (table opinion_models, schema 8; train.h).
struct StoredOpinionModel {
  int64_t id = 0;
  std::string sha256;      // of `blob`
  std::string trained_on;  // JSON, for people
  int64_t snapshot_review_id = 0;
  int64_t reviews = 0, heldout_reviews = 0;
  std::optional<double> heldout_accuracy, default_accuracy;
  std::string created_at;
  std::string blob;  // OpinionModel::Serialize
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
  // Product scope: the product's reviews in the store when the run read it (schema 9); unset for
  // review scope and for summaries made before schema 9.
  std::optional<int64_t> reviews_covered;
};

// One point of a product summary as stored (table points, schema 5; see points.h).
struct StoredPointMember {
  int64_t sentence_id = 0, review_id = 0;
  double similarity = 0;
};
struct StoredPoint {
  int64_t id = 0, run_id = 0;
  std::string product;
  int64_t idx = 0;
  std::string text;
  int64_t sentence_id = 0;
  int64_t review_id = 0;    // reviews.id of the representative sentence
  std::string external_id;  // that review's id in its dump (read back only)
  std::string citation;     // that review's citation (reviews.citation; read back only)
  std::string polarity;     // "praise", "complaint", "neutral", "unknown"
  int64_t support = 0;
  double share = 0;
  std::string aspect;  // "" = none (NULL in the table)
  double weight = 0;
  std::vector<StoredPointMember> members;  // not filled by LatestPoints
};

// A range of ratings: {min, max, every rating 0 or 1}, and how many lie in each standard scale
// (RatingCounts, points.h: recorded per dump by ingest since schema 10, zero where unknown).
struct RatingRange {
  double min = 0, max = 0;
  bool labels_only = false;
  uint64_t count = 0, stars = 0, tenths = 0;
  // `range` widened by `rating` (set by the first).
  static void Widen(std::optional<RatingRange>& range, double rating);
};

// What ReviewWriter::AddReview computes from a review before it touches the database: its content
// hash and each sentence's FtsCjkGrams (sentences.search; empty for a sentence without CJK).
struct PreparedReview {
  uint64_t content_hash = 0;
  std::vector<std::string> fts_texts;  // parallel to the sentences, or empty when none has CJK
};

// What an export cites and filters on, per review of a product (ReviewQueries::ProductReviewFacts).
struct ReviewFacts {
  int64_t id = 0;
  std::string external_id;    // the dump's own id; "" when the dump had none
  uint64_t content_hash = 0;  // ReviewContentHash: the same in every store that holds it
  std::optional<double> rating;
  std::optional<int64_t> time;  // unix seconds
};

namespace store_internal {
class Connection;  // the one SQLite connection and its write batch (src/store/connection.h)
}

// The store is one connection shared by one object per concern, each owning its SQL in
// src/store/: ingest writes (ReviewWriter), reading reviews (ReviewQueries), runs with their scores
// and summaries (RunStore), points (PointStore), opinion models (OpinionModelStore), full-text
// search (SearchIndex) and the report page's reads (ReportReader); MergeStores merges two stores.
// Writes of every concern join the one open batch (ReviewStore::Flush commits it); reads that
// say so commit it first.

// --- ingest (src/store/review_writer.cc) ------------------------------------------------------
class ReviewWriter {
 public:
  explicit ReviewWriter(store_internal::Connection& c);
  ~ReviewWriter();
  // Registers (or finds) a dump by path; returns its id.
  int64_t AddSource(const std::string& path, const std::string& format, uint64_t size_bytes);
  // Records the counts of the latest ingest of part `shard` of `shards` of a source (1 of 1: the
  // whole dump; see IngestShard), and the range of the ratings its records carry (unioned with
  // the range of earlier ingests of the same path). The source's counts are then its parts'
  // (table source_parts): the newest complete set of parts, summed.
  void FinishSource(int64_t source_id, uint64_t records, uint64_t ingested, uint64_t duplicates,
                    uint64_t rejected, const std::optional<RatingRange>& ratings = std::nullopt,
                    uint32_t shard = 1, uint32_t shards = 1);
  // Adds a review and its sentences. Returns false, and stores nothing, when a review with the
  // same content hash is already stored.
  bool AddReview(int64_t source_id, const Review& review, const std::vector<Sentence>& sentences);
  // Pure, so ingest's segmentation workers prepare it off the writer thread.
  static PreparedReview Prepare(const Review& review, const std::vector<Sentence>& sentences);
  // AddReview with `prepared` = Prepare(review, sentences).
  bool AddReview(int64_t source_id, const Review& review, const std::vector<Sentence>& sentences,
                 const PreparedReview& prepared);
  // Keeps a rejected record. Its identity is its content (reason and raw bytes; reason and line
  // when it has no raw bytes): the same bad record from another path is stored once, a new bad
  // record at a reused path and line is kept.
  void AddReject(int64_t source_id, const Reject& reject);
  // Forgets the product ids it cached from rows a rollback removed.
  void ForgetUncommitted();

 private:
  store_internal::Connection& c_;
  struct Statements;
  std::unique_ptr<Statements> stmts_;
};

// --- reading reviews (src/store/review_queries.cc) ---------------------------------------------
class ReviewQueries {
 public:
  explicit ReviewQueries(store_internal::Connection& c) : c_(c) {}
  StoreStats Stats();
  std::optional<StoredReview> GetReview(int64_t review_id);
  // The highest review id stored; reviews are only ever appended, so "id <= MaxReviewId() at the
  // start" is a consistent snapshot that a concurrent ingest cannot change.
  int64_t MaxReviewId();
  // The `n` citations just below and just above `citation` in sort order (other reviews'), and
  // `citation` itself when two or more reviews have it: what a short citation must stay apart
  // from (export.h ShortCitations).
  std::vector<std::string> CitationNeighbours(const std::string& citation, size_t n);
  // Reviews whose citation (reviews.citation: how exports cite them) is `text`; when none is,
  // those whose citation starts with it (a short citation). At most `limit`, as (id, citation).
  std::vector<std::pair<int64_t, std::string>> FindCitations(const std::string& text, size_t limit);
  // Reviews of a product with id <= up_to, in ingest order.
  std::vector<StoredReview> GetProductReviews(const std::string& product,
                                              int64_t up_to = INT64_MAX);
  // Product keys that have a review with id <= up_to, sorted.
  std::vector<std::string> Products(int64_t up_to = INT64_MAX);
  // Batch reads for summarising many products (SummarizeStore), without committing the open
  // write batch (unlike GetProductReviews), so a writer that reads between writes keeps its
  // transactions as large as it chooses.
  // Product keys with at least one review with id <= up_to passing `filter`, sorted, each with the
  // number of such reviews: one query for the whole store.
  std::vector<std::pair<std::string, int64_t>> ProductReviewCounts(int64_t up_to,
                                                                   const ReviewFilter& filter);
  // The reviews (with their sentences) of each product in `products` with id <= up_to passing
  // `filter`, in ingest order: out[i] belongs to products[i] (empty when it has none). Two queries
  // per call, however many products: the per-product cost of GetProductReviews (statement
  // preparation, two queries, a commit) is what limited summarising many small products.
  std::vector<std::vector<StoredReview>> GetProductsReviews(
      const std::vector<std::string>& products, int64_t up_to, const ReviewFilter& filter = {});
  bool HasProduct(const std::string& product);
  // Reject reasons with their counts, most frequent first.
  std::vector<std::pair<std::string, int64_t>> RejectReasons(size_t limit);
  // Product keys with a review whose id is in (after, up_to], sorted: the products an ingest
  // changed since a run that read reviews up to `after`.
  std::vector<std::string> ProductsChangedSince(int64_t after, int64_t up_to);
  // Reviews with a rating among those with id <= up_to.
  int64_t RatedReviewCount(int64_t up_to = INT64_MAX);
  // What an export cites and filters on, per review of a product, in id order.
  std::vector<ReviewFacts> ProductReviewFacts(const std::string& product);
  // True when the product has rated reviews and every one comes from a dump of 0/1 labels
  // (sources.rating_labels).
  bool RatedWithLabels(const std::string& product);
  // The rating range of the reviews of the store (or of one product); nullopt when no review has
  // a rating.
  std::optional<RatingRange> Ratings(const std::string& product = "");
  // Per source path, the rating range of its dump as ingested (every record read, other shards'
  // too; unioned over re-ingests of the path). Sources without a rating are left out.
  std::unordered_map<std::string, RatingRange> SourceRatings();

 private:
  store_internal::Connection& c_;
};

// --- runs, scores, summaries (src/store/run_store.cc) -----------------------------------------
class RunStore {
 public:
  explicit RunStore(store_internal::Connection& c);
  ~RunStore();
  // Starts a run with this key (recording run.snapshot_review_id). Same key = same run: with
  // keep_results false its earlier scores and summaries are deleted (re-running replaces, never
  // duplicates) and the run is unfinished until FinishRun; with keep_results true they stay, for
  // an incremental run that replaces only what changed (DeleteProductResults), and the run keeps
  // its finished_at and snapshot_review_id until FinishRun records the new ones, so a run killed
  // mid-way leaves the earlier finished run readable (each product holding its earlier results or
  // its new ones). Returns the run id (stable for a key).
  int64_t BeginRun(const RunInfo& run, const std::vector<std::string>& head_names,
                   bool keep_results = false);
  // The run with this key, if any (finished or not).
  std::optional<RunInfo> FindRun(const std::string& key);
  // Deletes the product-scope scores and summary of `product` in a run.
  void DeleteProductResults(int64_t run_id, const std::string& product);
  // Per product with a product summary in the run: its reviews_covered (unset before schema 9).
  std::unordered_map<std::string, std::optional<int64_t>> ProductCoverage(int64_t run_id);
  // The ids of the reviews with a review-scope summary in the run.
  std::unordered_set<int64_t> ReviewsSummarised(int64_t run_id);
  // Marks the run finished now; with `snapshot`, also records it as the run's snapshot_review_id
  // (an incremental run's new snapshot, see BeginRun).
  void FinishRun(int64_t run_id, std::optional<int64_t> snapshot = std::nullopt);
  void AddScores(int64_t run_id, const std::string& scope, const std::vector<ScoreRow>& rows);
  int64_t AddSummary(const StoredSummary& summary);
  // AddSummary for each summary, with the statement prepared once per call.
  void AddSummaries(const std::vector<StoredSummary>& summaries);
  // The latest finished run; with a scope ("review" or "product"), the latest that has summaries
  // of that scope.
  std::optional<RunInfo> LatestRun(const std::string& scope = "");
  // The run with this id, if it exists.
  std::optional<RunInfo> GetRun(int64_t run_id);
  // Replaces a run's head names (the order of ScoreRow::head_weights). Heads may be appended as
  // later scopes bring new ones; rows written before carry only the heads known then.
  void SetRunHeads(int64_t run_id, const std::vector<std::string>& head_names);
  std::vector<std::string> RunHeadNames(int64_t run_id);
  // Per subject of `scope` ("product" or "review"), its summary from the latest finished run that
  // has one, ordered by subject: a partial re-run of some products does not hide the others.
  std::vector<StoredSummary> LatestSummaries(const std::string& scope);
  // A run's summaries of `scope` about `subject`; an empty scope or subject matches any.
  std::vector<StoredSummary> GetSummaries(int64_t run_id, const std::string& scope,
                                          const std::string& subject);
  // Scores of the sentences of one subject in a run, keyed by sentence id.
  std::vector<std::pair<int64_t, ScoreRow>> GetScores(int64_t run_id, const std::string& scope,
                                                      const std::vector<int64_t>& sentence_ids);

 private:
  store_internal::Connection& c_;
  struct Statements;
  std::unique_ptr<Statements> stmts_;
};

// --- points (src/store/points_store.cc) ------------------------------------------------------
class PointStore {
 public:
  explicit PointStore(store_internal::Connection& c) : c_(c) {}
  // Adds the points of one product in a run (with their members), in `points` order; idx is
  // taken from each point. Part of the open batch, like AddSummary.
  void AddPoints(int64_t run_id, const std::string& product,
                 const std::vector<StoredPoint>& points);
  // AddPoints for each product, with each statement prepared once per call.
  void AddPointsOfProducts(
      int64_t run_id, const std::vector<std::pair<std::string, std::vector<StoredPoint>>>& points);
  // Deletes the points (and members) of `product` in a run; DeleteProductResults' companion.
  void DeleteProductPoints(int64_t run_id, const std::string& product);
  // Deletes every point of a run (a run restarted without keeping its results).
  void DeleteRunPoints(int64_t run_id);
  // Per product, the points of the latest finished run that has points for it (view
  // product_points), ordered by product and idx; members are not read. Empty product = all.
  std::vector<StoredPoint> LatestPoints(const std::string& product = "");
  // (product, run) for each product with points: in run `run_id` when given, else in the latest
  // finished run that has points for it (as LatestPoints); ordered by product.
  std::vector<std::pair<std::string, int64_t>> PointRuns(std::optional<int64_t> run_id = {});
  // The points of `product` in run `run_id` (finished or not), ordered by idx, with their members
  // (the evidence) — what export reads; LatestPoints names the run of each product. Without
  // `with_members` the members are not read (the report page reads a bounded few per point).
  std::vector<StoredPoint> RunPoints(int64_t run_id, const std::string& product,
                                     bool with_members = true);

 private:
  store_internal::Connection& c_;
};

// --- opinion models (src/store/opinion_store.cc) ---------------------------------------------
class OpinionModelStore {
 public:
  explicit OpinionModelStore(store_internal::Connection& c) : c_(c) {}
  // Keeps a trained model (committed at once); returns its id (the existing one for a model with
  // the same sha256).
  int64_t Add(const StoredOpinionModel& model);
  // The most recently stored model, if any.
  std::optional<StoredOpinionModel> Latest();

 private:
  store_internal::Connection& c_;
};

// --- full-text search (src/store/query.cc; the query language: FtsQuery, fts.cc) --------------
class SearchIndex {
 public:
  explicit SearchIndex(store_internal::Connection& c) : c_(c) {}
  // Sentences matching `query` (see FtsQuery), restricted to the sentences of these product keys
  // (all products when `products` is empty), ordered by FTS5 rank, at most `limit`. Throws
  // StoreError("search \"QUERY\": ...") with SQLite's message on an FTS5 syntax error.
  std::vector<SearchHit> Find(const std::string& query, size_t limit,
                              const std::vector<std::string>& products = {});

 private:
  store_internal::Connection& c_;
};

// Rows added to the output by one merge (0 everywhere when the input was already merged).
struct MergeCounts {
  int64_t sources = 0, products = 0, reviews = 0, sentences = 0, rejects = 0, runs = 0, scores = 0,
          summaries = 0;
  // Runs finished on one side (output or input) and interrupted on the other: readable after the
  // merge, with the products the interrupted side had not reached left for `summarize`.
  int64_t interrupted_runs = 0;

  MergeCounts& operator+=(const MergeCounts& o);
};

// --- the report page's reads (src/store/report_reader.cc; report.h) ---------------------------
class ReportReader {
 public:
  explicit ReportReader(store_internal::Connection& c) : c_(c) {}
  // The number of reviews of `product`; nullopt when the store has no such product.
  std::optional<int64_t> ProductReviewCount(const std::string& product);
  // Products with reviews, most reviews first (then by key), at most `limit`, with their review
  // counts; *total is how many products have reviews.
  std::vector<std::pair<std::string, int64_t>> ProductsByReviews(size_t limit, size_t* total);
  // Each distinct rating of the product's reviews (nullopt: unrated) with its count, ascending.
  std::vector<std::pair<std::optional<double>, int64_t>> RatingCounts(const std::string& product);
  // The latest finished run that has points for `product` (as view product_points picks it,
  // without the view's window over every product's points); 0 when none has.
  int64_t LatestPointsRun(const std::string& product);
  // How many members a point has.
  int64_t MemberCount(int64_t point_id);
  // A point's member sentences inside their reviews: the representative sentence first, then by
  // similarity; at most `limit`.
  struct Evidence {
    int64_t sentence_id = 0, review_id = 0;
    double similarity = 0;
    int64_t begin = 0, end = 0;  // the sentence's code-point offsets in the review's text
    std::string review_text, external_id;
    std::optional<double> rating;
  };
  std::vector<Evidence> PointEvidence(int64_t point_id, int64_t representative, size_t limit);
  // The ids of the product's reviews, in id order.
  std::vector<int64_t> ProductReviewIds(const std::string& product);
  // A review's dump id, title and rating (empty when there is no such review), and its
  // sentences (id, text) in order.
  struct ReviewHead {
    std::string external_id, title;
    std::optional<double> rating;
  };
  ReviewHead GetReviewHead(int64_t review_id);
  std::vector<std::pair<int64_t, std::string>> ReviewSentences(int64_t review_id);

 private:
  store_internal::Connection& c_;
};

class ReviewStore {
 public:
  // Opens (creating if needed) and migrates the database at `path`. Checks before it writes: a
  // file that is not a revsum store (another SQLite database, a newer schema, not SQLite at all)
  // is refused with StoreError and left untouched; "" and ":memory:" are refused (nothing would be
  // kept). Concurrent first opens of a new file wait for each other. With read_only, nothing is
  // written, and a WAL store in a read-only folder is still readable.
  static std::unique_ptr<ReviewStore> Open(const std::string& path, const StoreOptions& = {});
  ~ReviewStore();
  ReviewStore(const ReviewStore&) = delete;
  ReviewStore& operator=(const ReviewStore&) = delete;

  const std::string& path() const { return path_; }

  // The concerns, all over this store's one connection.
  ReviewWriter& ingest() { return *ingest_; }
  ReviewQueries& reviews() { return *reviews_; }
  RunStore& runs() { return *runs_; }
  PointStore& points() { return *points_; }
  OpinionModelStore& opinion_models() { return *opinion_models_; }
  SearchIndex& search() { return *search_; }
  ReportReader& report() { return *report_; }

  // Commits the open batch (also done automatically every batch_size records). Then, when the WAL
  // has grown past kWalBoundBytes, checkpoints it with TRUNCATE, waiting up to 10 s for readers
  // that hold an old snapshot; the WAL stays bounded unless a reader keeps one for longer.
  void Flush();
  // Drops the open batch. Destroying the store does this too: only what was committed (every
  // batch_size records, by Flush, FinishSource, FinishRun) is kept, so a failure mid-way never
  // commits half a review or half a run.
  void Rollback();

  // The store's connection, for the store's own code that spans two stores (MergeStores); its
  // type is private to src/store/, so nothing outside can use it.
  store_internal::Connection& connection() { return *connection_; }

 private:
  ReviewStore(std::string path, std::unique_ptr<store_internal::Connection> connection);

  std::string path_;
  std::unique_ptr<store_internal::Connection> connection_;
  std::unique_ptr<ReviewWriter> ingest_;
  std::unique_ptr<ReviewQueries> reviews_;
  std::unique_ptr<RunStore> runs_;
  std::unique_ptr<PointStore> points_;
  std::unique_ptr<OpinionModelStore> opinion_models_;
  std::unique_ptr<SearchIndex> search_;
  std::unique_ptr<ReportReader> report_;
};

// Merges the rows of store `in` into `out` (merge.h says how each table is carried) in one write
// transaction on `out`, reading `in` as one snapshot; `input` names `in` in errors. Throws
// StoreError when `out` cannot be written, and `out` then keeps exactly what it had.
// REQUIRES: `out` has no open batch of its own that should survive a failure (it is flushed).
MergeCounts MergeStores(ReviewStore& out, ReviewStore& in, const std::string& input);

// The tables MergeStores carries from an input, in the order it carries them. Every table of the
// schema is here except the full-text index (sentences_fts and its shadow tables), which the
// output builds from the sentences it receives (tests/merge: a table of the schema left out of a
// merge fails them).
const std::vector<std::string>& MergedTables();

}  // namespace revsum
