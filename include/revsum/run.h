// Summaries of what the store holds: the `summarize` job.
//
//   ReviewStore ──reviews of a product──▶ sentences ──SummarizeScope (embed, score, select)──▶
//   scores + summaries ──▶ ReviewStore (one run)
//
// A run is identified by its parameters (RunKey): summarising again with the same parameters
// replaces that run's scores and summaries instead of adding a second copy.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/embed.h"
#include "revsum/models.h"
#include "revsum/opinion.h"
#include "revsum/store.h"
#include "revsum/summarize.h"
#include "revsum/tokens.h"
#include "revsum/use_lite.h"

namespace revsum {

// A run cannot start or has nothing to do: the tokenizer's vocabulary is missing (TokenCounter's
// message), a product asked for is not in the store, or no review of the chosen products (in the
// filter) has a sentence; what() says which.
class RunError : public Error {
 public:
  using Error::Error;
};

// Which embedder represents a scope.
//   lexical   hashed TF-IDF (lexical.h): any language, no model files.
//   use-lite  Universal Sentence Encoder Lite (use_lite.h): English / Latin script.
//   combined  CombinedEmbedder (combined.h) of lexical and USE-lite, cosine = a cos_lex +
//             (1 - a) cos_use with a = kCombinedLexicalShare.
//   auto      per scope: lexical when CJK text dominates (USE-lite maps Chinese to its unknown
//             piece), else combined — the best measured embedder on every English dev set
//             (tests/pipeline/quality_test.cc); the choice is recorded per summary. Combined
//             keeps 80% of the cosine lexical, so Latin-script text USE-lite was not trained on
//             (German, Spanish) still gets the word-overlap relation.
// Scopes above kLargeScopeSentences sentences use a kLargeScopeLexicalDim-wide lexical part, so
// the dense n x d matrix stays ~0.2 GB at 50k sentences instead of ~0.8 GB (dim 1024 moved the
// dev-set mean R1 by -0.05 lexical, -0.3 combined: within noise; quality_test.cc rows).
enum class EmbedderChoice { kLexical, kUseLite, kCombined, kAuto };
std::string_view EmbedderChoiceName(EmbedderChoice choice);
// Parses "lexical", "use-lite", "combined", "auto"; throws std::invalid_argument otherwise.
EmbedderChoice ParseEmbedderChoice(std::string_view name);

// UseLiteOptions{} with the int8 encoder: what RunOptions (and revsum summarize, run, eval) use.
inline UseLiteOptions Int8UseLite() {
  UseLiteOptions options;
  options.precision = UseLitePrecision::kInt8;
  return options;
}

// One USE-lite model for all the workers of a run, loaded on first use. Its memory (the weights
// and the embedding cache) is paid once, not once per thread. Thread-safe.
class SharedUseLite {
 public:
  explicit SharedUseLite(UseLiteOptions options);
  ~SharedUseLite();
  // The model, loaded by the first caller (others wait). Throws UseLiteError when its files are
  // missing or damaged; a later call tries again.
  Embedder& Get();
  // The threads each Embed call uses (UseLiteOptions::threads), whether loaded yet or not: a run
  // with several workers gives each call one, and the workers that wait lend theirs (HelpOnce).
  // Thread-safe: an Embed call already running keeps the threads it started with.
  void SetThreads(int threads);
  // Runs one batch of an Embed call in progress on this thread, if the model is loaded and has
  // one (UseLiteEmbedder::HelpOnce); whether it did. Thread-safe.
  bool HelpOnce();

 private:
  UseLiteOptions options_;
  std::mutex mu_;
  std::unique_ptr<UseLiteEmbedder> model_;
};

// Hands out the embedder for a scope, loading USE-lite on first use. Not thread-safe: one pool per
// thread, the pools of a run sharing one SharedUseLite.
class EmbedderPool {
 public:
  EmbedderPool(EmbedderChoice choice, UseLiteOptions use_lite = Int8UseLite());
  EmbedderPool(EmbedderChoice choice, std::shared_ptr<SharedUseLite> use_lite);
  ~EmbedderPool();
  // The embedder for a scope made of `texts`. Throws UseLiteError when USE-lite is needed and its
  // files are missing or damaged.
  Embedder& For(const std::vector<std::string>& texts);
  // A description for the run record, e.g. "auto(use-lite|lexical)".
  std::string Describe() const;
  // Model hashes of the embedders this choice may use, ';'-separated.
  std::string ModelHash();

 private:
  EmbedderChoice choice_;
  std::shared_ptr<SharedUseLite> shared_use_lite_;
  Embedder* use_lite_ = nullptr;  // owned by shared_use_lite_
  std::unique_ptr<Embedder> lexical_;
  std::unique_ptr<Embedder> combined_;        // over lexical_ and use_lite_
  std::unique_ptr<Embedder> large_lexical_;   // kLargeScopeLexicalDim wide
  std::unique_ptr<Embedder> large_combined_;  // over large_lexical_ and use_lite_
  std::unique_ptr<Embedder> huge_lexical_;    // kHugeScopeLexicalDim wide
};

// CJK share above which "auto" takes the lexical embedder (and the run takes the CJK seeds).
inline constexpr double kAutoCjkThreshold = 0.3;

// The lexical share a of the combined embedder (CombinedOptions::first_share). 0.8: the best of
// 0.3-0.85 on mean dev-set R1 (0.7-0.85 is a plateau; USE-lite alone is 3 points lower).
inline constexpr float kCombinedLexicalShare = 0.8f;

// Scopes with more sentences than this embed with a kLargeScopeLexicalDim-wide lexical part.
inline constexpr size_t kLargeScopeSentences = 8000;
inline constexpr int kLargeScopeLexicalDim = 1024;

// Scopes with more sentences than this embed with the lexical embedder alone, kHugeScopeLexicalDim
// wide, whatever the choice (but an explicit use-lite): the bound that keeps summarising any
// product under 1 GB. At 215,000 sentences the 1024-wide lexical matrix alone is 0.88 GB (1.18 GB
// peak RSS measured) and the combined one 1.3 GB; 256 wide it is 0.22 GB. Paraphrase matters least
// here: such a scope has thousands of reviews per opinion, and consensus is sampled anyway.
inline constexpr size_t kHugeScopeSentences = 50000;
inline constexpr int kHugeScopeLexicalDim = 256;

// A product with more sentences than this is summarised from a sample, so that no product needs
// more memory than this many sentences: an evenly spaced subset of its reviews, each giving at most
// its first kMaxSampledReviewSentences sentences. Its points' support and share are those of the
// sampled reviews (RunReport::products_sampled counts such products). Real dumps stay below it:
// the largest TripAdvisor hotel has 46,401 sentences.
inline constexpr size_t kMaxScopeSentences = 100000;
inline constexpr size_t kMaxSampledReviewSentences = 1000;

// What the products being embedded and scored at once may hold together (estimated from their
// sentence counts and embedding widths): workers wait for room, so peak memory does not grow with
// --threads beyond this; a product larger than the whole budget runs alone.
inline constexpr size_t kSummarizeMemoryBudget = size_t{384} << 20;

inline constexpr int kMaxRunThreads = 1024;

// The encoder's sentence cache (UseLiteOptions::cache_entries) in a run of product scopes only:
// enough for the seed sentences every scope embeds and a product's repeated sentences. The
// default 100,000 entries (~220 MB) lets review scopes reuse their product's rows; without them,
// the TripAdvisor dump repeats 1.8 % of its sentences and the full cache was a fifth of its peak
// memory.
inline constexpr size_t kProductRunCacheEntries = 10000;

// The models a run reads before it starts, read once: CheckRunNeeds loads them, the run takes them
// through RunOptions::models.
struct RunModels {
  std::shared_ptr<SharedUseLite> use_lite;  // made with RunOptions::use_lite
  std::shared_ptr<TokenCounter> tokens;     // RunOptions::tokenizer's
};

struct RunOptions {
  // What the products being embedded and scored at once may hold together (see
  // kSummarizeMemoryBudget). A product above it runs alone, and the workers that wait run batches
  // of its encoder.
  size_t memory_budget = kSummarizeMemoryBudget;
  // Which scopes to summarise.
  bool review_scope = false;
  bool product_scope = true;
  // Products to summarise; empty = every product in the store with a review passing `filter`.
  std::vector<std::string> products;
  // Which reviews each scope reads (rating and time bounds, store.h); part of the run key, so a
  // filtered run never replaces an unfiltered one. A product with no review passing it gets no
  // summary.
  ReviewFilter filter;
  // Embedder per scope (see EmbedderChoice).
  EmbedderChoice embedder = EmbedderChoice::kAuto;
  // USE-lite's options. Summarising runs the encoder in int8 by default (UseLitePrecision): about
  // 1.6x faster end to end, dev ROUGE within noise of float32 (docs/performance.md). A run without
  // review scopes keeps at most kProductRunCacheEntries sentences in the encoder's cache.
  UseLiteOptions use_lite = Int8UseLite();
  // The models of these options when they are already at hand (CheckRunNeeds returns them,
  // loaded and verified), so that the run does not read their files again; the run loads what
  // is null.
  RunModels models;
  // Tokenizer for token budgets ("300t") and token counts.
  Encoding tokenizer = Encoding::kO200kBase;
  // Budget, scorer, selector and seeds (summarize.h). The budget applies to each summary.
  // dense_candidates stays 0 (USE-lite on every sentence): the points stage
  // (ProductPoints) clusters on the USE-lite half of every row, and with 48 the rows outside
  // ScopeSummary::second_rows (zero USE-lite half) join no point: the planted English opinions of
  // 200-review products lost their points (tests/pipeline/points_quality_test.cc). Set it once
  // points cluster such rows another way.
  SummarizeOptions summarize;
  // Seed file for scopes whose CJK share exceeds kAutoCjkThreshold (summarize.seeds_path is used
  // for the others). Empty: summarize.seeds_path for every scope.
  std::string cjk_seeds_path = DefaultSeedsPath("zh.txt");
  // Products summarised in parallel; 0 = one per core; at most kMaxRunThreads. Also the threads
  // the run computes with: each worker's USE-lite encoder takes one, and a worker with no product
  // to start (waiting for the memory budget or for the next product, or done with its products)
  // runs batches of the others' encoder calls meanwhile; a run with one worker (one thread, or one
  // product) gives its encoder all of them, so 1 is one core. Results are identical whatever the
  // count (each product depends only on its own reviews; results are written in product order).
  int threads = 0;
  // Re-score only the products with reviews newer than the last finished run with the same key
  // and keep that run's other results; false = recompute everything.
  bool incremental = true;
  // Sentence opinions (opinion.h, train.h), --opinions:
  //   kAuto     the store's own model when it has one; else one trained now on the store's
  //             ratings when they can teach one; else the default model;
  //   kDefault  the shipped default model, never trained;
  //   kNone     no model: no opinion scores are stored and points take their sides from the word
  //             lists (what revsum did before schema 8; kept to measure against).
  // Each scored sentence gets its polarity score and salience (scores.opinion, scores.salience),
  // and points take their sides from them.
  enum class Opinions { kAuto, kDefault, kNone } opinions = Opinions::kAuto;
  // Called after each product with (done, total).
  std::function<void(size_t, size_t)> progress;
};

// Parses "auto", "default", "none"; throws std::invalid_argument otherwise.
RunOptions::Opinions ParseOpinionsChoice(std::string_view name);

// Parses a --since / --until bound: a date YYYY-MM-DD (UTC; with end_of_day, its last second,
// so "--until 2020-01-31" keeps the whole day) or unix seconds (digits, optionally negative).
// Throws std::invalid_argument saying what was expected, e.g. "'2020-13-01' is not a date
// YYYY-MM-DD or unix seconds".
int64_t ParseFilterTime(std::string_view text, bool end_of_day);
// Parses a --min-rating / --max-rating bound: a finite number. Throws std::invalid_argument.
double ParseFilterRating(std::string_view text);

struct RunReport {
  int64_t run_id = 0;
  size_t product_summaries = 0;
  size_t review_summaries = 0;
  size_t sentences_scored = 0;
  size_t products_rescored = 0;  // products whose results were computed by this run
  size_t products_reused = 0;    // products kept from the previous run with the same key
  size_t products_sampled = 0;   // products above kMaxScopeSentences, summarised from a sample
  std::string embedder;
  std::string opinion_model;   // which opinion model the run used (ChosenOpinionModel)
  std::string opinion_notice;  // why the store has no model of its own, when training declined
};

// The canonical string of every parameter that changes results; equal keys = the same run. The
// opinion model's sha256 is appended by SummarizeStore (";opinion=<sha256>"), once it is chosen.
std::string RunKey(const RunOptions& options);

// Throws RunError or ModelsError naming what is missing (the tokenizer's vocabulary, the USE-lite
// model files the embedder needs, the seed sentences) before any work is done, so `run` fails
// before it touches the store. Returns what it loaded, for RunOptions::models (USE-lite is loaded
// only when the embedder needs it), so that the run reads each model once.
RunModels CheckRunNeeds(const RunOptions& options);

// Summarises the chosen scopes and stores scores and summaries as one run, reading one snapshot
// (the reviews stored when it starts), products in parallel, re-scoring only what changed since
// the last finished run with the same key (see RunOptions::incremental). Throws StoreError,
// ModelsError (model and data files: seeds, word lists; UseLiteError for USE-lite), and
// RunError (tokenizer data, unknown product, nothing to summarise).
RunReport SummarizeStore(ReviewStore& store, const RunOptions& options);

}  // namespace revsum
