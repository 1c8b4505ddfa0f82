#include "revsum/export.h"
#include "revsum/escape.h"
#include "revsum/json.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "revsum/summarize.h"

namespace revsum {

ExportFormat ParseExportFormat(std::string_view name) {
  if (name == "text") return ExportFormat::kText;
  if (name == "markdown" || name == "md") return ExportFormat::kMarkdown;
  if (name == "json") return ExportFormat::kJson;
  if (name == "jsonl") return ExportFormat::kJsonl;
  throw std::invalid_argument("unknown export format '" + std::string(name) +
                              "' (text, markdown, json, jsonl)");
}

namespace {

std::string Fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Ratio(int64_t before, int64_t after) {
  return after > 0 ? Fixed(static_cast<double>(before) / static_cast<double>(after), 1) + "x" : "-";
}

// "1,234 words -> 98 words (12.6x smaller); 1,702 tokens -> 131 tokens, 1,571 saved (13.0x)".
std::string SizeLine(const ProductExport& p, const std::string& tokenizer) {
  const bool with_tokens = !tokenizer.empty();
  std::string s = std::to_string(p.words_before) + " words -> " + std::to_string(p.words_after) +
                  " words (" + Ratio(p.words_before, p.words_after) + " smaller)";
  if (with_tokens) {
    s += "; " + std::to_string(p.tokens_before) + " tokens -> " + std::to_string(p.tokens_after) +
         " " + tokenizer + " tokens, " + std::to_string(p.tokens_before - p.tokens_after) +
         " saved (" + Ratio(p.tokens_before, p.tokens_after) + ")";
  }
  return s;
}

std::string JsonObject(const ProductExport& p, const std::string& tokenizer) {
  std::string o = "{\"product\":" + JsonQuote(p.product);
  if (p.review_id) o += ",\"review\":" + std::to_string(p.review_id);
  o += ",\"run\":" + std::to_string(p.run_id) + ",\"reviews\":" + std::to_string(p.reviews);
  o += ",\"avg_rating\":" + (p.avg_rating ? Fixed(*p.avg_rating, 2) : std::string("null"));
  o += ",\"summary\":" + JsonQuote(p.body) + ",\"citations\":[";
  for (size_t i = 0; i < p.review_ids.size(); ++i) {
    o += (i ? "," : "") + std::to_string(p.review_ids[i]);
  }
  o += "],\"words_before\":" + std::to_string(p.words_before) +
       ",\"words_after\":" + std::to_string(p.words_after);
  if (!tokenizer.empty()) {
    o += ",\"tokenizer\":" + JsonQuote(tokenizer) +
         ",\"tokens_before\":" + std::to_string(p.tokens_before) +
         ",\"tokens_after\":" + std::to_string(p.tokens_after) +
         ",\"tokens_saved\":" + std::to_string(p.tokens_before - p.tokens_after) +
         ",\"compression\":" +
         (p.tokens_after
              ? Fixed(static_cast<double>(p.tokens_before) / static_cast<double>(p.tokens_after), 2)
              : std::string("null"));
  }
  return o + "}";
}

}  // namespace

namespace {

// The product key as shown: a dump without a product field puts every review under "".
std::string ShownProduct(const std::string& key) {
  return key.empty() ? "(no product field)" : key;
}

// The summaries to export, one per subject: of the run asked for, or each subject's latest.
std::vector<StoredSummary> ChooseSummaries(ReviewStore& store, const ExportOptions& options) {
  const std::string scope = options.scope;
  if (options.run_id) {
    if (!store.GetRun(*options.run_id)) {
      throw std::runtime_error(store.path() + ": no run " + std::to_string(*options.run_id));
    }
    std::vector<StoredSummary> summaries = store.GetSummaries(*options.run_id, scope, "");
    if (summaries.empty()) {
      throw std::runtime_error(store.path() + ": run " + std::to_string(*options.run_id) +
                               " has no " + scope + " summaries (export --scope " +
                               (scope == "product" ? "review" : "product") + "?)");
    }
    return summaries;
  }
  std::vector<StoredSummary> summaries = store.LatestSummaries(scope);
  if (summaries.empty()) {
    throw std::runtime_error(store.path() + ": no " + scope + " summaries yet; run `revsum " +
                             "summarize" + (scope == "review" ? " --scope review" : "") + "`");
  }
  return summaries;
}

}  // namespace

std::vector<ProductExport> ExportSummaries(ReviewStore& store, const ExportOptions& options,
                                           std::ostream& stream) {
  if (options.scope != "product" && options.scope != "review") {
    throw std::invalid_argument("export scope must be product or review, not '" + options.scope +
                                "'");
  }
  const bool review_scope = options.scope == "review";
  std::vector<StoredSummary> summaries = ChooseSummaries(store, options);

  // What to write, in order: (summary, the reviews it summarises). Product scope: one entry per
  // product asked for (all summarised ones by default); review scope: the reviews of those
  // products that have a review summary.
  struct Item {
    const StoredSummary* summary;
    std::string product;
  };
  std::vector<Item> items;
  if (!review_scope) {
    std::map<std::string, const StoredSummary*> by_product;
    for (const StoredSummary& s : summaries) by_product[s.subject] = &s;
    std::vector<std::string> products = options.products;
    if (products.empty()) {
      for (const auto& [key, s] : by_product) products.push_back(key);
    }
    // Check every product before writing anything, so a failed export leaves no partial output.
    for (const std::string& product : products) {
      auto found = by_product.find(product);
      if (found != by_product.end()) {
        items.push_back({found->second, product});
        continue;
      }
      if (!store.HasProduct(product)) {
        throw std::runtime_error(store.path() + ": no product '" + product + "'");
      }
      throw std::runtime_error(
          store.path() + ": product '" + product + "' has no summary" +
          (options.run_id ? " in run " + std::to_string(*options.run_id) : std::string()) +
          "; summarise it first");
    }
  } else {
    for (const std::string& product : options.products) {
      if (!store.HasProduct(product)) {
        throw std::runtime_error(store.path() + ": no product '" + product + "'");
      }
    }
    for (const StoredSummary& s : summaries) {
      std::optional<StoredReview> review = store.GetReview(std::stoll(s.subject));
      if (!review) continue;
      if (!options.products.empty() && std::find(options.products.begin(), options.products.end(),
                                                 review->product) == options.products.end()) {
        continue;
      }
      items.push_back({&s, review->product});
    }
    if (items.empty()) {
      throw std::runtime_error(store.path() + ": no review summaries of these products");
    }
  }

  std::ostringstream out;
  const std::string tokenizer = options.tokens ? options.tokenizer_name : "";
  const CostFunction words = BudgetWordCost();
  std::vector<ProductExport> exported;
  if (options.format == ExportFormat::kJson) out << "[";
  for (size_t i = 0; i < items.size(); ++i) {
    const StoredSummary& summary = *items[i].summary;
    std::vector<StoredReview> reviews;
    if (review_scope) {
      reviews.push_back(*store.GetReview(std::stoll(summary.subject)));
    } else {
      reviews = store.GetProductReviews(items[i].product);
    }
    ProductExport p;
    p.product = items[i].product;
    p.run_id = summary.run_id;
    if (review_scope) p.review_id = reviews[0].id;
    p.reviews = static_cast<int64_t>(reviews.size());
    double rating_sum = 0;
    int rated = 0;
    std::map<int64_t, std::pair<int64_t, std::string>> sentence;  // id -> (review id, text)
    std::string all_reviews;
    for (const StoredReview& r : reviews) {
      if (r.rating) {
        rating_sum += *r.rating;
        ++rated;
      }
      for (const StoredSentence& s : r.sentences) sentence[s.id] = {r.id, s.text};
      all_reviews += r.text;
      all_reviews += '\n';
      p.words_before += static_cast<int64_t>(words(r.text));
    }
    if (rated) p.avg_rating = rating_sum / rated;

    // The body: one cited sentence per line (text/markdown), or plain sentences (json).
    for (int64_t id : summary.sentence_ids) {
      auto it = sentence.find(id);
      if (it == sentence.end()) continue;  // sentence deleted since the run
      const auto& [review_id, text] = it->second;
      p.review_ids.push_back(review_id);
      const std::string cite = "[r" + std::to_string(review_id) + "]";
      switch (options.format) {
        case ExportFormat::kText:
          p.body += "- " + TerminalSafe(text) + " " + cite + "\n";
          break;
        case ExportFormat::kMarkdown:
          p.body += "- " + MarkdownInline(text) + " " + cite + "\n";
          break;
        case ExportFormat::kJson:
        case ExportFormat::kJsonl:
          p.body += (p.body.empty() ? "" : " ") + text;
          break;
      }
      p.words_after += static_cast<int64_t>(words(text));
    }
    if (options.tokens) {
      p.tokens_before = static_cast<int64_t>(options.tokens->Count(all_reviews));
      p.tokens_after = static_cast<int64_t>(options.tokens->Count(p.body));
    }

    const std::string rating = p.avg_rating ? Fixed(*p.avg_rating, 2) : std::string("n/a");
    const std::string what =
        review_scope ? "review r" + std::to_string(p.review_id) + " of " : std::string();
    const std::string counts =
        review_scope ? "rating " + rating
                     : std::to_string(p.reviews) + " reviews, average rating " + rating;
    const std::string run = "run " + std::to_string(p.run_id);
    switch (options.format) {
      case ExportFormat::kText:
        out << "== " << what << TerminalSafe(ShownProduct(p.product)) << " (" << counts << ", "
            << run << ") ==\n"
            << p.body << "(" << SizeLine(p, tokenizer) << ")\n\n";
        break;
      case ExportFormat::kMarkdown:
        out << "## " << what << MarkdownInline(ShownProduct(p.product)) << "\n\n*" << counts << ", "
            << run << "*\n\n"
            << p.body << "\n_" << SizeLine(p, tokenizer) << "_\n\n";
        break;
      case ExportFormat::kJson:
        out << (i ? ",\n " : "\n ") << JsonObject(p, tokenizer);
        break;
      case ExportFormat::kJsonl:
        out << JsonObject(p, tokenizer) << "\n";
        break;
    }
    exported.push_back(std::move(p));
  }
  if (options.format == ExportFormat::kJson) out << "\n]\n";
  stream << out.str();
  return exported;
}

}  // namespace revsum
