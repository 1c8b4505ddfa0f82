// Options and output helpers shared by several commands.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "revsum/ingest.h"
#include "revsum/run.h"

namespace revsum::cli {

// --db PATH (required), for commands that write the store: it is created if missing.
void AddDbOption(CLI::App& sub, std::string* db);

// --db PATH (required), for commands that only read the store: the file must exist, and the help
// says so (a misspelt path is an error, not a new empty store).
void AddExistingDbOption(CLI::App& sub, std::string* db);

// The most threads any command starts for one pool. More would only exhaust the system's thread
// limit (std::thread construction fails) on a machine that cannot run them.
inline constexpr int kMaxThreads = 1024;

// --threads N: 0 (one per core) .. kMaxThreads; anything else is refused with the range.
// `what` names the work, e.g. "embedding threads".
CLI::Option* AddThreadsOption(CLI::App& sub, int* threads, const std::string& what);

// The reader's options: --format, --text-field ... --time-field, --paragraphs.
struct ReadFlags {
  std::string format = "auto";
  bool paragraphs = false;
  ReadOptions options;
};
void AddReadOptions(CLI::App& sub, ReadFlags* flags);
// Applies --format; throws CLI::ValidationError-like std::invalid_argument on a bad name.
ReadOptions ResolveReadOptions(const ReadFlags& flags);

// Prints a one-line, self-overwriting progress report on stderr, only when stderr is a terminal
// and --quiet was not given: records/s, MB read and, when the size is known, % and ETA.
class ProgressLine {
 public:
  explicit ProgressLine(bool quiet);
  void Update(const IngestProgress& p);
  void Finish();

 private:
  bool enabled_;
  bool drawn_ = false;
};

// Ingests every path (only shard `shard`, see IngestShard), printing rejects and a closing line;
// returns the summed counts.
IngestCounts IngestAll(ReviewStore& store, const std::vector<std::string>& paths,
                       const ReadFlags& flags, int threads, bool quiet,
                       const IngestShard& shard = {});

// --encoder-precision int8|float32: USE-lite's dense layers (UseLitePrecision); the default is
// *precision's value.
void AddPrecisionOption(CLI::App& sub, std::string* precision);
UseLitePrecision ParsePrecision(const std::string& precision);

// The summarizer's options: --scope, --budget, --product, --embedder, --tokenizer,
// --encoder-precision, --threads, --min-rating, --max-rating, --since, --until.
struct SummarizeFlags {
  std::string scope = "product";
  std::string budget = "100w";
  std::vector<std::string> products;
  std::string embedder = "auto";
  std::string tokenizer = "o200k_base";
  std::string precision = "int8";
  std::string opinions = "auto";
  int threads = 0;
  // Review filter (RunOptions::filter); empty = no bound.
  std::string min_rating, max_rating, since, until;
};
void AddSummarizeOptions(CLI::App& sub, SummarizeFlags* flags);
// Throws std::invalid_argument naming the flag on a bad value.
RunOptions ResolveRunOptions(const SummarizeFlags& flags);
// Runs the summarizer and prints a closing line on stderr.
RunReport SummarizeAndReport(ReviewStore& store, const RunOptions& options, bool quiet);

// "1,234,567".
std::string Thousands(uint64_t n);

}  // namespace revsum::cli
