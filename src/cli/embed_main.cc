// revsum embed: one text per line on stdin, one JSON array of floats per line on stdout.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "command.h"
#include "common.h"
#include "revsum/lexical.h"

namespace revsum::cli {
namespace {

struct EmbedArgs {
  std::string embedder = "use-lite";
  std::string precision = "float32";  // the exact vectors, unlike summarising's int8
  int threads = 0;
  size_t batch = 4096;
};

void PrintRows(const Matrix& rows) {
  std::string line;
  char buf[32];
  for (Eigen::Index i = 0; i < rows.rows(); ++i) {
    line = "[";
    for (Eigen::Index j = 0; j < rows.cols(); ++j) {
      std::snprintf(buf, sizeof buf, j ? ",%.7g" : "%.7g", static_cast<double>(rows(i, j)));
      line += buf;
    }
    line += "]\n";
    std::cout << line;  // main() reports a failed write
  }
}

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<EmbedArgs>();
  sub.add_option("--embedder", args->embedder,
                 "use-lite (512-d neural) or lexical (hashed TF-IDF, IDF fitted on all of stdin)")
      ->check(CLI::IsMember({"use-lite", "lexical"}))
      ->capture_default_str();
  AddPrecisionOption(sub, &args->precision);
  AddThreadsOption(sub, &args->threads, "embedding threads");
  sub.add_option("--batch", args->batch, "use-lite: lines embedded per call")
      ->check(CLI::Range(size_t{1}, size_t{1} << 24))
      ->capture_default_str();
  return [args] {
    std::unique_ptr<Embedder> embedder;
    size_t batch = args->batch;
    if (args->embedder == "lexical") {
      embedder = std::make_unique<LexicalEmbedder>();
      batch = SIZE_MAX;  // the IDF is fitted on the whole input, so embed it in one call
    } else {
      UseLiteOptions options;
      options.threads = args->threads;
      options.precision = ParsePrecision(args->precision);
      embedder = UseLiteEmbedder::Load(options);
    }
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(std::move(line));
      if (lines.size() >= batch) {
        PrintRows(embedder->Embed(lines));
        lines.clear();
      }
    }
    if (!lines.empty()) PrintRows(embedder->Embed(lines));
    return kExitOk;
  };
}

REVSUM_COMMAND("embed", "Sentence embeddings: a text per stdin line, a JSON array per output line",
               Setup);

}  // namespace
}  // namespace revsum::cli
