// Prompt-ready output of stored summaries: text, markdown, json, jsonl, prompt.
//
// Structured (the default): per product its points (points.h, tables points / point_members),
// in sections
//   Praise      polarity "praise"
//   Complaints  polarity "complaint"
//   Other       polarity "neutral" or "unknown": only with the budget praise and complaints leave
//               (and, for a product whose points are all neutral or unknown, its best point)
// each section ordered by support, each point a line "- 40% (80 reviews) TEXT [CITATION]" (for a
// product of fewer than kFewReviews reviews "- 2 of 10 reviews: TEXT [CITATION]"). Points come
// from the latest finished run that has points for the product (or --run). The points the budget
// leaves out are counted: "; 7 more points not shown" ends the sizes line (text, markdown),
// "points_not_shown" in json, and a last line "(7 more points not shown)" of the prompt block,
// which the budget measures.
//
// After the points, the budget they leave goes to "Also said (single reviews)": the sentences of
// the run's flat summary of the product (in its order, in the filter) that no shown point holds
// as face or member, each "- TEXT [CITATION]" with no share, taken while the body still fits
// (structured.h, step 4; json "also_said": [{"text","review","sentence"}]). A product of few
// reviews, whose points cannot fill the budget, gets the rest of its summary there.
//
// Budget (ExportOptions::budget; default: the budget of the run the points come from). What is
// emitted never exceeds it, measured on the exact emitted text:
//   text / markdown  the body: section header lines and point lines, as written (escaped,
//                    bullets, shares, citations, line feeds). The product header and the sizes
//                    line are not part of the body;
//   json / jsonl     "summary": the same body unescaped (the stored text), one point per line;
//                    "points" holds exactly the points of that body;
//   prompt           the whole product block, from "Product:" to its last line feed.
// Words are counted as word budgets count them (BudgetWordCost in summarize.h: ICU words for
// Chinese, whitespace tokens for English), tokens with the TokenCounter (required for a token
// budget), "Ns" counts points, "N%" is N% of the words of the product's reviews. Allocation: the
// first point of Praise and of Complaints that fits is taken (each section present gets at least
// one point when one fits), then the section whose emitted cost per unit of support is lowest
// gets its next point while the body still fits (so the budget is shared in proportion to
// support); a point that does not fit is passed over for the section's next. Then Other, each
// point that still fits.
// A prompt block whose header alone exceeds the budget is left out (ProductExport::left_out).
//
// Citations are the dumps' own review ids (reviews.external_id), the same in a shard store and in
// the merged store. A review whose dump had no id is cited as "h:" + the 16 hex digits of its
// content hash (ReviewContentHash; reviews.content_hash), which is the same in every store that
// holds the review and does not depend on row ids or paths. In text, markdown and prompt output a
// citation is written "[ID]" with every byte of ID outside [A-Za-z0-9:-] percent-encoded (%5D),
// so no id can close the bracket, open markup or break the line. --citations short (the prompt's
// default) writes the shortest prefix of that, at least 8 characters (10 for h:), that no other
// review of the store has (ShortCitations: ids that share a long prefix, such as
// "B002LEVL56-0031" and "B002LEVL56-0010", stay apart), so that `revsum show PREFIX` finds the
// review; full the whole, none nothing; json's
// "review" field is the id unescaped (JSON-quoted), and its "sentence" field names a sentence as
// SentenceCitation does ("ID#INDEX"): JSON holds no row id but "run", so a merged store's JSON
// export equals one store's byte for byte (review scope: by product, then review order). Look a
// citation up with `revsum show CITATION` (also a short one), or in SQL: reviews.citation and
// every view that shows a review have it (`SELECT * FROM reviews WHERE citation LIKE 'AB%'`).
//
// Filters (--min-rating, --max-rating, --since, --until): nothing is recomputed; the header's
// review count and rating distribution, each point's support and share (support / reviews in the
// filter), are counted over the reviews in the filter only; a point none of whose evidence is in
// the filter is dropped, and a point whose representative's review is outside it is represented
// by its most similar member inside it. A filter on rating leaves out unrated reviews; one on
// time, reviews without a time.
//
// Ratings: the header says "average rating 4.20" and lists the distribution "ratings
// (rating:reviews) 5:3 4:1"; a product whose ratings all come from dumps of 0/1 labels
// (sources.rating_labels) says "60 % positive (0/1 labels)" and "labels (label:reviews) 1:3 0:2",
// and a review of it "positive (label 1)". json's "rating" is {"mean", "scale": "ratings" |
// "labels", "distribution": {RATING: REVIEWS}} or null, in both structured and flat exports.
//
// Flat (--flat): today's flat output, unchanged but for the citations (dump ids): per product a
// header, the stored summary's sentences each with a citation, and the sizes; json has "summary"
// (the sentences joined by spaces) and "citations" (their reviews' ids). Review scope is flat;
// its heading names the review by its citation id ("review R17 of KEY", "review h:... of KEY"),
// as does json's "review".
//
// Sizes: "after" counts exactly the body as defined above; "before" counts the product's review
// texts, one review per line.
//
// Escaping contract (every product key, sentence and review id is dump text, hence hostile;
// revsum/escape.h):
//   text      one line per item: "== KEY (...) ==", "Ratings ...", "Praise", "- ... SENTENCE [ID]",
//             "(sizes)". KEY and SENTENCE pass through PlainInline (TerminalSafe, then brackets
//             become parentheses), so no control, newline or bidi override from the data reaches
//             the output, the lines are exactly this structure, and the data forges no citation.
//   markdown  "## KEY", "**Praise**", "- ... SENTENCE [ID]": KEY and SENTENCE pass through
//             MarkdownInline, so the data opens no heading, list item, link, image, code span or
//             HTML tag, and the only unescaped citations are the exporter's own.
//   prompt    "Product: KEY", "Praise:", "- 40% (80) SENTENCE [ID]": KEY and SENTENCE pass through
//             PlainInline: TerminalSafe, then '[' ']' become '(' ')'. The data never starts a line
//             and never writes a bracket, so it forges no section header and no citation.
//   json(l)   every string is JSON-quoted (JsonQuote) and holds the stored text unchanged, but for
//             invalid UTF-8 (which no reader stores; a crafted store may hold it): each invalid
//             subpart is U+FFFD (ValidUtf8), so the output always parses.
//   csv       RFC 4180 (CRLF rows; a field with a comma, quote or line break quoted, quotes
//             doubled), a header row first: product, reviews, rating_mean, rating_scale, run,
//             section (praise, complaints, other, also_said), polarity, support, share,
//             share_low, share_high, members, aspect, text, review, sentence; one row per point
//             of the body (the budget chooses them as for json), then its "Also said" sentences.
//             A field that a spreadsheet would run as a formula (= + - @, tab, CR first) starts
//             with an apostrophe; invalid UTF-8 is U+FFFD. Structured product scope only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/select.h"
#include "revsum/store.h"
#include "revsum/tokens.h"

namespace revsum {

// Nothing to export as asked: no finished run or no summaries (or points) yet, no such run or
// product, or a product with nothing of what was asked; what() names the store and says what to
// run. Checked before anything is written.
class ExportError : public Error {
 public:
  using Error::Error;
};

enum class ExportFormat { kText, kMarkdown, kJson, kJsonl, kPrompt, kCsv };
// "text", "markdown", "json", "jsonl", "prompt", "csv"; throws std::invalid_argument otherwise.
ExportFormat ParseExportFormat(std::string_view name);

enum class CitationStyle { kNone, kShort, kFull };
// "none", "short", "full"; throws std::invalid_argument otherwise.
CitationStyle ParseCitationStyle(std::string_view name);

// The id a review is cited by: its dump id, or "h:" + 16 hex digits of its content hash.
std::string ReviewCitationId(const std::string& external_id, uint64_t content_hash);
// "[ID]" as written in text, markdown and prompt output (see the header comment); "" for kNone.
std::string CitationMark(const std::string& citation_id, CitationStyle style);
// A sentence as JSON exports name it: its review's citation id, '#', and its index in the review
// (sentences.idx, from 0), e.g. "B00385VWKG-0010#2": the same in every store that holds the review
// (a merged store's JSON equals one store's), unlike sentences.id.
std::string SentenceCitation(const std::string& citation_id, int32_t index);
// The id as a citation writes it, without the brackets (CitationMark's percent-encoding): also
// how a review-scope heading names its review.
std::string CitationText(const std::string& citation_id);
// The citations of the store next to `id` in sort order (ReviewQueries::CitationNeighbours).
using CitationNeighbours = std::function<std::vector<std::string>(const std::string& id)>;
// Short marks of a product's cited ids (see the header comment), by id: "[<shortest prefix of at
// least 8 characters (10 for h:) that no other citation of `ids` or of the store shares>]"; the
// store's come from `neighbours` (none when empty). A prefix never ends inside a %XX escape; a
// citation that another review also has is written whole.
std::map<std::string, std::string> ShortCitations(const std::vector<std::string>& ids,
                                                  const CitationNeighbours& neighbours = {});
// Dump text made safe for one line of a text export or a prompt block, where "[ID]" is a
// citation: TerminalSafe, then '[' -> '(' and ']' -> ')'. Never throws.
std::string PlainInline(std::string_view s);

// --since / --until bounds are read by ParseFilterTime (run.h), the one rule summarize and export
// share.

// Whether a review of this rating and time counts under `filter` (ReviewFilter, store.h: the one
// filter type of summarize and export; see the header comment). Unset bounds are open; the
// bounds are inclusive; a bound on rating leaves out unrated reviews, one on time reviews
// without a time.
bool FilterAdmits(const ReviewFilter& filter, const std::optional<double>& rating,
                  const std::optional<int64_t>& time);

struct ExportOptions {
  ExportFormat format = ExportFormat::kText;
  // The stored flat summaries instead of the points (see the header comment).
  bool flat = false;
  // "product": one summary per product; "review": one per summarised review (always flat).
  std::string scope = "product";
  // Products to export (review scope: the reviews of these products); empty = all summarised.
  std::vector<std::string> products;
  // The run to export; unset = per product (or review) its summary (or points) from the latest
  // finished run that has one, so a partial re-run of some products does not hide the others.
  // Every export names the run each summary comes from.
  std::optional<int64_t> run_id;
  // Structured only: the budget of each product's export; unset = the budget its run used.
  std::optional<Budget> budget;
  // Citations in text, markdown and prompt output (json always has the full id).
  CitationStyle citations = CitationStyle::kFull;
  // Structured only: the reviews that count (see the header comment; FilterAdmits).
  ReviewFilter filter;
  // Counts tokens with this tokenizer when set (not owned; must outlive the call). Required for
  // a token budget.
  const TokenCounter* tokens = nullptr;
  // The tokenizer's name, shown with token counts (e.g. "o200k_base").
  std::string tokenizer_name;
  // json / jsonl: each product's object has only these keys, in this order (JsonSelectFields);
  // empty = all. Other formats refuse it.
  std::vector<std::string> fields;
};

// One exported point (structured export).
struct ExportedPoint {
  std::string text;
  std::string polarity;  // "praise", "complaint", "neutral", "unknown"
  int64_t support = 0;   // distinct reviews (in the filter) among the evidence
  double share = 0;      // support / ProductExport::reviews
  // The 95 % Wilson score interval of the share (WilsonInterval), support of reviews.
  double share_low = 0, share_high = 0;
  int64_t members = 0;  // member sentences (in the filter) that make the point's claim
  std::string aspect;   // "" = none
  double weight = 0;
  std::string review;       // ReviewCitationId of the review the text comes from
  int64_t sentence_id = 0;  // store-internal (sentences.id)
  std::string sentence;     // SentenceCitation: "REVIEW#INDEX", the same in every store
  std::vector<int64_t> member_sentences;  // sentence ids of the members (in the filter)
};

// One sentence of the "Also said" section (structured.h, step 4): a sentence of the run's flat
// summary that no shown point holds.
struct ExportedSentence {
  std::string text;
  std::string review;       // ReviewCitationId
  int64_t sentence_id = 0;  // store-internal (sentences.id)
  std::string sentence;     // SentenceCitation
};

// One product's export, as written.
struct ProductExport {
  std::string product;
  int64_t run_id = 0;        // the run the summary comes from
  int64_t review_id = 0;     // review scope: the summarised review (store id); 0 for a product
  std::string review_cited;  // review scope: its citation id
  int64_t reviews = 0;       // reviews counted (in the filter)
  std::optional<double> avg_rating;
  // Every rating comes from a dump of 0/1 labels (sources.rating_labels): avg_rating is the share
  // of 1s, written "60 % positive (0/1 labels)", never "average rating 0.60".
  bool labels = false;
  std::vector<std::pair<double, int64_t>> rating_distribution;  // (rating, reviews), ascending
  std::string budget;                       // structured: the budget applied, e.g. "100w"
  std::string body;                         // exactly what the budget measured (see header comment)
  std::vector<ExportedPoint> points;        // structured: the points of the body, in body order
  std::vector<ExportedSentence> also_said;  // structured: the body's "Also said" sentences
  std::vector<std::string> citations;       // flat: cited review of each kept sentence, in order
  int64_t words_before = 0, words_after = 0;
  int64_t tokens_before = 0, tokens_after = 0;  // 0 when no tokenizer was given
  bool left_out = false;  // prompt: the header alone exceeds the budget; nothing was written
  // Structured: the product's points (in the filter) that the budget left out of the body.
  int64_t points_not_shown = 0;
};

// The 95 % Wilson score interval (z = 1.96) of a proportion of `k` in `n`: {low, high}, within
// [0, 1]; {0, 0} when n is 0. Unlike k/n +- 1.96 s.e. it stays inside [0, 1] and is not empty
// at k = 0 or k = n, which matters for the few reviews of a small product.
std::pair<double, double> WilsonInterval(int64_t k, int64_t n);

// A product of fewer reviews shows its points' shares as "2 of 10 reviews" in text, markdown and
// prompt lines rather than a percentage, which overstates what a handful of reviews can tell.
inline constexpr int64_t kFewReviews = 20;

// Writes the export to `out`, product by product as each is made (memory does not grow with the
// number of products), and hands `each` (when set) what was written for each product. Throws
// StoreError, std::invalid_argument (a token budget without a tokenizer), or ExportError
// when there is no finished run or a requested product has no summary (or no points): these are
// checked before anything is written; a store error later leaves the output cut after a product.
using ProductCallback = std::function<void(const ProductExport&)>;
void ExportSummaries(ReviewStore& store, const ExportOptions& options, std::ostream& out,
                     const ProductCallback& each);
// The same, collecting what was written per product (for tests and small stores).
std::vector<ProductExport> ExportSummaries(ReviewStore& store, const ExportOptions& options,
                                           std::ostream& out);

}  // namespace revsum
