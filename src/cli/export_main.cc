// revsum export --db PATH: prompt-ready summaries with citations and sizes.
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/export.h"

namespace revsum::cli {
namespace {

struct ExportArgs {
  std::string db, format = "text", tokenizer = "o200k_base", scope = "product";
  std::vector<std::string> products;
  int64_t run = 0;
  bool no_tokens = false;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<ExportArgs>();
  AddExistingDbOption(sub, &args->db);
  sub.add_option("--format", args->format, "text, markdown, json or jsonl")
      ->check(CLI::IsMember({"text", "markdown", "json", "jsonl"}))
      ->capture_default_str();
  sub.add_option("--product", args->products, "only these products (repeatable)");
  sub.add_option("--run", args->run,
                 "export this run (default: per product, its latest summary; the run is named)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--scope", args->scope, "product or review summaries")
      ->check(CLI::IsMember({"product", "review"}))
      ->capture_default_str();
  sub.add_option("--tokenizer", args->tokenizer, "count LLM tokens with o200k_base or cl100k_base")
      ->check(CLI::IsMember({"o200k_base", "cl100k_base"}))
      ->capture_default_str();
  sub.add_flag("--no-tokens", args->no_tokens, "sizes in words only");
  return [args] {
    StoreOptions store_options;
    store_options.read_only = true;
    auto store = ReviewStore::Open(args->db, store_options);
    ExportOptions options;
    options.format = ParseExportFormat(args->format);
    options.products = args->products;
    options.scope = args->scope;
    if (args->run > 0) options.run_id = args->run;
    std::unique_ptr<TokenCounter> tokens;
    if (!args->no_tokens) {
      Encoding encoding;
      ParseEncoding(args->tokenizer, &encoding);
      std::string error;
      tokens = TokenCounter::Load(encoding, &error);
      if (!tokens) throw std::runtime_error(error + " (or pass --no-tokens)");
      options.tokens = tokens.get();
      options.tokenizer_name = args->tokenizer;
    }
    ExportSummaries(*store, options, std::cout);
    return kExitOk;
  };
}

REVSUM_COMMAND("export", "Prompt-ready summaries (text, markdown, json, jsonl) with citations",
               Setup);

}  // namespace
}  // namespace revsum::cli
