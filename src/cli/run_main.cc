// revsum run DUMP... --db PATH: ingest, then summarise — the main job.
#include <iostream>

#include "command.h"
#include "common.h"

namespace revsum::cli {
namespace {

struct RunArgs {
  std::vector<std::string> files;
  std::string db;
  ReadFlags read;
  SummarizeFlags flags;
  std::string shard;
  bool quiet = false;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<RunArgs>();
  sub.add_option("files", args->files,
                 "dump files (.jsonl, .csv, .tsv, .txt, optionally .gz); - for stdin")
      ->required();
  AddDbOption(sub, &args->db);
  AddReadOptions(sub, &args->read);
  AddSummarizeOptions(sub, &args->flags);
  sub.add_option("--shard", args->shard,
                 "K/N: keep only the products of shard K of N (FNV-1a 64 of the product key mod N "
                 "+ 1 = K); join the N stores with `revsum merge`");
  sub.add_flag("-q,--quiet", args->quiet, "no progress line, no per-record messages");
  return [args] {
    // Everything the job needs is checked before the store is touched: arguments, inputs, models.
    RunOptions options = ResolveRunOptions(args->flags);
    const IngestShard shard = args->shard.empty() ? IngestShard{} : ParseShard(args->shard);
    CheckInputs(args->files, ResolveReadOptions(args->read));
    options.models = CheckRunNeeds(options);
    auto store = ReviewStore::Open(args->db);
    IngestCounts c =
        IngestAll(*store, args->files, args->read, args->flags.threads, args->quiet, shard);
    std::cout << "read " << c.read << "\tingested " << (c.ingested + c.duplicates) << "\trejected "
              << c.rejected;
    if (shard.count > 1) std::cout << "\tother shard " << c.other_shard;
    std::cout << "\n";
    RunReport report = SummarizeAndReport(*store, options, args->quiet);
    std::cout << "run " << report.run_id << "\tproduct summaries " << report.product_summaries
              << "\treview summaries " << report.review_summaries << "\n";
    return c.rejected > 0 ? kExitRejects : kExitOk;
  };
}

REVSUM_COMMAND("run", "Ingest dumps, then summarise them: the main job", Setup);

}  // namespace
}  // namespace revsum::cli
