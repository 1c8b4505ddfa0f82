// revsum ingest FILE... --db PATH: read dumps into the store.
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string_view>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"

namespace revsum::cli {
namespace {

struct IngestArgs {
  std::vector<std::string> files;
  std::string db;
  ReadFlags read;
  int threads = 0;
  std::string shard;
  bool quiet = false;
  bool detect = false;
  size_t detect_records = 3;
};

// One line per value: dump strings escaped for the terminal and cut at 80 code points' worth.
std::string Shown(std::string_view value) {
  std::string safe = TerminalSafe(value);
  if (safe.size() > 160) {
    size_t cut = 160;
    while (cut > 0 && (static_cast<unsigned char>(safe[cut]) & 0xC0) == 0x80) --cut;
    safe = safe.substr(0, cut) + "...";
  }
  return "\"" + safe + "\"";
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// --detect: the format, the field names asked for, notices and the first records, per input.
int PrintDetected(const IngestArgs& args) {
  const ReadOptions options = ResolveReadOptions(args.read);
  const FieldMap& f = options.fields;
  auto named = [](const std::string& name) { return name.empty() ? std::string("auto") : name; };
  for (const std::string& path : args.files) {
    DetectedInput d = DetectInput(path, options, args.detect_records);
    std::cout << TerminalSafe(path) << ": format " << FormatName(d.format)
              << (d.gzip ? " (gzip)" : "") << "; fields text=" << named(f.text)
              << " product=" << named(f.product) << " id=" << named(f.id)
              << " rating=" << named(f.rating) << " title=" << named(f.title)
              << " time=" << named(f.time)
              << " (auto: the candidates listed in docs/usage.md, Inputs)\n";
    for (const std::string& notice : d.notices)
      std::cout << "  note: " << TerminalSafe(notice) << "\n";
    for (const Record& record : d.records) {
      if (record.reject) {
        std::cout << "  line " << record.reject->line
                  << ": rejected: " << TerminalSafe(record.reject->reason) << "\n";
        continue;
      }
      const Review& r = *record.review;
      std::cout << "  line " << r.line << ": product " << Shown(r.product) << ", id "
                << Shown(r.external_id) << ", rating "
                << (r.rating ? Number(*r.rating) : std::string("none")) << ", time "
                << (r.time ? std::to_string(*r.time) : std::string("none")) << ", title "
                << Shown(r.title) << ", text " << Shown(r.text) << "\n";
    }
  }
  return kExitOk;
}

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<IngestArgs>();
  sub.add_option("files", args->files,
                 "dump files (.jsonl, .csv, .tsv, .txt, optionally .gz); - for stdin")
      ->required();
  sub.add_option("--db", args->db, "SQLite database file (created if missing; not with --detect)");
  AddReadOptions(sub, &args->read);
  AddThreadsOption(sub, &args->threads, "segmentation threads");
  sub.add_option("--shard", args->shard,
                 "K/N: keep only the products of shard K of N (FNV-1a 64 of the product key mod N "
                 "+ 1 = K); join the N stores with `revsum merge`");
  sub.add_flag("-q,--quiet", args->quiet, "no progress line, no per-record messages");
  sub.add_flag("--detect,--dry-run", args->detect,
               "write nothing: print each input's detected format, the field names in use, "
               "notices and its first records as parsed");
  sub.add_option("--detect-records", args->detect_records, "records printed by --detect")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  return [args] {
    if (args->detect) return PrintDetected(*args);
    if (args->db.empty()) throw std::invalid_argument("--db is required (or --detect)");
    const IngestShard shard = args->shard.empty() ? IngestShard{} : ParseShard(args->shard);
    CheckInputs(args->files, ResolveReadOptions(args->read));  // setup errors before the store
    auto store = ReviewStore::Open(args->db);
    IngestCounts c = IngestAll(*store, args->files, args->read, args->threads, args->quiet, shard);
    std::cout << "read " << c.read << "\tingested " << (c.ingested + c.duplicates) << "\trejected "
              << c.rejected;
    if (shard.count > 1) std::cout << "\tother shard " << c.other_shard;
    std::cout << "\t(new " << c.ingested << ", already stored " << c.duplicates << ", sentences "
              << c.sentences << ")\n";
    return c.rejected > 0 ? kExitRejects : kExitOk;
  };
}

REVSUM_COMMAND("ingest", "Read review dumps (JSONL, CSV, TSV, text; .gz) into the SQLite store",
               Setup);

}  // namespace
}  // namespace revsum::cli
