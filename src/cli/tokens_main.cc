// revsum tokens: counts LLM tokens (tiktoken o200k_base / cl100k_base) of one text per input line.
//
//   revsum tokens [--tokenizer o200k_base|cl100k_base] [--ids] [--json-input] < texts
//
// Input: one text per line on stdin; a trailing '\r' (CRLF files) is not part of the text. With
// --json-input each line is a JSON string literal instead, so texts may hold newlines. (--json,
// its old name, still works and says so on stderr: elsewhere --json means JSON output.)
// Output: one line per input line: the token count, and with --ids a tab and the ids as a JSON
// array ("12\t[1,2,3]"). Special-token texts such as "<|endoftext|>" count as ordinary text.
#include <cstdio>
#include <iostream>
#include <string>

#include "command.h"
#include "revsum/escape.h"
#include "revsum/tokens.h"

namespace revsum::cli {
namespace {

struct TokensOptions {
  std::string tokenizer = "o200k_base";  // the tiktoken encoding
  bool ids = false;                      // also print the token ids
  bool json = false;                     // input lines are JSON string literals
};

int RunTokens(const TokensOptions& options) {
  Encoding encoding;
  if (!ParseEncoding(options.tokenizer, &encoding)) {
    std::cerr << "revsum tokens: unknown tokenizer '" << options.tokenizer
              << "' (expected o200k_base or cl100k_base)\n";
    return kExitFailure;
  }
  std::string error;
  std::unique_ptr<TokenCounter> counter = TokenCounter::Load(encoding, &error);
  if (!counter) {
    std::cerr << "revsum tokens: " << error << "\n";
    return kExitFailure;
  }
  std::string line, text, out;
  std::vector<uint32_t> ids;
  uint64_t line_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (options.json) {
      if (!DecodeJsonString(line, &text, &error)) {
        std::cout << out << std::flush;
        std::cerr << "revsum tokens: <stdin>:" << line_no << ": " << TerminalSafe(error) << "\n";
        return kExitFailure;
      }
    } else {
      text.swap(line);
    }
    ids.clear();
    counter->Encode(text, &ids);
    out += std::to_string(ids.size());
    if (options.ids) {
      out += "\t[";
      for (size_t i = 0; i < ids.size(); ++i) {
        if (i > 0) out += ',';
        out += std::to_string(ids[i]);
      }
      out += ']';
    }
    out += '\n';
    if (out.size() > (1 << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out;  // main() flushes and reports a failed write
  return kExitOk;
}

Runner SetupTokens(CLI::App& sub) {
  auto options = std::make_shared<TokensOptions>();
  sub.add_option("--tokenizer", options->tokenizer, "tiktoken encoding")
      ->check(CLI::IsMember({"o200k_base", "cl100k_base"}))
      ->capture_default_str();
  sub.add_flag("--ids", options->ids, "also print the token ids as a JSON array after a tab");
  sub.add_flag("--json-input", options->json,
               "each input line is a JSON string literal (texts may hold newlines)");
  auto old_name = std::make_shared<bool>(false);
  sub.add_flag("--json", *old_name,
               "the old name of --json-input (the input is JSON, not the output)");
  return [options, old_name] {
    if (*old_name) {
      std::cerr << "revsum tokens: --json means --json-input (JSON input lines; the output is "
                   "always counts); write --json-input\n";
      options->json = true;
    }
    return RunTokens(*options);
  };
}

}  // namespace

REVSUM_COMMAND("tokens", "count LLM tokens (tiktoken o200k_base/cl100k_base) per input line",
               SetupTokens);

}  // namespace revsum::cli
