// revsum search "text" --db PATH: full-text search over sentences (English and Chinese).
//
// --json prints one JSON object on stdout:
//   {"query": TEXT, "fts5": TEXT (the query as FTS5 ran it), "products": [KEY, ...],
//    "limit": N, "hits": [{"product": KEY, "review": CITATION, "sentence": "CITATION#INDEX",
//                          "text": TEXT, "review_id": N, "sentence_id": N}, ...]}
// with hits best first (FTS5 rank). "review" and "sentence" name them as exports do (`revsum show`
// resolves both); review_id and sentence_id are store ids (reviews.id, sentences.id). --fields
// keeps only the named keys of each hit. Text output: "[PRODUCT CITATION#INDEX] TEXT" per hit.
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"
#include "revsum/export.h"
#include "revsum/json.h"
#include "revsum/text.h"

namespace revsum::cli {
namespace {

struct SearchArgs {
  std::string query, db;
  size_t limit = 20;
  std::vector<std::string> products;
  bool json = false;
  std::string fields;
};

std::string HitsJson(const SearchArgs& args, const std::string& query,
                     const std::vector<SearchHit>& hits) {
  std::string o = "{\"query\":" + JsonQuote(query) + ",\"fts5\":" + JsonQuote(FtsQuery(query));
  o += ",\"products\":[";
  for (size_t i = 0; i < args.products.size(); ++i) {
    o += (i ? "," : "") + JsonQuote(args.products[i]);
  }
  o += "],\"limit\":" + std::to_string(args.limit) + ",\"hits\":[";
  for (size_t i = 0; i < hits.size(); ++i) {
    const SearchHit& h = hits[i];
    std::string hit =
        "{\"product\":" + JsonQuote(h.product) + ",\"review\":" + JsonQuote(h.citation) +
        ",\"sentence\":" + JsonQuote(SentenceCitation(h.citation, h.index)) +
        ",\"text\":" + JsonQuote(h.text) + ",\"review_id\":" + std::to_string(h.review_id) +
        ",\"sentence_id\":" + std::to_string(h.sentence_id) + "}";
    if (!args.fields.empty()) hit = JsonSelectFields(hit, ParseFieldList(args.fields));
    o += (i ? "," : "") + hit;
  }
  return o + "]}\n";
}

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<SearchArgs>();
  sub.add_option("query", args->query,
                 "FTS5 query: words, \"phrases\", AND/OR/NOT, (groups), prefix*; -word leaves "
                 "sentences with the word out, +word is the word; Chinese text matches as a "
                 "substring")
      ->required();
  AddDbOption(sub, &args->db);
  // Read-only: a missing database is an error, never created.
  sub.get_option("--db")->description("the revsum database to read (never created here)");
  sub.add_option("-n,--limit", args->limit, "at most this many sentences")->capture_default_str();
  sub.add_option("--product", args->products, "only sentences of this product (repeatable)")
      ->allow_extra_args(false);
  sub.add_flag("--json", args->json,
               "print one JSON object: query, fts5 (the query as run), products, limit, hits "
               "[{product, review, sentence, text, review_id, sentence_id}] best first");
  sub.add_option("--fields", args->fields,
                 "with --json: only these keys of each hit, e.g. --fields review,text");
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
    for (const std::string& p : args->products) {
      if (!store->reviews().HasProduct(p)) {
        std::cerr << "revsum search: no product '" << KeyForMessage(p) << "' in "
                  << TerminalSafe(args->db) << "\n";
        return kExitFailure;
      }
    }
    if (!args->fields.empty() && !args->json) {
      std::cerr << "revsum search: --fields chooses the keys of --json output; add --json\n";
      return kExitFailure;
    }
    if (!args->fields.empty()) {
      // Checked before the search, so a misspelt field fails even when nothing matches.
      JsonSelectFields(
          "{\"product\":0,\"review\":0,\"sentence\":0,\"text\":0,"
          "\"review_id\":0,\"sentence_id\":0}",
          ParseFieldList(args->fields));
    }
    auto hits = store->search().Find(query, args->limit, args->products);
    if (args->json) {
      std::cout << HitsJson(*args, query, hits);
    } else {
      for (const SearchHit& h : hits) {
        std::cout << "[" << TerminalSafe(ShowInvisibles(h.product)) << " "
                  << CitationText(h.citation) << "#" << h.index << "] " << TerminalSafe(h.text)
                  << "\n";
      }
    }
    std::cerr << hits.size() << " sentence(s)\n";
    return kExitOk;
  };
}

REVSUM_COMMAND("search", "Full-text search over stored sentences", Setup);

}  // namespace
}  // namespace revsum::cli
