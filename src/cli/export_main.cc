// revsum export --db PATH: prompt-ready summaries with citations and sizes.
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"
#include "revsum/export.h"
#include "revsum/json.h"
#include "revsum/run.h"

namespace revsum::cli {
namespace {

struct ExportArgs {
  std::string db, format = "text", tokenizer = "o200k_base", scope = "product", budget, citations;
  std::vector<std::string> products;
  int64_t run = 0;
  bool no_tokens = false, flat = false;
  std::string min_rating, max_rating;  // ParseFilterRating (run.h), as summarize reads them
  std::string since, until;
  std::string fields;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<ExportArgs>();
  AddExistingDbOption(sub, &args->db);
  sub.add_option("--format", args->format,
                 "text, markdown, json, jsonl, prompt (a compact block to paste into an LLM "
                 "prompt), or csv (one row per point, for sqlite-utils, Datasette, spreadsheets)")
      ->check(CLI::IsMember({"text", "markdown", "json", "jsonl", "prompt", "csv"}))
      ->capture_default_str();
  sub.add_option("--fields", args->fields,
                 "json/jsonl: only these keys of each product, in this order, e.g. "
                 "--fields product,rating,points (an unknown name lists the fields)");
  sub.add_flag("--flat", args->flat,
               "the stored flat summaries (kept sentences) instead of praise and complaints");
  sub.add_option("--budget", args->budget,
                 "per product, at most this much is emitted, measured on the exported text: "
                 "120w, 150t, 5s (points), 10% (default: the run's budget)");
  sub.add_option("--citations", args->citations,
                 "none, short (the shortest start, at least 8 characters, that no other review of "
                 "the store has) or full; citations are the dumps' own review ids (h:<content "
                 "hash> for a review without one) and `revsum show CITATION` finds them. "
                 "Default: full, prompt short")
      ->check(CLI::IsMember({"none", "short", "full"}));
  sub.add_option("--min-rating", args->min_rating,
                 "count only reviews rated at least this (header, support, share)");
  sub.add_option("--max-rating", args->max_rating, "count only reviews rated at most this");
  sub.add_option("--since", args->since,
                 "count only reviews from this day on (YYYY-MM-DD, UTC, or unix seconds)");
  sub.add_option("--until", args->until,
                 "count only reviews up to this day, included (YYYY-MM-DD or unix seconds)");
  sub.add_option("--product", args->products, "only these products (repeatable)");
  sub.add_option("--run", args->run,
                 "export this run (default: per product, its latest summary; the run is named)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--scope", args->scope, "product or review summaries (review: always flat)")
      ->check(CLI::IsMember({"product", "review"}))
      ->capture_default_str();
  sub.add_option("--tokenizer", args->tokenizer, "count LLM tokens with o200k_base or cl100k_base")
      ->check(CLI::IsMember({"o200k_base", "cl100k_base"}))
      ->capture_default_str();
  sub.add_flag("--no-tokens", args->no_tokens, "sizes in words only (no token budgets)");
  return [args] {
    ExportOptions options;
    options.format = ParseExportFormat(args->format);
    options.flat = args->flat;
    options.products = args->products;
    options.scope = args->scope;
    if (!args->fields.empty()) options.fields = ParseFieldList(args->fields);
    if (args->run > 0) options.run_id = args->run;
    if (!args->budget.empty()) options.budget = ParseBudget(args->budget);
    options.citations = !args->citations.empty() ? ParseCitationStyle(args->citations)
                        : options.format == ExportFormat::kPrompt ? CitationStyle::kShort
                                                                  : CitationStyle::kFull;
    auto rating = [](const char* flag, const std::string& value) -> std::optional<double> {
      if (value.empty()) return std::nullopt;
      try {
        return ParseFilterRating(value);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(flag) + ": " + e.what());
      }
    };
    options.filter.min_rating = rating("--min-rating", args->min_rating);
    options.filter.max_rating = rating("--max-rating", args->max_rating);
    if (!args->since.empty()) options.filter.since = ParseFilterTime(args->since, false);
    if (!args->until.empty()) options.filter.until = ParseFilterTime(args->until, true);
    StoreOptions store_options;
    store_options.read_only = true;
    auto store = ReviewStore::Open(args->db, store_options);
    std::unique_ptr<TokenCounter> tokens;
    if (!args->no_tokens) {
      Encoding encoding;
      ParseEncoding(args->tokenizer, &encoding);
      std::string error;
      tokens = TokenCounter::Load(encoding, &error);
      if (!tokens) throw ExportError(error + " (or pass --no-tokens)");
      options.tokens = tokens.get();
      options.tokenizer_name = args->tokenizer;
    }
    if (options.run_id) {
      const std::optional<RunInfo> run = store->runs().GetRun(*options.run_id);
      if (run && run->finished_at.empty()) {
        std::cerr << "revsum: warning: run " << run->id
                  << " is unfinished (interrupted, or still running): its products may be only "
                     "some of those it was to summarise\n";
      }
    }
    size_t exported = 0;
    ExportSummaries(*store, options, std::cout, [&exported](const ProductExport& p) {
      ++exported;
      if (p.left_out) {
        std::cerr << "revsum: warning: " << KeyForMessage(p.product)
                  << ": left out: the prompt header alone exceeds the budget " << p.budget << "\n";
      } else if (p.points.empty() && p.also_said.empty() && p.points_not_shown > 0) {
        std::cerr << "revsum: warning: " << KeyForMessage(p.product) << ": the budget " << p.budget
                  << " fits no point (" << p.points_not_shown
                  << " not shown); give a larger --budget\n";
      }
    });
    if (exported == 0 && !options.filter.empty()) {
      // Empty output is an answer; say why, so it is not read as "nothing was said".
      std::cerr << "revsum: warning: no review passes the filter"
                << (options.filter.since || options.filter.until
                        ? " (--since and --until leave out reviews without a time)"
                    : (options.filter.min_rating || options.filter.max_rating)
                        ? " (--min-rating and --max-rating leave out unrated reviews)"
                        : "")
                << ": nothing exported\n";
    }
    return kExitOk;
  };
}

REVSUM_COMMAND("export",
               "Prompt-ready summaries (text, markdown, json, jsonl, prompt, csv): praise and "
               "complaints with shares, cited by the dumps' own review ids",
               Setup);

}  // namespace
}  // namespace revsum::cli
