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
#include <string>
#include <vector>

#include "revsum/embed.h"
#include "revsum/store.h"
#include "revsum/summarize.h"
#include "revsum/tokens.h"
#include "revsum/use_lite.h"

namespace revsum {

// Which embedder represents a scope.
//   lexical   hashed TF-IDF (lexical.h): any language, no model files.
//   use-lite  Universal Sentence Encoder Lite (use_lite.h): English / Latin script.
//   auto      per scope: lexical when CJK text dominates (USE-lite maps Chinese to its unknown
//             piece), else use-lite; the choice is recorded per summary.
enum class EmbedderChoice { kLexical, kUseLite, kAuto };
std::string_view EmbedderChoiceName(EmbedderChoice choice);
// Parses "lexical", "use-lite", "auto"; throws std::invalid_argument otherwise.
EmbedderChoice ParseEmbedderChoice(std::string_view name);

// Hands out the embedder for a scope, loading USE-lite on first use. Not thread-safe.
class EmbedderPool {
 public:
  EmbedderPool(EmbedderChoice choice, UseLiteOptions use_lite = {});
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
  UseLiteOptions use_lite_options_;
  std::unique_ptr<Embedder> lexical_;
  std::unique_ptr<Embedder> use_lite_;
};

// CJK share above which "auto" takes the lexical embedder.
inline constexpr double kAutoCjkThreshold = 0.3;

struct RunOptions {
  // Which scopes to summarise.
  bool review_scope = false;
  bool product_scope = true;
  // Products to summarise; empty = every product in the store.
  std::vector<std::string> products;
  // Embedder per scope (see EmbedderChoice).
  EmbedderChoice embedder = EmbedderChoice::kAuto;
  UseLiteOptions use_lite;
  // Tokenizer for token budgets ("300t") and token counts.
  Encoding tokenizer = Encoding::kO200kBase;
  // Budget, scorer, selector and seeds (summarize.h). The budget applies to each summary.
  SummarizeOptions summarize;
  // Called after each product with (done, total).
  std::function<void(size_t, size_t)> progress;
};

struct RunReport {
  int64_t run_id = 0;
  size_t product_summaries = 0;
  size_t review_summaries = 0;
  size_t sentences_scored = 0;
  std::string embedder;
};

// The canonical string of every parameter that changes results; equal keys = the same run.
std::string RunKey(const RunOptions& options);

// Summarises the chosen scopes and stores scores and summaries as one run. Throws StoreError,
// UseLiteError (model files), std::runtime_error (seeds, tokenizer data, unknown product).
RunReport SummarizeStore(ReviewStore& store, const RunOptions& options);

}  // namespace revsum
