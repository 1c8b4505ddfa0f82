// revsum search "text" --db PATH: full-text search over sentences (English and Chinese).
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/text.h"

namespace revsum::cli {
namespace {

struct SearchArgs {
  std::string query, db;
  size_t limit = 20;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<SearchArgs>();
  sub.add_option("query", args->query, "FTS5 query: words, \"phrases\", AND/OR/NOT, prefix*")
      ->required();
  AddDbOption(sub, &args->db);
  sub.add_option("-n,--limit", args->limit, "at most this many sentences")->capture_default_str();
  return [args] {
    StoreOptions options;
    options.read_only = true;
    auto store = ReviewStore::Open(args->db, options);
    // The index holds cleaned (NFKC) text, so the query is cleaned the same way: full-width
    // "ｋｅｔｔｌｅ" finds "kettle".
    const std::string query = CleanText(args->query);
    if (query.empty()) {
      std::cerr << "revsum search: the query is empty\n";
      return kExitFailure;
    }
    auto hits = store->Search(query, args->limit);
    for (const SearchHit& h : hits) {
      std::cout << "[" << h.product << " review " << h.review_id << " sentence " << h.sentence_id
                << "] " << h.text << "\n";
    }
    std::cerr << hits.size() << " sentence(s)\n";
    return kExitOk;
  };
}

REVSUM_COMMAND("search", "Full-text search over stored sentences", Setup);

}  // namespace
}  // namespace revsum::cli
