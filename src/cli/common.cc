#include "common.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "revsum/error.h"
#include "revsum/escape.h"

namespace revsum::cli {

void AddDbOption(CLI::App& sub, std::string* db) {
  sub.add_option("--db", *db, "SQLite database file (created if missing)")->required();
}

void AddExistingDbOption(CLI::App& sub, std::string* db) {
  sub.add_option("--db", *db, "SQLite database file (must exist)")
      ->required()
      ->check(CLI::ExistingFile);
}

CLI::Option* AddThreadsOption(CLI::App& sub, int* threads, const std::string& what) {
  return sub
      .add_option("--threads", *threads,
                  what + " (0 = all cores, at most " + std::to_string(kMaxThreads) + ")")
      ->check(CLI::Range(0, kMaxThreads))
      ->capture_default_str();
}

void AddReadOptions(CLI::App& sub, ReadFlags* flags) {
  sub.add_option("--format", flags->format,
                 "auto, jsonl, json (an array, or lines), csv, tsv or text")
      ->capture_default_str();
  FieldMap& f = flags->options.fields;
  sub.add_option("--text-field", f.text, "field/column holding the review text");
  sub.add_option("--product-field", f.product, "field/column holding the product key");
  sub.add_option("--id-field", f.id, "field/column holding the review id");
  sub.add_option("--rating-field", f.rating, "field/column holding the rating");
  sub.add_option("--title-field", f.title, "field/column holding the title");
  sub.add_option("--time-field", f.time, "field/column holding the time (unix s or ms)");
  sub.add_flag("--paragraphs", flags->paragraphs,
               "plain text: reviews are separated by blank lines (default: one per line)");
}

ReadOptions ResolveReadOptions(const ReadFlags& flags) {
  ReadOptions options = flags.options;
  auto format = ParseFormat(flags.format);
  if (!format) {
    throw std::invalid_argument("--format: unknown format '" + flags.format +
                                "' (auto, jsonl, json, csv, tsv, text)");
  }
  options.format = *format;
  options.blank_line_separated = flags.paragraphs;
  return options;
}

ProgressLine::ProgressLine(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO)) {}

void ProgressLine::Update(const IngestProgress& p) {
  if (!enabled_) return;
  double rate = p.seconds > 0 ? static_cast<double>(p.records) / p.seconds : 0;
  double mb = static_cast<double>(p.bytes) / 1e6;
  const std::string path = TerminalSafe(p.path);
  char line[256];
  if (p.total_bytes > 0 && p.bytes > 0) {
    double frac = static_cast<double>(p.bytes) / static_cast<double>(p.total_bytes);
    double eta = frac > 0 ? p.seconds * (1 - frac) / frac : 0;
    std::snprintf(line, sizeof line,
                  "\r%s: %s records, %.0f rec/s, %.1f/%.1f MB (%.0f%%), ETA %.0fs ", path.c_str(),
                  Thousands(p.records).c_str(), rate, mb, static_cast<double>(p.total_bytes) / 1e6,
                  100 * frac, eta);
  } else {
    std::snprintf(line, sizeof line, "\r%s: %s records, %.0f rec/s, %.1f MB ", path.c_str(),
                  Thousands(p.records).c_str(), rate, mb);
  }
  std::cerr << line << std::flush;
  drawn_ = true;
}

void ProgressLine::Finish() {
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

IngestCounts IngestAll(ReviewStore& store, const std::vector<std::string>& paths,
                       const ReadFlags& flags, int threads, bool quiet, const IngestShard& shard) {
  IngestOptions options;
  options.read = ResolveReadOptions(flags);
  options.threads = threads;
  options.shard = shard;
  ProgressLine progress(quiet);
  options.progress = [&](const IngestProgress& p) { progress.Update(p); };
  uint64_t shown = 0;
  options.on_reject = [&](const Reject& r) {
    if (quiet) return;
    progress.Finish();
    if (++shown <= 20) {
      std::cerr << TerminalSafe(r.source) << ":" << r.line
                << ": rejected: " << TerminalSafe(r.reason) << "\n";
    } else if (shown == 21) {
      std::cerr << "(further rejects not shown; see the rejects table or `revsum stats`)\n";
    }
  };
  // What the reader wants the user to know once per input (no product field found, ...).
  options.read.on_notice = [&](const std::string& notice) {
    if (quiet) return;
    progress.Finish();
    std::cerr << "revsum: note: " << TerminalSafe(notice) << "\n";
  };
  std::string error;
  std::unique_ptr<TokenCounter> tokens = TokenCounter::Load(Encoding::kO200kBase, &error);
  // Every stored sentence carries its token count (docs/store.md promises it): no vocabulary, no
  // ingest.
  if (!tokens) throw revsum::Error("cannot count sentence tokens: " + error);
  options.tokens = tokens.get();
  IngestCounts total;
  for (const std::string& path : paths) {
    IngestCounts c = IngestFile(store, path, options);
    progress.Finish();
    if (!quiet) {
      std::cerr << TerminalSafe(path) << ": read " << Thousands(c.read) << " = ingested "
                << Thousands(c.ingested + c.duplicates) << " (new " << Thousands(c.ingested)
                << ", already stored " << Thousands(c.duplicates) << ") + rejected "
                << Thousands(c.rejected);
      if (shard.count > 1) std::cerr << " + other shard " << Thousands(c.other_shard);
      std::cerr << "\n";
    }
    total += c;
  }
  return total;
}

void AddPrecisionOption(CLI::App& sub, std::string* precision) {
  sub.add_option("--encoder-precision", *precision,
                 "USE-lite's dense layers: int8 (summarising about 1.6x faster, embeddings "
                 "within ~0.002 cosine of float32) or float32 (TF.js's arithmetic)")
      ->check(CLI::IsMember({"int8", "float32"}))
      ->capture_default_str();
}

UseLitePrecision ParsePrecision(const std::string& precision) {
  return precision == "float32" ? UseLitePrecision::kFloat32 : UseLitePrecision::kInt8;
}

void AddSummarizeOptions(CLI::App& sub, SummarizeFlags* flags) {
  sub.add_option("--scope", flags->scope, "review, product or both")
      ->check(CLI::IsMember({"review", "product", "both"}))
      ->capture_default_str();
  sub.add_option("--budget", flags->budget,
                 "per summary: words (120w), sentences (5s), LLM tokens (300t) or a ratio (10%)")
      ->capture_default_str();
  sub.add_option("--product", flags->products, "only these products (repeatable)");
  sub.add_option("--embedder", flags->embedder,
                 "auto (combined; lexical for CJK), combined, use-lite or lexical")
      ->check(CLI::IsMember({"auto", "combined", "use-lite", "lexical"}))
      ->capture_default_str();
  sub.add_option("--tokenizer", flags->tokenizer, "o200k_base or cl100k_base (token budgets)")
      ->check(CLI::IsMember({"o200k_base", "cl100k_base"}))
      ->capture_default_str();
  AddPrecisionOption(sub, &flags->precision);
  sub.add_option("--opinions", flags->opinions,
                 "sentence opinions: auto (the store's own model, trained from its ratings when "
                 "they can teach one, else the default), default (the shipped model), none (word "
                 "lists only)")
      ->check(CLI::IsMember({"auto", "default", "none"}))
      ->capture_default_str();
  AddThreadsOption(sub, &flags->threads, "threads: products summarised in parallel, one each");
  sub.add_option("--min-rating", flags->min_rating,
                 "only reviews rated at least this (reviews without a rating are left out)");
  sub.add_option("--max-rating", flags->max_rating,
                 "only reviews rated at most this (reviews without a rating are left out)");
  sub.add_option("--since", flags->since,
                 "only reviews from this day (YYYY-MM-DD, UTC) or unix second on (reviews "
                 "without a time are left out)");
  sub.add_option("--until", flags->until,
                 "only reviews up to this day (YYYY-MM-DD, UTC, the whole day) or unix second");
}

RunOptions ResolveRunOptions(const SummarizeFlags& flags) {
  RunOptions options;
  options.review_scope = flags.scope == "review" || flags.scope == "both";
  options.product_scope = flags.scope == "product" || flags.scope == "both";
  options.products = flags.products;
  options.embedder = ParseEmbedderChoice(flags.embedder);
  options.use_lite.precision = ParsePrecision(flags.precision);
  options.opinions = ParseOpinionsChoice(flags.opinions);
  options.threads = flags.threads;
  if (!ParseEncoding(flags.tokenizer, &options.tokenizer)) {
    throw std::invalid_argument("--tokenizer: unknown tokenizer '" + flags.tokenizer + "'");
  }
  try {
    options.summarize.budget = ParseBudget(flags.budget);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--budget: ") + e.what());
  }
  auto parse = [](const char* name, const std::string& value, auto how) {
    try {
      return how(value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(name) + ": " + e.what());
    }
  };
  ReviewFilter& f = options.filter;
  if (!flags.min_rating.empty())
    f.min_rating = parse("--min-rating", flags.min_rating, ParseFilterRating);
  if (!flags.max_rating.empty())
    f.max_rating = parse("--max-rating", flags.max_rating, ParseFilterRating);
  if (!flags.since.empty()) {
    f.since = parse("--since", flags.since,
                    [](const std::string& v) { return ParseFilterTime(v, false); });
  }
  if (!flags.until.empty()) {
    f.until = parse("--until", flags.until,
                    [](const std::string& v) { return ParseFilterTime(v, true); });
  }
  if (f.min_rating && f.max_rating && *f.min_rating > *f.max_rating) {
    throw std::invalid_argument("--min-rating " + flags.min_rating + " is above --max-rating " +
                                flags.max_rating + ": no review could pass");
  }
  if (f.since && f.until && *f.since > *f.until) {
    throw std::invalid_argument("--since " + flags.since + " is after --until " + flags.until +
                                ": no review could pass");
  }
  return options;
}

RunReport SummarizeAndReport(ReviewStore& store, const RunOptions& run_options, bool quiet) {
  RunOptions options = run_options;
  bool tty = !quiet && isatty(STDERR_FILENO);
  if (tty) {
    options.progress = [](size_t done, size_t total) {
      std::cerr << "\rsummarizing: " << done << "/" << total << " products " << std::flush;
    };
  }
  RunReport report = SummarizeStore(store, options);
  if (tty) std::cerr << "\r\033[K";
  if (!quiet) {
    std::cerr << "run " << report.run_id << ": " << report.product_summaries
              << " product summaries, " << report.review_summaries << " review summaries, "
              << Thousands(report.sentences_scored) << " sentences scored, "
              << Thousands(report.products_rescored) << " products re-scored, "
              << Thousands(report.products_reused) << " reused (embedder " << report.embedder
              << ", budget " << options.summarize.budget.ToString() << ")\n";
    if (report.products_sampled > 0) {
      std::cerr << "run " << report.run_id << ": " << Thousands(report.products_sampled)
                << " products above " << Thousands(kMaxScopeSentences)
                << " sentences were summarised from an evenly spaced sample of their reviews\n";
    }
    std::cerr << "run " << report.run_id << ": opinions from the " << report.opinion_model;
    if (!report.opinion_notice.empty()) {
      std::cerr << "; no model of this store's own: " << TerminalSafe(report.opinion_notice);
    }
    std::cerr << "\n";
  }
  return report;
}

std::string Thousands(uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace revsum::cli
