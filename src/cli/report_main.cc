// revsum report --db PATH [--product ID...] [--run N] -o report.html: the report page
// (include/revsum/report.h), one self-contained HTML file.
#include <filesystem>
#include <iostream>

#include "command.h"
#include "common.h"
#include "output_file.h"
#include "revsum/error.h"
#include "revsum/escape.h"
#include "revsum/report.h"

namespace revsum::cli {
namespace {

struct ReportArgs {
  std::string db, output;
  std::vector<std::string> products;
  int64_t run = 0;
  size_t max_products = ReportOptions{}.max_products;
  bool quiet = false;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<ReportArgs>();
  AddExistingDbOption(sub, &args->db);
  sub.add_option("-o,--output", args->output, "the HTML file to write ('-' = standard output)")
      ->required();
  sub.add_option("--product", args->products, "only these products, in this order (repeatable)");
  sub.add_option("--run", args->run,
                 "show this run's points and scores (default: per product its latest points)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--max-products", args->max_products,
                 "without --product: the products with most reviews, at most this many")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_flag("-q,--quiet", args->quiet, "no closing line on stderr");
  return [args] {
    StoreOptions store_options;
    store_options.read_only = true;
    auto store = ReviewStore::Open(args->db, store_options);
    // Every refusal names the argument and the value at fault, and comes before anything is
    // written (so no partial page is left behind).
    if (!store->runs().LatestRun()) {
      throw revsum::Error("report: --db " + args->db +
                          ": the store has no finished run, so nothing to report; run "
                          "`revsum summarize --db " +
                          args->db + "` first");
    }
    if (args->run > 0 && !store->runs().GetRun(args->run)) {
      throw revsum::Error("report: --run " + std::to_string(args->run) + ": no such run in " +
                          args->db + " (its latest run is " +
                          std::to_string(store->runs().LatestRun()->id) + ")");
    }
    for (const std::string& key : args->products) {
      if (!store->reviews().HasProduct(key)) {
        throw revsum::Error("report: --product '" + key + "': no such product in " + args->db);
      }
    }
    if (args->output != "-" && std::filesystem::is_directory(args->output)) {
      throw revsum::Error("report: -o " + args->output + ": is a directory");
    }
    ReportOptions options;
    options.products = args->products;
    if (args->run > 0) options.run_id = args->run;
    options.max_products = args->max_products;
    options.store_label = std::filesystem::path(args->db).filename().string();
    ReportSummary summary;
    // A regular file is replaced whole or not at all; a FIFO or device is written into
    // (output_file.h).
    WriteOutputFile(args->output, "report: -o " + args->output,
                    [&](std::ostream& out) { summary = WriteReport(*store, options, out); });
    if (!args->quiet) {
      std::cerr << "report: " << TerminalSafe(args->output) << ": " << summary.products
                << " products";
      if (summary.products_omitted) std::cerr << " (" << summary.products_omitted << " left out)";
      std::cerr << ", " << summary.points << " points, " << summary.evidence
                << " evidence sentences, " << summary.attention_reviews << " reviews sampled, "
                << Thousands(summary.bytes) << " bytes\n";
    }
    return kExitOk;
  };
}

REVSUM_COMMAND("report", "Write the report page: points, evidence and attention as one HTML file",
               Setup);

}  // namespace
}  // namespace revsum::cli
