// revsum summarize --db PATH: score and select sentences for the stored reviews, as one run.
#include <iostream>

#include "command.h"
#include "common.h"

namespace revsum::cli {
namespace {

struct SummarizeArgs {
  std::string db;
  SummarizeFlags flags;
  bool quiet = false;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<SummarizeArgs>();
  AddDbOption(sub, &args->db);
  AddSummarizeOptions(sub, &args->flags);
  sub.add_flag("-q,--quiet", args->quiet, "no progress or closing line");
  return [args] {
    RunOptions options = ResolveRunOptions(args->flags);
    options.models = CheckRunNeeds(options);
    auto store = ReviewStore::Open(args->db);
    SummarizeAndReport(*store, options, args->quiet);
    return kExitOk;
  };
}

REVSUM_COMMAND("summarize", "Summarise stored reviews per product and/or per review (one run)",
               Setup);

}  // namespace
}  // namespace revsum::cli
