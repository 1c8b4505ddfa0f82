// revsum stats --db PATH: what the store holds.
#include <iomanip>
#include <iostream>

#include "command.h"
#include "common.h"

namespace revsum::cli {
namespace {

Runner Setup(CLI::App& sub) {
  auto db = std::make_shared<std::string>();
  AddDbOption(sub, db.get());
  return [db] {
    StoreOptions options;
    options.read_only = true;
    auto store = ReviewStore::Open(*db, options);
    StoreStats s = store->Stats();
    std::cout << "database   " << *db << " (schema " << s.schema_version << ")\n"
              << "sources    " << Thousands(s.sources) << "\n"
              << "products   " << Thousands(s.products) << "\n"
              << "reviews    " << Thousands(s.reviews) << "\n"
              << "sentences  " << Thousands(s.sentences) << " (" << std::fixed
              << std::setprecision(2) << s.avg_sentences_per_review << " per review)\n"
              << "rejects    " << Thousands(s.rejects) << "\n"
              << "runs       " << Thousands(s.runs) << "\n"
              << "summaries  " << Thousands(s.summaries) << "\n";
    auto reasons = store->RejectReasons(10);
    if (!reasons.empty()) {
      std::cout << "reject reasons:\n";
      for (const auto& [reason, n] : reasons)
        std::cout << "  " << std::setw(8) << n << "  " << reason << "\n";
    }
    return kExitOk;
  };
}

REVSUM_COMMAND("stats", "Counts of what the store holds, and why records were rejected", Setup);

}  // namespace
}  // namespace revsum::cli
