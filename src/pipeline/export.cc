#include "revsum/export.h"
#include "revsum/escape.h"
#include "revsum/json.h"

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
  std::string o =
      "{\"product\":" + JsonQuote(p.product) + ",\"reviews\":" + std::to_string(p.reviews);
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

std::vector<ProductExport> ExportSummaries(ReviewStore& store, const ExportOptions& options,
                                           std::ostream& stream) {
  std::optional<RunInfo> run =
      options.run_id ? store.GetRun(*options.run_id) : store.LatestRun("product");
  if (!run) {
    throw std::runtime_error(
        store.path() + ": " +
        (options.run_id ? "no run " + std::to_string(*options.run_id)
                        : std::string("no product summaries yet; run `revsum summarize`")));
  }
  std::vector<StoredSummary> summaries = store.GetSummaries(run->id, "product", "");
  if (summaries.empty()) {
    throw std::runtime_error(store.path() + ": run " + std::to_string(run->id) +
                             " has no product summaries (it summarised reviews only)");
  }
  std::map<std::string, const StoredSummary*> by_product;
  for (const StoredSummary& s : summaries) by_product[s.subject] = &s;
  std::vector<std::string> products = options.products;
  if (products.empty()) {
    for (const auto& [key, s] : by_product) products.push_back(key);
  }
  // Check every product before writing anything, so a failed export leaves no partial output.
  for (const std::string& product : products) {
    if (by_product.count(product)) continue;
    if (!store.HasProduct(product)) {
      throw std::runtime_error(store.path() + ": no product '" + product + "'");
    }
    throw std::runtime_error(store.path() + ": product '" + product + "' has no summary in run " +
                             std::to_string(run->id) + "; summarise it first");
  }
  std::ostringstream out;
  const std::string tokenizer = options.tokens ? options.tokenizer_name : "";

  const CostFunction words = BudgetWordCost();
  std::vector<ProductExport> exported;
  if (options.format == ExportFormat::kJson) out << "[";
  for (size_t i = 0; i < products.size(); ++i) {
    auto found = by_product.find(products[i]);
    const StoredSummary& summary = *found->second;
    const std::vector<StoredReview> reviews = store.GetProductReviews(products[i]);
    ProductExport p;
    p.product = products[i];
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
    switch (options.format) {
      case ExportFormat::kText:
        out << "== " << TerminalSafe(p.product) << " (" << p.reviews << " reviews, average rating "
            << rating << ") ==\n"
            << p.body << "(" << SizeLine(p, tokenizer) << ")\n\n";
        break;
      case ExportFormat::kMarkdown:
        out << "## " << MarkdownInline(p.product) << "\n\n*" << p.reviews
            << " reviews, average rating " << rating << "*\n\n"
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
