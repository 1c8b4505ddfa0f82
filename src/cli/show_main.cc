// revsum show REVIEW|PRODUCT --db PATH: a review or a product, sentence by sentence, with ids;
// with the latest run's summary and weights when there is one.
#include <iomanip>
#include <iostream>
#include <map>

#include "command.h"
#include "common.h"

namespace revsum::cli {
namespace {

struct ShowArgs {
  std::string subject, db;
  bool heads = false;
  bool review = false, product = false;
};

void PrintReview(const StoredReview& r, const std::map<int64_t, ScoreRow>& scores,
                 const std::vector<std::string>& head_names, bool heads) {
  std::cout << "review " << r.id << "  product " << r.product;
  if (!r.external_id.empty()) std::cout << "  id " << r.external_id;
  if (r.rating) std::cout << "  rating " << *r.rating;
  std::cout << "  (" << r.source << ":" << r.line << ")\n";
  if (!r.title.empty()) std::cout << "  title: " << r.title << "\n";
  for (const StoredSentence& s : r.sentences) {
    std::cout << "  [" << s.id << "] ";
    if (auto it = scores.find(s.id); it != scores.end()) {
      std::cout << "w=" << std::fixed << std::setprecision(4) << it->second.weight << " ";
      if (heads) {
        std::cout << "(";
        for (size_t h = 0; h < it->second.head_weights.size(); ++h) {
          std::cout << (h ? " " : "")
                    << (h < head_names.size() ? head_names[h] : "h" + std::to_string(h)) << "="
                    << std::setprecision(4) << it->second.head_weights[h];
        }
        std::cout << ") ";
      }
    }
    std::cout << s.text << "\n";
  }
}

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<ShowArgs>();
  sub.add_option("subject", args->subject, "a review id (number) or a product key")->required();
  AddDbOption(sub, &args->db);
  sub.add_flag("--heads", args->heads, "show each attention head's weight per sentence");
  sub.add_flag("--review", args->review, "SUBJECT is a review id");
  sub.add_flag("--product", args->product, "SUBJECT is a product key");
  return [args] {
    StoreOptions options;
    options.read_only = true;
    auto store = ReviewStore::Open(args->db, options);
    bool numeric = !args->subject.empty() &&
                   args->subject.find_first_not_of("0123456789") == std::string::npos;
    bool as_product = args->product || (!args->review && store->HasProduct(args->subject));
    std::vector<StoredReview> reviews;
    std::string scope;
    if (as_product) {
      reviews = store->GetProductReviews(args->subject);
      scope = "product";
    } else if (numeric) {
      if (auto r = store->GetReview(std::stoll(args->subject))) reviews.push_back(*r);
      scope = "review";
    }
    if (reviews.empty()) {
      std::cerr << "revsum show: no product or review '" << args->subject << "' in " << args->db
                << "\n";
      return kExitFailure;
    }
    auto run = store->LatestRun();
    std::map<int64_t, ScoreRow> scores;
    std::vector<std::string> head_names;
    if (run) {
      head_names = store->RunHeadNames(run->id);
      std::string subject = scope == "product" ? args->subject : std::to_string(reviews[0].id);
      for (const StoredSummary& s : store->GetSummaries(run->id, scope, subject)) {
        std::cout << "summary (run " << run->id << ", " << s.embedder << ", " << s.units_out << "/"
                  << s.units_in << " " << s.unit << "):\n  " << s.text << "\n\n";
      }
      std::vector<int64_t> ids;
      for (const auto& r : reviews) {
        for (const auto& s : r.sentences) ids.push_back(s.id);
      }
      for (auto& [id, row] : store->GetScores(run->id, scope, ids)) scores[id] = row;
      if (scores.empty() && scope == "review") {
        // A run of product scopes only: show the weights the review's sentences got there.
        for (auto& [id, row] : store->GetScores(run->id, "product", ids)) scores[id] = row;
      }
    }
    if (as_product)
      std::cout << "product " << args->subject << ": " << reviews.size() << " reviews\n";
    for (const StoredReview& r : reviews) PrintReview(r, scores, head_names, args->heads);
    return kExitOk;
  };
}

REVSUM_COMMAND("show", "A review or a product with its sentences (ids, weights) and summary",
               Setup);

}  // namespace
}  // namespace revsum::cli
