// revsum merge OUT.db IN.db...: join shard stores (or any revsum stores) into one.
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"
#include "revsum/merge.h"

namespace revsum::cli {
namespace {

struct MergeArgs {
  std::string out;
  std::vector<std::string> inputs;
  bool quiet = false;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<MergeArgs>();
  sub.add_option("out", args->out, "the store to merge into (created if missing)")->required();
  sub.add_option("inputs", args->inputs, "revsum stores to merge (opened read-only)")
      ->required()
      ->check(CLI::ExistingFile);
  sub.add_flag("-q,--quiet", args->quiet, "no line per input");
  return [args] {
    // Every input is checked before the output is created or touched.
    for (const std::string& input : args->inputs) CheckMergeInput(input);
    auto out = ReviewStore::Open(args->out);
    MergeCounts total;
    for (const std::string& input : args->inputs) {
      MergeCounts c = MergeStore(*out, input);
      if (!args->quiet) {
        std::cerr << TerminalSafe(input) << ": added " << Thousands(c.reviews) << " reviews, "
                  << Thousands(c.sentences) << " sentences, " << Thousands(c.rejects)
                  << " rejects, " << Thousands(c.summaries) << " summaries\n";
      }
      if (c.interrupted_runs) {
        std::cerr << "revsum: warning: " << TerminalSafe(input) << ": " << c.interrupted_runs
                  << " run(s) finished on one side and interrupted on the other: the merged "
                     "run is readable, and `revsum summarize` with the same options summarises "
                     "the products it had not reached\n";
      }
      total += c;
    }
    std::cout << "merged " << args->inputs.size() << " stores\tsources " << total.sources
              << "\tproducts " << total.products << "\treviews " << total.reviews << "\tsentences "
              << total.sentences << "\trejects " << total.rejects << "\truns " << total.runs
              << "\tscores " << total.scores << "\tsummaries " << total.summaries << "\n";
    return kExitOk;
  };
}

REVSUM_COMMAND("merge",
               "Merge revsum stores (e.g. the shards of --shard K/N) into one: OUT.db IN.db...",
               Setup);

}  // namespace
}  // namespace revsum::cli
