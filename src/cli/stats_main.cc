// revsum stats --db PATH [--json]: what the store holds.
//
// --json prints one JSON object on stdout:
//   {"database": PATH, "schema_version": N, "sources": N, "products": N, "reviews": N,
//    "sentences": N, "sentences_per_review": X, "rejects": N, "runs": N, "summaries": N,
//    "unfinished_ingests": N, "unfinished_runs": N,
//    "reject_reasons": [{"reason": TEXT, "count": N}, ...]}   (the 10 most frequent reasons)
#include <cmath>
#include <cstdio>
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"
#include "revsum/json.h"

namespace revsum::cli {
namespace {

constexpr size_t kReasons = 10;

// snprintf, so no stream state (std::fixed, precision) carries over to later output.
std::string Format(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string StatsJson(const std::string& db, const StoreStats& s,
                      const std::vector<std::pair<std::string, int64_t>>& reasons) {
  std::string o = "{\"database\":" + JsonQuote(db);
  o += ",\"schema_version\":" + std::to_string(s.schema_version);
  o += ",\"sources\":" + std::to_string(s.sources);
  o += ",\"products\":" + std::to_string(s.products);
  o += ",\"reviews\":" + std::to_string(s.reviews);
  o += ",\"sentences\":" + std::to_string(s.sentences);
  o += ",\"sentences_per_review\":" + (std::isfinite(s.avg_sentences_per_review)
                                           ? Format("%.6g", s.avg_sentences_per_review)
                                           : std::string("null"));
  o += ",\"rejects\":" + std::to_string(s.rejects);
  o += ",\"runs\":" + std::to_string(s.runs);
  o += ",\"summaries\":" + std::to_string(s.summaries);
  o += ",\"unfinished_ingests\":" + std::to_string(s.unfinished_ingests);
  o += ",\"unfinished_runs\":" + std::to_string(s.unfinished_runs);
  o += ",\"reject_reasons\":[";
  for (size_t i = 0; i < reasons.size(); ++i) {
    o += (i ? ",{\"reason\":" : "{\"reason\":") + JsonQuote(reasons[i].first) +
         ",\"count\":" + std::to_string(reasons[i].second) + "}";
  }
  return o + "]}\n";
}

Runner Setup(CLI::App& sub) {
  auto db = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  AddDbOption(sub, db.get());
  // Read-only: a missing database is an error, never created.
  sub.get_option("--db")->description("the revsum database to read (never created here)");
  sub.add_flag("--json", *json,
               "print one JSON object: database, schema_version, sources, products, reviews, "
               "sentences, sentences_per_review, rejects, runs, summaries, unfinished_ingests, "
               "unfinished_runs, reject_reasons [{reason, count}] (the 10 most frequent)");
  return [db, json] {
    StoreOptions options;
    options.read_only = true;
    auto store = ReviewStore::Open(*db, options);
    StoreStats s = store->reviews().Stats();
    auto reasons = store->reviews().RejectReasons(kReasons);
    if (*json) {
      std::cout << StatsJson(*db, s, reasons);
      return kExitOk;
    }
    std::cout << "database   " << TerminalSafe(*db) << " (schema " << s.schema_version << ")\n"
              << "sources    " << Thousands(s.sources) << "\n"
              << "products   " << Thousands(s.products) << "\n"
              << "reviews    " << Thousands(s.reviews) << "\n"
              << "sentences  " << Thousands(s.sentences) << " ("
              << Format("%.2f", s.avg_sentences_per_review) << " per review)\n"
              << "rejects    " << Thousands(s.rejects) << "\n"
              << "runs       " << Thousands(s.runs) << "\n"
              << "summaries  " << Thousands(s.summaries) << "\n";
    if (s.unfinished_ingests > 0) {
      std::cout << "unfinished " << Thousands(s.unfinished_ingests)
                << " ingest(s) (killed or failed; ingest the same files again to complete them)\n";
    }
    if (s.unfinished_runs > 0) {
      std::cout << "unfinished " << Thousands(s.unfinished_runs)
                << " run(s) (killed or failed; not counted above)\n";
    }
    if (!reasons.empty()) {
      std::cout << "reject reasons:\n";
      for (const auto& [reason, n] : reasons) {
        char count[32];
        std::snprintf(count, sizeof count, "%8lld", static_cast<long long>(n));
        std::cout << "  " << count << "  " << TerminalSafe(reason) << "\n";
      }
    }
    return kExitOk;
  };
}

REVSUM_COMMAND("stats", "Counts of what the store holds, and why records were rejected", Setup);

}  // namespace
}  // namespace revsum::cli
