// Prompt-ready output of stored summaries: text, markdown, json, jsonl.
//
// Per product: a header (review count, average rating when known), the kept sentences each with a
// citation to its review ([r<review id>]), and the size before and after. Sizes are in words and,
// when a tokenizer is given, in LLM tokens. The "after" figure counts exactly the summary body as
// exported — the cited sentence lines for text/markdown, the "summary" string for json/jsonl — so
// a user pasting the body pays what the export says. Words are counted as word budgets count them
// (BudgetWordCost in summarize.h: ICU words for Chinese, whitespace tokens for English). "Before"
// counts the product's review texts, one review per line.
//
// Escaping contract (every product key and sentence is dump text, hence hostile; revsum/escape.h):
//   text      one line per item: "== KEY (...) ==", "- SENTENCE [rN]", "(sizes)". KEY and SENTENCE
//             pass through TerminalSafe, so no control, newline or bidi override from the data
//             reaches the output: the lines are exactly the structure below.
//   markdown  "## KEY", "- SENTENCE [rN]": KEY and SENTENCE pass through MarkdownInline, so the
//   data
//             opens no heading, list item, link, image, code span or HTML tag, and the only
//             unescaped citations are the exporter's own.
//   json(l)   every string is JSON-quoted (JsonQuote) and holds the stored text unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "revsum/store.h"
#include "revsum/tokens.h"

namespace revsum {

enum class ExportFormat { kText, kMarkdown, kJson, kJsonl };
// "text", "markdown", "json", "jsonl"; throws std::invalid_argument otherwise.
ExportFormat ParseExportFormat(std::string_view name);

struct ExportOptions {
  ExportFormat format = ExportFormat::kText;
  // "product": one summary per product; "review": one per summarised review.
  std::string scope = "product";
  // Products to export (review scope: the reviews of these products); empty = all summarised.
  std::vector<std::string> products;
  // The run to export; unset = per product (or review) its summary from the latest finished run
  // that has one, so a partial re-run of some products does not hide the others. Every export
  // names the run each summary comes from.
  std::optional<int64_t> run_id;
  // Counts tokens with this tokenizer when set (not owned; must outlive the call).
  const TokenCounter* tokens = nullptr;
  // The tokenizer's name, shown with token counts (e.g. "o200k_base").
  std::string tokenizer_name;
};

// One product's exported summary, as written.
struct ProductExport {
  std::string product;
  int64_t run_id = 0;     // the run the summary comes from
  int64_t review_id = 0;  // review scope: the summarised review; 0 for a product summary
  int64_t reviews = 0;
  std::optional<double> avg_rating;
  std::string body;                 // the summary body exactly as exported (see header comment)
  std::vector<int64_t> review_ids;  // cited review of each kept sentence, in order
  int64_t words_before = 0, words_after = 0;
  int64_t tokens_before = 0, tokens_after = 0;  // 0 when no tokenizer was given
};

// Writes the export to `out` and returns what was written per product. Throws StoreError, or
// std::runtime_error when there is no finished run or a requested product has no summary.
std::vector<ProductExport> ExportSummaries(ReviewStore& store, const ExportOptions& options,
                                           std::ostream& out);

}  // namespace revsum
