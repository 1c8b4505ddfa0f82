// revsum ingest FILE... --db PATH: read dumps into the store.
#include <iostream>

#include "command.h"
#include "common.h"

namespace revsum::cli {
namespace {

struct IngestArgs {
  std::vector<std::string> files;
  std::string db;
  ReadFlags read;
  int threads = 0;
  bool quiet = false;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<IngestArgs>();
  sub.add_option("files", args->files,
                 "dump files (.jsonl, .csv, .tsv, .txt, optionally .gz); - for stdin")
      ->required();
  AddDbOption(sub, &args->db);
  AddReadOptions(sub, &args->read);
  sub.add_option("--threads", args->threads, "segmentation threads (0 = all cores, at most 1024)")
      ->check(CLI::Range(0, 1024));
  sub.add_flag("-q,--quiet", args->quiet, "no progress line, no per-record messages");
  return [args] {
    CheckInputs(args->files, ResolveReadOptions(args->read));  // setup errors before the store
    auto store = ReviewStore::Open(args->db);
    IngestCounts c = IngestAll(*store, args->files, args->read, args->threads, args->quiet);
    std::cout << "read " << c.read << "\tingested " << (c.ingested + c.duplicates) << "\trejected "
              << c.rejected << "\t(new " << c.ingested << ", already stored " << c.duplicates
              << ", sentences " << c.sentences << ")\n";
    return c.rejected > 0 ? kExitRejects : kExitOk;
  };
}

REVSUM_COMMAND("ingest", "Read review dumps (JSONL, CSV, TSV, text; .gz) into the SQLite store",
               Setup);

}  // namespace
}  // namespace revsum::cli
