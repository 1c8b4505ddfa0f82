// The report page: one self-contained HTML file (inline CSS and JavaScript, no network, opens from
// file://) that shows what the reviewers of each product say and why each sentence was picked.
//
//   index       per product: review count, rating distribution, biggest praise and complaint
//               (the praise / complaint point with the highest support);
//   points      per product: its points (points.h) grouped as praise, complaints and other, each
//               with a bar for its share of the product's reviews, coloured by polarity, its
//               aspect, and on click its evidence: member sentences, each inside its original
//               review with the sentence highlighted at its stored code-point offsets;
//   attention   for a review chosen from a sample, its sentences shaded by final weight and a
//               per-head heatmap, with a legend of what each head looks at (score.h).
//
// Bounded size: the page never embeds a whole dump. Per product it holds the points, at most
// ReportOptions::max_evidence member sentences a point (each with at most context_chars code
// points of its review on either side) and the attention of at most sample_reviews reviews; the
// page says what was left out. The 10,000 reviews of the 酒店 category give a page of about
// 200 KB (tests/report/render.py); report_test's BoundedSize* keeps a 10,000-review product
// under 400 KB.
//
// Escaping contract (every string from the dump is hostile; revsum/escape.h):
//   HTML text and attribute values   -> HtmlEscape; data spans are bidi-isolated by CSS, so an
//                                       override inside one cannot reorder the page around it;
//   data inside the <script> element -> ScriptJsonQuote: JSON whose '<', '>', '&', U+2028 and
//                                       U+2029 are \u escapes, so "</script>" or "<!--" in a review
//                                       cannot end or comment out the script;
//   the page's script writes data into the DOM with textContent only (never innerHTML).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/store.h"

namespace revsum {

struct ReportOptions {
  // Products to show, in this order; empty = every product, most reviews first, up to
  // max_products. A named product that is not in the store is an error.
  std::vector<std::string> products;
  // The run whose points and scores are shown; unset = per product the latest finished run that
  // has points for it (view product_points), and for the attention the run of those points.
  std::optional<int64_t> run_id;
  // At most this many products when `products` is empty (a store of 27,000 products would give a
  // page nobody can scroll, and each product can bring up to a few hundred KB of evidence); the
  // page says how many were left out.
  size_t max_products = 50;
  // Member sentences embedded per point: the representative first, then by similarity.
  size_t max_evidence = 20;
  // Code points of the original review kept on each side of a highlighted sentence.
  size_t context_chars = 240;
  // A highlighted sentence longer than this (code points) is cut, with an ellipsis.
  size_t max_sentence_chars = 1200;
  // Reviews per product in the attention view: the reviews of the points' representatives first,
  // then an evenly spread sample of the others.
  size_t sample_reviews = 24;
  // Sentences shown per review in the attention view (the rest are counted), and the code points
  // of their text: the first sentence past max_review_chars is the last one shown.
  size_t max_review_sentences = 60;
  size_t max_review_chars = 4000;
  // Shown in the page header: the store's path as the user gave it.
  std::string store_label;
};

// What the page holds, for tests and the closing line.
struct ReportSummary {
  size_t products = 0;           // product sections
  size_t products_omitted = 0;   // products of the store not shown (max_products)
  size_t points = 0;             // points shown
  size_t evidence = 0;           // member sentences embedded
  size_t attention_reviews = 0;  // reviews in the attention views
  size_t bytes = 0;              // size of the page
};

class ReportError : public Error {
 public:
  using Error::Error;
};

// Writes the page for `store` to `out`. Reads only (the store may be opened read-only). Throws
// ReportError naming the product or run when a requested product is not in the store or the run
// does not exist, or when the page cannot be written; StoreError on SQLite errors.
ReportSummary WriteReport(ReviewStore& store, const ReportOptions& options, std::ostream& out);

// `utf8` as a JSON string literal that is safe inside an HTML <script> element: JsonQuote's
// escapes plus \u003c \u003e \u0026 for '<' '>' '&' and \u2028 \u2029 for the line and
// paragraph separators. JSON.parse and JavaScript read it back as `utf8`.
std::string ScriptJsonQuote(std::string_view utf8);

// A sentence inside its review, cut for display: the review's code points [begin, end) are the
// highlighted `hit`, with at most `context` code points before (`before`) and after (`after`).
// Offsets are code points (sentences.begin/end). Out-of-range offsets are clamped to the text; a
// hit longer than max_hit code points is cut there. Cuts fall on code point boundaries; the flags
// say where text was left out.
struct ReviewExcerpt {
  std::string before, hit, after;
  bool cut_before = false;  // the review has more text before `before`
  bool cut_hit = false;     // `hit` was shortened to max_hit code points
  bool cut_after = false;   // the review has more text after `after`
};
ReviewExcerpt CutExcerpt(std::string_view text, int64_t begin, int64_t end, size_t context,
                         size_t max_hit);

}  // namespace revsum
