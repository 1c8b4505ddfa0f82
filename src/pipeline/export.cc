#include "revsum/export.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "revsum/escape.h"
#include "revsum/json.h"
#include "revsum/structured.h"
#include "revsum/summarize.h"

namespace revsum {

ExportFormat ParseExportFormat(std::string_view name) {
  if (name == "text") return ExportFormat::kText;
  if (name == "markdown" || name == "md") return ExportFormat::kMarkdown;
  if (name == "json") return ExportFormat::kJson;
  if (name == "jsonl") return ExportFormat::kJsonl;
  if (name == "prompt") return ExportFormat::kPrompt;
  if (name == "csv") return ExportFormat::kCsv;
  throw std::invalid_argument("unknown export format '" + std::string(name) +
                              "' (text, markdown, json, jsonl, prompt, csv)");
}

CitationStyle ParseCitationStyle(std::string_view name) {
  if (name == "none") return CitationStyle::kNone;
  if (name == "short") return CitationStyle::kShort;
  if (name == "full") return CitationStyle::kFull;
  throw std::invalid_argument("unknown citation style '" + std::string(name) +
                              "' (none, short, full)");
}

std::string ReviewCitationId(const std::string& external_id, uint64_t content_hash) {
  if (!external_id.empty()) return external_id;
  char buf[24];
  std::snprintf(buf, sizeof buf, "h:%016llx", static_cast<unsigned long long>(content_hash));
  return buf;
}

std::string CitationMark(const std::string& citation_id, CitationStyle style) {
  if (style == CitationStyle::kNone) return "";
  std::string id;
  for (char c : citation_id) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == ':' ||
        c == '-') {
      id += c;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      id += buf;
    }
  }
  // Short: the first 8 characters of the written id ("h:" ids keep 8 hex digits).
  if (style == CitationStyle::kShort) {
    const size_t keep = id.rfind("h:", 0) == 0 ? 10 : 8;
    if (id.size() > keep) id.resize(keep);
  }
  return "[" + id + "]";
}

std::string CitationText(const std::string& citation_id) {
  const std::string mark = CitationMark(citation_id, CitationStyle::kFull);
  return mark.substr(1, mark.size() - 2);
}

std::map<std::string, std::string> ShortCitations(const std::vector<std::string>& ids,
                                                  const CitationNeighbours& neighbours) {
  auto common_prefix = [](const std::string& a, const std::string& b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
  };
  std::map<std::string, std::string> out;
  for (const std::string& id : ids) {
    if (out.count(id)) continue;  // the same review cited twice
    const std::string w = CitationText(id);
    size_t keep = w.rfind("h:", 0) == 0 ? 10 : 8;
    std::vector<std::string> others(ids.begin(), ids.end());
    bool shared = false;  // another review has this very citation: only the whole names both
    if (neighbours) {
      for (const std::string& n : neighbours(id)) {
        shared = shared || n == id;
        others.push_back(n);
      }
    }
    for (const std::string& o : others) {
      if (o == id) continue;
      // Longer than the common prefix, so this id's mark is no prefix of the other's.
      keep = std::max(keep, common_prefix(w, CitationText(o)) + 1);
    }
    // Never end inside a "%XX" escape: "[AB%2]" would resolve as "AB", a shorter prefix.
    for (size_t back = 1; back <= 2 && back <= keep; ++back) {
      if (keep - back < w.size() && w[keep - back] == '%') keep = keep - back + 3;
    }
    out[id] = "[" + (shared ? w : w.substr(0, std::min(keep, w.size()))) + "]";
  }
  return out;
}

std::string SentenceCitation(const std::string& citation_id, int32_t index) {
  return citation_id + "#" + std::to_string(index);
}

std::string PlainInline(std::string_view s) {
  std::string out = TerminalSafe(s);
  for (char& c : out) {
    if (c == '[') c = '(';
    if (c == ']') c = ')';
  }
  return out;
}

bool FilterAdmits(const ReviewFilter& filter, const std::optional<double>& rating,
                  const std::optional<int64_t>& time) {
  const ReviewFilter& f = filter;
  if ((f.min_rating || f.max_rating) && !rating) return false;
  if (f.min_rating && *rating < *f.min_rating) return false;
  if (f.max_rating && *rating > *f.max_rating) return false;
  if ((f.since || f.until) && !time) return false;
  if (f.since && *time < *f.since) return false;
  if (f.until && *time > *f.until) return false;
  return true;
}

namespace {

std::string Fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A JSON number with `digits` decimals; null for a non-finite value (JSON has no inf or nan; a
// store made before ratings were bounded, or a crafted one, may hold values whose mean is not
// finite).
std::string JsonFixed(double v, int digits) { return std::isfinite(v) ? Fixed(v, digits) : "null"; }

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string Ratio(int64_t before, int64_t after) {
  return after > 0 ? Fixed(static_cast<double>(before) / static_cast<double>(after), 1) + "x" : "-";
}

// What leads a point's line, up to its text: "40% (80 reviews) " (prompt: "40% (80) "), "<1%"
// below half a percent; "2 of 10 reviews: " for a product of fewer than kFewReviews reviews
// (export.h).
std::string ShareLead(const ExportedPoint& p, int64_t reviews, bool prompt) {
  if (reviews < kFewReviews) {
    return std::to_string(p.support) + " of " + std::to_string(reviews) +
           (reviews == 1 ? " review: " : " reviews: ");
  }
  const double percent = 100.0 * p.share;
  const std::string share = percent > 0 && percent < 0.5 ? "<1%" : Fixed(percent, 0) + "%";
  if (prompt) return share + " (" + std::to_string(p.support) + ") ";
  return share + " (" + std::to_string(p.support) + (p.support == 1 ? " review) " : " reviews) ");
}

std::string NotShownText(int64_t points) {
  return std::to_string(points) + (points == 1 ? " more point" : " more points") + " not shown";
}

// "1,234 words -> 98 words (12.6x smaller); 1,702 tokens -> 131 tokens, 1,571 saved (13.0x)".
// A summary longer than its reviews (one short review, with headings and citations) says so:
// "8 words -> 21 words (2.6x longer); 12 tokens -> 40 tokens, 28 more (3.3x longer)".
std::string SizeLine(const ProductExport& p, const std::string& tokenizer) {
  const bool with_tokens = !tokenizer.empty();
  std::string s = std::to_string(p.words_before) + " words -> " + std::to_string(p.words_after) +
                  " words (" +
                  (p.words_after > p.words_before && p.words_before > 0
                       ? Ratio(p.words_after, p.words_before) + " longer)"
                       : Ratio(p.words_before, p.words_after) + " smaller)");
  if (with_tokens) {
    s += "; " + std::to_string(p.tokens_before) + " tokens -> " + std::to_string(p.tokens_after) +
         " " + tokenizer + " tokens, " +
         (p.tokens_after > p.tokens_before && p.tokens_before > 0
              ? std::to_string(p.tokens_after - p.tokens_before) + " more (" +
                    Ratio(p.tokens_after, p.tokens_before) + " longer)"
              : std::to_string(p.tokens_before - p.tokens_after) + " saved (" +
                    Ratio(p.tokens_before, p.tokens_after) + ")");
  }
  if (!p.budget.empty()) s += "; budget " + p.budget;
  if (p.points_not_shown > 0) s += "; " + NotShownText(p.points_not_shown);
  return s;
}

void AppendSizes(std::string& o, const ProductExport& p, const std::string& tokenizer) {
  o += ",\"words_before\":" + std::to_string(p.words_before) +
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
}

// A JSON string of stored text: as stored, but a store holding invalid UTF-8 (a crafted or damaged
// file; readers refuse it) gets U+FFFD for each invalid subpart, so the document always parses.
std::string JsonText(std::string_view s) { return JsonQuote(ValidUtf8(s)); }

// One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled.
// Text that a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a leading
// apostrophe, as OWASP advises for CSV that people open; invalid UTF-8 becomes U+FFFD.
std::string CsvField(std::string_view raw) {
  std::string s = ValidUtf8(raw);
  if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos) {
    s.insert(0, "'");
  }
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

// The structured CSV export: one row per point of the body, then one per "Also said" sentence
// (section also_said, no polarity or share). Numbers are plain; empty = none.
constexpr const char* kCsvHeader =
    "product,reviews,rating_mean,rating_scale,run,section,polarity,support,share,share_low,"
    "share_high,members,aspect,text,review,sentence\r\n";

std::string StructuredCsvRows(const ProductExport& p) {
  const std::string product = CsvField(p.product) + "," + std::to_string(p.reviews) + "," +
                              (p.avg_rating ? Fixed(*p.avg_rating, 2) : std::string()) + "," +
                              (p.avg_rating ? (p.labels ? "labels" : "ratings") : "") + "," +
                              std::to_string(p.run_id);
  std::string out;
  for (const ExportedPoint& pt : p.points) {
    const std::string section = pt.polarity == "praise"      ? "praise"
                                : pt.polarity == "complaint" ? "complaints"
                                                             : "other";
    out += product + "," + section + "," + pt.polarity + "," + std::to_string(pt.support) + "," +
           Fixed(pt.share, 4) + "," + Fixed(pt.share_low, 4) + "," + Fixed(pt.share_high, 4) + "," +
           std::to_string(pt.members) + "," + CsvField(pt.aspect) + "," + CsvField(pt.text) + "," +
           CsvField(pt.review) + "," + CsvField(pt.sentence) + "\r\n";
  }
  for (const ExportedSentence& a : p.also_said) {
    out += product + ",also_said,,,,,,," + "," + CsvField(a.text) + "," + CsvField(a.review) + "," +
           CsvField(a.sentence) + "\r\n";
  }
  return out;
}

// A product's JSON object with only the keys --fields asked for.
std::string Fields(const ExportOptions& options, std::string object) {
  return options.fields.empty() ? object : JsonSelectFields(object, options.fields);
}

std::string RatingJson(const ProductExport& p) {
  if (!p.avg_rating) return "null";
  std::string o = "{\"mean\":" + JsonFixed(*p.avg_rating, 2) +
                  ",\"scale\":" + (p.labels ? "\"labels\"" : "\"ratings\"") + ",\"distribution\":{";
  for (size_t i = 0; i < p.rating_distribution.size(); ++i) {
    o += (i ? "," : "") + JsonQuote(Number(p.rating_distribution[i].first)) + ":" +
         std::to_string(p.rating_distribution[i].second);
  }
  return o + "}}";
}

// The flat export's JSON object (unchanged but for the citations, now dump ids).
std::string FlatJsonObject(const ProductExport& p, const std::string& tokenizer) {
  std::string o = "{\"product\":" + JsonText(p.product);
  if (p.review_id) o += ",\"review\":" + JsonText(p.review_cited);
  o += ",\"run\":" + std::to_string(p.run_id) + ",\"reviews\":" + std::to_string(p.reviews);
  o += ",\"rating\":" + RatingJson(p);
  o += ",\"summary\":" + JsonText(p.body) + ",\"citations\":[";
  for (size_t i = 0; i < p.citations.size(); ++i) {
    o += (i ? "," : "") + JsonText(p.citations[i]);
  }
  o += "]";
  AppendSizes(o, p, tokenizer);
  return o + "}";
}

std::string StructuredJsonObject(const ProductExport& p, const std::string& tokenizer) {
  std::string o = "{\"product\":" + JsonText(p.product) + ",\"run\":" + std::to_string(p.run_id) +
                  ",\"reviews\":" + std::to_string(p.reviews) + ",\"rating\":" + RatingJson(p) +
                  ",\"budget\":" + JsonQuote(p.budget) + ",\"points\":[";
  for (size_t i = 0; i < p.points.size(); ++i) {
    const ExportedPoint& x = p.points[i];
    o += (i ? "," : "");
    o += "{\"text\":" + JsonText(x.text) + ",\"polarity\":" + JsonText(x.polarity) +
         ",\"support\":" + std::to_string(x.support) + ",\"share\":" + JsonFixed(x.share, 4) +
         ",\"share_interval\":[" + JsonFixed(x.share_low, 4) + "," + JsonFixed(x.share_high, 4) +
         "],\"members\":" + std::to_string(x.members) +
         ",\"aspect\":" + (x.aspect.empty() ? std::string("null") : JsonText(x.aspect)) +
         ",\"weight\":" + JsonFixed(x.weight, 6) + ",\"review\":" + JsonText(x.review) +
         ",\"sentence\":" + JsonText(x.sentence) + "}";
  }
  o += "],\"also_said\":[";
  for (size_t i = 0; i < p.also_said.size(); ++i) {
    const ExportedSentence& x = p.also_said[i];
    o += (i ? "," : "");
    o += "{\"text\":" + JsonText(x.text) + ",\"review\":" + JsonText(x.review) +
         ",\"sentence\":" + JsonText(x.sentence) + "}";
  }
  o += "],\"points_not_shown\":" + std::to_string(p.points_not_shown) +
       ",\"summary\":" + JsonText(p.body);
  AppendSizes(o, p, tokenizer);
  return o + "}";
}

// The product key as shown: a dump without a product field puts every review under "".
std::string ShownProduct(const std::string& key) {
  return key.empty() ? "(no product field)" : ShowInvisibles(key);
}

// "5:6 4:2 3:1" (rating:reviews, highest rating first).
std::string DistributionText(const ProductExport& p) {
  std::string s;
  for (auto it = p.rating_distribution.rbegin(); it != p.rating_distribution.rend(); ++it) {
    s += (s.empty() ? "" : " ") + Number(it->first) + ":" + std::to_string(it->second);
  }
  return s;
}

// "average rating 4.20", "60 % positive (0/1 labels)" or "average rating n/a".
std::string RatingText(const ProductExport& p) {
  if (!p.avg_rating) return "average rating n/a";
  if (p.labels) return Fixed(100.0 * *p.avg_rating, 0) + " % positive (0/1 labels)";
  return "average rating " + Fixed(*p.avg_rating, 2);
}

// What the distribution's numbers are: "ratings (rating:reviews)" or "labels (label:reviews)".
std::string DistributionName(const ProductExport& p) {
  return p.labels ? "labels (label:reviews)" : "ratings (rating:reviews)";
}

// The summaries to export, one per subject: of the run asked for, or each subject's latest.
std::vector<StoredSummary> ChooseSummaries(ReviewStore& store, const ExportOptions& options) {
  const std::string scope = options.scope;
  if (options.run_id) {
    if (!store.runs().GetRun(*options.run_id)) {
      throw ExportError(store.path() + ": no run " + std::to_string(*options.run_id));
    }
    std::vector<StoredSummary> summaries = store.runs().GetSummaries(*options.run_id, scope, "");
    if (summaries.empty()) {
      throw ExportError(store.path() + ": run " + std::to_string(*options.run_id) + " has no " +
                        scope + " summaries (export --scope " +
                        (scope == "product" ? "review" : "product") + "?)");
    }
    return summaries;
  }
  std::vector<StoredSummary> summaries = store.runs().LatestSummaries(scope);
  if (summaries.empty()) {
    throw ExportError(store.path() + ": no " + scope + " summaries yet; run `revsum " +
                      "summarize" + (scope == "review" ? " --scope review" : "") + "`");
  }
  return summaries;
}

// The error for a product asked for that has nothing of `what` (points, summary) to export: no
// such product, or not summarised (in the run asked for).
[[noreturn]] void ThrowNothingToExport(ReviewStore& store, const ExportOptions& options,
                                       const std::string& product, const std::string& what,
                                       const std::string& hint) {
  if (!store.reviews().HasProduct(product)) {
    throw ExportError(store.path() + ": no product '" + KeyForMessage(product) + "'");
  }
  throw ExportError(
      store.path() + ": product '" + KeyForMessage(product) + "' has no " + what +
      (options.run_id ? " in run " + std::to_string(*options.run_id) : std::string()) +
      "; summarise it first" + hint);
}

// --- structured export --------------------------------------------------------------------------

using Section = StructuredSection;
constexpr const char* kSectionNames[] = {"Praise", "Complaints", "Other"};

Section SectionOf(const std::string& polarity) { return SectionOfPolarity(polarity); }

// Renders what a budget measures (see the header comment) for one choice of points.
class Renderer {
 public:
  // `short_ids`: ShortCitations of every point that may be rendered (one product).
  // `reviews`: the product's reviews in the filter.
  Renderer(const ExportOptions& options, std::string prompt_header, int64_t reviews,
           std::map<std::string, std::string> short_ids = {})
      : options_(options),
        prompt_header_(std::move(prompt_header)),
        reviews_(reviews),
        short_ids_(std::move(short_ids)) {}

  std::string Line(const ExportedPoint& p) const {
    return Bullet(ShareLead(p, reviews_, options_.format == ExportFormat::kPrompt), p.text,
                  p.review);
  }
  std::string Line(const ExportedSentence& s) const { return Bullet("", s.text, s.review); }

  std::string SectionHeader(Section s) const { return SectionHeader(kSectionNames[s]); }

  // The measured text for `chosen[s]` (indexes into sections[s], in section order) followed by
  // the "Also said" sentences `also`.
  std::string Body(const std::vector<ExportedPoint> (&sections)[3], const StructuredChoice& chosen,
                   const std::vector<const ExportedSentence*>& also = {}) const {
    std::string body = options_.format == ExportFormat::kPrompt ? prompt_header_ : "";
    for (int s = 0; s < 3; ++s) {
      if (chosen[s].empty()) continue;
      body += SectionHeader(static_cast<Section>(s));
      std::vector<size_t> order = chosen[s];
      std::sort(order.begin(), order.end());
      for (size_t i : order) body += Line(sections[s][i]);
    }
    if (!also.empty()) {
      body += SectionHeader(kAlsoSaidName);
      for (const ExportedSentence* a : also) body += Line(*a);
    }
    size_t not_shown = 0;
    for (int s = 0; s < 3; ++s) not_shown += sections[s].size() - chosen[s].size();
    if (options_.format == ExportFormat::kPrompt && not_shown > 0) {
      body += "(" + NotShownText(static_cast<int64_t>(not_shown)) + ")\n";
    }
    return body;
  }

 private:
  // "- SHARE TEXT [CITATION]\n", TEXT escaped for the format.
  std::string Bullet(const std::string& share, const std::string& text,
                     const std::string& review) const {
    std::string cite = CitationMark(review, options_.citations);
    if (options_.citations == CitationStyle::kShort) {
      if (const auto it = short_ids_.find(review); it != short_ids_.end()) cite = it->second;
    }
    if (!cite.empty()) cite = " " + cite;
    switch (options_.format) {
      case ExportFormat::kText:
        return "- " + share + PlainInline(text) + cite + "\n";
      case ExportFormat::kMarkdown:
        return "- " + share + MarkdownInline(text) + cite + "\n";
      case ExportFormat::kJson:
      case ExportFormat::kJsonl:
      case ExportFormat::kCsv:
        return "- " + share + text + cite + "\n";
      case ExportFormat::kPrompt:
        return "- " + share + PlainInline(text) + cite + "\n";
    }
    return "";
  }

  std::string SectionHeader(const std::string& name) const {
    switch (options_.format) {
      case ExportFormat::kMarkdown:
        return "**" + name + "**\n";
      case ExportFormat::kPrompt:
        return name + ":\n";
      default:
        return name + "\n";
    }
  }

  const ExportOptions& options_;
  std::string prompt_header_;
  int64_t reviews_;
  std::map<std::string, std::string> short_ids_;
};

// Measures emitted text against a budget.
class Meter {
 public:
  Meter(Budget budget, const CostFunction& words, const TokenCounter* tokens, int64_t words_before)
      : budget_(budget), words_(words), tokens_(tokens) {
    if (budget.unit == Budget::Unit::kTokens && !tokens) {
      throw std::invalid_argument("the budget " + budget.ToString() +
                                  " is in tokens: it needs the tokenizer (drop --no-tokens)");
    }
    limit_ = budget.unit == Budget::Unit::kRatio
                 ? std::floor(budget.amount * static_cast<double>(words_before))
                 : budget.amount;
  }
  // The cost of `text` holding `points` points, in the budget's unit.
  double Cost(const std::string& text, size_t points) const {
    switch (budget_.unit) {
      case Budget::Unit::kSentences:
        return static_cast<double>(points);
      case Budget::Unit::kTokens:
        return static_cast<double>(tokens_->Count(text));
      case Budget::Unit::kWords:
      case Budget::Unit::kRatio:
        return static_cast<double>(words_(text));
    }
    return 0;
  }
  bool Fits(const std::string& text, size_t points) const { return Cost(text, points) <= limit_; }

 private:
  Budget budget_;
  const CostFunction& words_;
  const TokenCounter* tokens_;
  double limit_ = 0;
};

// Chooses the points to emit under the budget (see the header comment; the rule is
// SelectStructuredPoints, shared with `revsum eval --structured`). Returns false when not even
// the empty body (the prompt header) fits.
bool Choose(const Renderer& render, const Meter& meter, const std::vector<ExportedPoint> (&sec)[3],
            StructuredChoice& chosen) {
  std::array<std::vector<double>, 3> support;
  for (int s = 0; s < 3; ++s) {
    for (const ExportedPoint& p : sec[s]) support[s].push_back(static_cast<double>(p.support));
  }
  return SelectStructuredPoints(
      support,
      [&](const StructuredChoice& c, size_t points) {
        return meter.Fits(render.Body(sec, c), points);
      },
      [&](int s, size_t i) { return meter.Cost(render.Line(sec[s][i]), 1); }, chosen);
}

// The sentences of the run's flat summary of `product` (in its order) whose reviews are in the
// filter (`cited`): the candidates of "Also said".
std::vector<ExportedSentence> FlatSentences(ReviewStore& store, int64_t run_id,
                                            const std::string& product,
                                            const std::map<int64_t, std::string>& sentence_text,
                                            const std::map<int64_t, int64_t>& review_of,
                                            const std::map<int64_t, std::string>& cited) {
  std::vector<ExportedSentence> flat;
  for (const StoredSummary& summary : store.runs().GetSummaries(run_id, "product", product)) {
    for (int64_t id : summary.sentence_ids) {
      const auto text = sentence_text.find(id);
      if (text == sentence_text.end()) continue;  // its review is outside the filter
      flat.push_back({text->second, cited.at(review_of.at(id)), id, ""});
    }
  }
  return flat;
}

// Step 4 of the choice (structured.h): of `flat`, the sentences no chosen point holds, while the
// body still fits.
std::vector<const ExportedSentence*> ChooseAlsoSaid(const Renderer& render, const Meter& meter,
                                                    const std::vector<ExportedPoint> (&sec)[3],
                                                    const StructuredChoice& chosen,
                                                    const std::vector<ExportedPoint>& shown,
                                                    const std::vector<ExportedSentence>& flat) {
  std::set<int64_t> held;
  for (const ExportedPoint& p : shown) {
    held.insert(p.sentence_id);
    held.insert(p.member_sentences.begin(), p.member_sentences.end());
  }
  std::vector<const ExportedSentence*> candidates;
  for (const ExportedSentence& f : flat) {
    if (!held.count(f.sentence_id)) candidates.push_back(&f);
  }
  auto pick = [&](const std::vector<size_t>& taken) {
    std::vector<const ExportedSentence*> out;
    for (size_t i : taken) out.push_back(candidates[i]);
    return out;
  };
  return pick(SelectAlsoSaid(candidates.size(), [&](const std::vector<size_t>& taken) {
    return meter.Fits(render.Body(sec, chosen, pick(taken)), shown.size() + taken.size());
  }));
}

// The budget a run used ("budget" in runs.params), or the summarize default.
Budget RunBudget(ReviewStore& store, int64_t run_id) {
  std::optional<RunInfo> run = store.runs().GetRun(run_id);
  const std::string key = "\"budget\":\"";
  if (run) {
    const size_t at = run->params_json.find(key);
    if (at != std::string::npos) {
      const size_t begin = at + key.size();
      const size_t end = run->params_json.find('"', begin);
      if (end != std::string::npos) {
        try {
          return ParseBudget(run->params_json.substr(begin, end - begin));
        } catch (const std::invalid_argument&) {
        }
      }
    }
  }
  return SummarizeOptions{}.budget;
}

// The points of `product` as exported: in the filter (see the header comment), by section, each
// section by support then stored rank.
void ViewPoints(ReviewStore& store, int64_t run_id, const std::string& product,
                const ReviewFilter& filter, const std::map<int64_t, std::string>& cited,
                const std::map<int64_t, std::string>& sentence_text, int64_t reviews,
                std::vector<ExportedPoint> (&sections)[3]) {
  std::vector<std::pair<int64_t, ExportedPoint>> all;  // (stored idx, point)
  for (const StoredPoint& sp : store.points().RunPoints(run_id, product)) {
    ExportedPoint p;
    p.text = sp.text;
    p.polarity = sp.polarity;
    p.support = sp.support;
    p.share = sp.share;
    p.aspect = sp.aspect;
    p.weight = sp.weight;
    p.sentence_id = sp.sentence_id;
    int64_t review = sp.review_id;
    if (!filter.empty()) {
      std::set<int64_t> in;
      const StoredPointMember* best = nullptr;
      bool representative_in = false;
      for (const StoredPointMember& m : sp.members) {
        if (!cited.count(m.review_id)) continue;
        in.insert(m.review_id);
        if (m.sentence_id == sp.sentence_id) representative_in = true;
        if (!best) best = &m;  // members are by decreasing similarity
      }
      if (in.empty()) continue;
      if (!representative_in && cited.count(sp.review_id)) representative_in = true;
      if (!representative_in) {
        auto text = sentence_text.find(best->sentence_id);
        if (text == sentence_text.end()) continue;
        p.text = text->second;
        p.sentence_id = best->sentence_id;
        review = best->review_id;
      }
      p.support = static_cast<int64_t>(in.size());
      p.share = reviews ? static_cast<double>(p.support) / static_cast<double>(reviews) : 0;
    }
    for (const StoredPointMember& m : sp.members) {
      if (cited.count(m.review_id)) p.member_sentences.push_back(m.sentence_id);
    }
    p.members = static_cast<int64_t>(p.member_sentences.size());
    std::tie(p.share_low, p.share_high) = WilsonInterval(p.support, reviews);
    auto c = cited.find(review);
    if (c == cited.end()) continue;  // review deleted since the run
    p.review = c->second;
    all.emplace_back(sp.idx, std::move(p));
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (a.second.support != b.second.support) return a.second.support > b.second.support;
    return a.first < b.first;
  });
  for (auto& [idx, p] : all) sections[SectionOf(p.polarity)].push_back(std::move(p));
}

void ExportStructured(ReviewStore& store, const ExportOptions& options, std::ostream& out,
                      const ProductCallback& each) {
  // Per product, the run its points come from, in product order.
  if (options.run_id && !store.runs().GetRun(*options.run_id)) {
    throw ExportError(store.path() + ": no run " + std::to_string(*options.run_id));
  }
  std::vector<std::pair<std::string, int64_t>> todo = store.points().PointRuns(options.run_id);
  if (todo.empty()) {
    if (!options.run_id && store.runs().LatestSummaries("product").empty()) {
      throw ExportError(store.path() + ": no product summaries yet; run `revsum summarize`");
    }
    throw ExportError(
        store.path() + ": no points" +
        (options.run_id ? " in run " + std::to_string(*options.run_id) : std::string()) +
        " (summaries made before points were stored); run `revsum summarize` again, or export "
        "--flat");
  }
  if (!options.products.empty()) {
    std::vector<std::pair<std::string, int64_t>> asked;
    for (const std::string& product : options.products) {
      const auto at =
          std::lower_bound(todo.begin(), todo.end(), product,
                           [](const auto& e, const std::string& k) { return e.first < k; });
      if (at != todo.end() && at->first == product) {
        asked.push_back(*at);
        continue;
      }
      ThrowNothingToExport(store, options, product, "points", " (or export --flat)");
    }
    todo = std::move(asked);
  }

  const std::string tokenizer = options.tokens ? options.tokenizer_name : "";
  const CostFunction words = BudgetWordCost();
  std::map<int64_t, Budget> run_budgets;
  bool first = true;
  if (options.format == ExportFormat::kJson) out << "[";
  if (options.format == ExportFormat::kCsv) out << kCsvHeader;
  for (const auto& [product, run_id] : todo) {
    ProductExport p;
    p.product = product;
    p.run_id = run_id;
    // Reviews in the filter: their citations, ratings and texts.
    std::map<int64_t, std::string> cited;
    std::map<double, int64_t> distribution;
    double rating_mean = 0;  // running, so no sum of large ratings overflows
    int64_t rated = 0;
    for (const ReviewFacts& f : store.reviews().ProductReviewFacts(product)) {
      if (!FilterAdmits(options.filter, f.rating, f.time)) continue;
      cited[f.id] = ReviewCitationId(f.external_id, f.content_hash);
      if (f.rating) {
        ++rated;
        rating_mean += (*f.rating - rating_mean) / static_cast<double>(rated);
        ++distribution[*f.rating];
      }
    }
    if (cited.empty()) continue;  // no review of the product is in the filter
    p.reviews = static_cast<int64_t>(cited.size());
    if (rated) p.avg_rating = rating_mean;
    p.labels = rated && store.reviews().RatedWithLabels(product);
    p.rating_distribution.assign(distribution.begin(), distribution.end());
    std::map<int64_t, std::string> sentence_text;
    std::map<int64_t, int64_t> review_of;        // sentence id -> review id
    std::map<int64_t, std::string> sentence_of;  // sentence id -> SentenceCitation
    std::string all_reviews;
    for (const StoredReview& r : store.reviews().GetProductReviews(product)) {
      if (!cited.count(r.id)) continue;
      for (const StoredSentence& s : r.sentences) {
        sentence_text[s.id] = s.text;
        review_of[s.id] = r.id;
        sentence_of[s.id] = SentenceCitation(cited.at(r.id), s.index);
      }
      all_reviews += r.text;
      all_reviews += '\n';
      p.words_before += static_cast<int64_t>(words(r.text));
    }
    std::vector<ExportedPoint> sections[3];
    ViewPoints(store, p.run_id, product, options.filter, cited, sentence_text, p.reviews, sections);
    for (auto& section : sections) {
      for (ExportedPoint& point : section) point.sentence = sentence_of[point.sentence_id];
    }

    if (!run_budgets.count(p.run_id)) run_budgets[p.run_id] = RunBudget(store, p.run_id);
    const Budget budget = options.budget ? *options.budget : run_budgets[p.run_id];
    p.budget = budget.ToString();
    const std::string distribution_text = DistributionText(p);
    std::string prompt_header;
    if (options.format == ExportFormat::kPrompt) {
      prompt_header = "Product: " + PlainInline(ShownProduct(product)) +
                      "\nReviews: " + std::to_string(p.reviews);
      if (p.avg_rating) {
        prompt_header +=
            "; " + RatingText(p) + "; " + DistributionName(p) + " " + distribution_text;
      }
      prompt_header += "\n";
    }
    std::vector<ExportedSentence> flat =
        FlatSentences(store, p.run_id, product, sentence_text, review_of, cited);
    for (ExportedSentence& f : flat) f.sentence = sentence_of[f.sentence_id];
    std::vector<std::string> candidate_ids;
    size_t point_count = 0;
    for (const auto& section : sections) {
      for (const ExportedPoint& point : section) candidate_ids.push_back(point.review);
      point_count += section.size();
    }
    for (const ExportedSentence& f : flat) candidate_ids.push_back(f.review);
    const Renderer render(options, prompt_header, p.reviews,
                          options.citations == CitationStyle::kShort
                              ? ShortCitations(candidate_ids,
                                               [&store](const std::string& id) {
                                                 return store.reviews().CitationNeighbours(id, 2);
                                               })
                              : std::map<std::string, std::string>{});
    const Meter meter(budget, words, options.tokens, p.words_before);
    StructuredChoice chosen;
    p.left_out = !Choose(render, meter, sections, chosen);
    for (int s = 0; s < 3; ++s) {
      std::vector<size_t> order = chosen[s];
      std::sort(order.begin(), order.end());
      for (size_t i : order) p.points.push_back(sections[s][i]);
    }
    const std::vector<const ExportedSentence*> also =
        p.left_out ? std::vector<const ExportedSentence*>{}
                   : ChooseAlsoSaid(render, meter, sections, chosen, p.points, flat);
    p.body = render.Body(sections, chosen, also);
    for (const ExportedSentence* a : also) p.also_said.push_back(*a);
    p.points_not_shown = static_cast<int64_t>(point_count - p.points.size());
    p.words_after = static_cast<int64_t>(words(p.body));
    if (options.tokens) {
      p.tokens_before = static_cast<int64_t>(options.tokens->Count(all_reviews));
      p.tokens_after = static_cast<int64_t>(options.tokens->Count(p.body));
    }
    if (p.left_out) {
      p.body.clear();
      p.points.clear();
      if (each) each(p);
      continue;
    }

    const std::string counts = std::to_string(p.reviews) + " reviews, " + RatingText(p) + ", run " +
                               std::to_string(p.run_id);
    std::string distribution_name = DistributionName(p);
    switch (options.format) {
      case ExportFormat::kText:
        out << "== " << PlainInline(ShownProduct(product)) << " (" << counts << ") ==\n";
        distribution_name[0] = static_cast<char>(std::toupper(distribution_name[0]));
        if (p.avg_rating) out << distribution_name << ": " << distribution_text << "\n";
        out << p.body << "(" << SizeLine(p, tokenizer) << ")\n\n";
        break;
      case ExportFormat::kMarkdown:
        out << "## " << MarkdownInline(ShownProduct(product)) << "\n\n*" << counts;
        if (p.avg_rating) out << "; " << distribution_name << " " << distribution_text;
        out << "*\n\n" << p.body << "\n_" << SizeLine(p, tokenizer) << "_\n\n";
        break;
      case ExportFormat::kJson:
        out << (first ? "\n " : ",\n ") << Fields(options, StructuredJsonObject(p, tokenizer));
        break;
      case ExportFormat::kJsonl:
        out << Fields(options, StructuredJsonObject(p, tokenizer)) << "\n";
        break;
      case ExportFormat::kCsv:
        out << StructuredCsvRows(p);
        break;
      case ExportFormat::kPrompt:
        out << (first ? "" : "\n") << p.body;
        break;
    }
    first = false;
    if (each) each(p);
  }
  if (options.format == ExportFormat::kJson) out << "\n]\n";
}

}  // namespace

std::pair<double, double> WilsonInterval(int64_t k, int64_t n) {
  if (n <= 0) return {0.0, 0.0};
  constexpr double z = 1.96;
  const double nn = static_cast<double>(n);
  const double p = std::clamp(static_cast<double>(k) / nn, 0.0, 1.0);
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z / (1 + z2 / nn) * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

namespace {

// The options no export can honour, refused before anything is read or written.
void CheckExportOptions(const ExportOptions& options) {
  const bool flat = options.flat || options.scope == "review";
  if (flat && (options.format == ExportFormat::kPrompt || options.format == ExportFormat::kCsv)) {
    throw std::invalid_argument(
        std::string("--format ") + (options.format == ExportFormat::kCsv ? "csv" : "prompt") +
        " exports the points of product summaries; it cannot be combined with --flat or --scope "
        "review (use --format jsonl)");
  }
  if (!options.fields.empty() && options.format != ExportFormat::kJson &&
      options.format != ExportFormat::kJsonl) {
    throw std::invalid_argument(
        "--fields chooses the keys of json and jsonl output; add "
        "--format json or --format jsonl");
  }
  if (flat && (options.budget || !options.filter.empty())) {
    throw std::invalid_argument(
        "--budget and the review filters apply to the structured export, not to --flat or "
        "--scope review (the stored flat summaries are exported as they are)");
  }
}

// The flat export (--flat, --scope review): the stored flat summaries as they are, each sentence
// with its citation. Run lists the items to write, then writes them one by one.
class FlatExporter {
 public:
  FlatExporter(ReviewStore& store, const ExportOptions& options, std::ostream& out,
               const ProductCallback& each)
      : store_(store),
        options_(options),
        out_(out),
        each_(each),
        review_scope_(options.scope == "review"),
        tokenizer_(options.tokens ? options.tokenizer_name : ""),
        words_(BudgetWordCost()) {}

  void Run() {
    summaries_ = ChooseSummaries(store_, options_);
    if (review_scope_) {
      ListReviews();
    } else {
      ListProducts();
    }
    if (options_.format == ExportFormat::kJson) out_ << "[";
    for (size_t i = 0; i < items_.size(); ++i) {
      ProductExport p = Export(items_[i]);
      Write(p, i);
      if (each_) each_(p);
    }
    if (options_.format == ExportFormat::kJson) out_ << "\n]\n";
  }

 private:
  // What to write, in order: (summary, the product of the reviews it summarises).
  struct Item {
    const StoredSummary* summary;
    std::string product;
  };
  // A product's (or a review's) reviews as the body and the sizes need them.
  struct Reviews {
    std::map<int64_t, std::pair<int64_t, std::string>> sentence;  // id -> (review id, text)
    std::string all;  // the review texts, one per line (tokens before)
  };

  // Product scope: one item per product asked for (all summarised ones by default). Every
  // product is checked before anything is written, so a failed export leaves no partial output.
  void ListProducts() {
    std::map<std::string, const StoredSummary*> by_product;
    for (const StoredSummary& s : summaries_) by_product[s.subject] = &s;
    std::vector<std::string> products = options_.products;
    if (products.empty()) {
      for (const auto& [key, s] : by_product) products.push_back(key);
    }
    for (const std::string& product : products) {
      auto found = by_product.find(product);
      if (found != by_product.end()) {
        items_.push_back({found->second, product});
        continue;
      }
      ThrowNothingToExport(store_, options_, product, "summary", "");
    }
  }

  // Review scope: the reviews of the products asked for that have a review summary, by product,
  // then in the product's review order: the same in every store that holds the reviews (a merged
  // store's review ids interleave its shards').
  void ListReviews() {
    for (const std::string& product : options_.products) {
      if (!store_.reviews().HasProduct(product)) {
        throw ExportError(store_.path() + ": no product '" + product + "'");
      }
    }
    for (const StoredSummary& s : summaries_) {
      std::optional<StoredReview> review = store_.reviews().GetReview(std::stoll(s.subject));
      if (!review) continue;
      if (!options_.products.empty() &&
          std::find(options_.products.begin(), options_.products.end(), review->product) ==
              options_.products.end()) {
        continue;
      }
      items_.push_back({&s, review->product});
    }
    if (items_.empty()) {
      throw ExportError(store_.path() + ": no review summaries of these products");
    }
    std::stable_sort(items_.begin(), items_.end(), [](const auto& a, const auto& b) {
      if (a.product != b.product) return a.product < b.product;
      return std::stoll(a.summary->subject) < std::stoll(b.summary->subject);
    });
  }

  // The citation id of a review of `product` ("" when it is not in the product), the product's
  // ids read from the store once.
  std::string CitationOf(const std::string& product, int64_t review) {
    auto found = citation_ids_.find(product);
    if (found == citation_ids_.end()) {
      std::map<int64_t, std::string>& ids = citation_ids_[product];
      for (const ReviewFacts& f : store_.reviews().ProductReviewFacts(product)) {
        ids[f.id] = ReviewCitationId(f.external_id, f.content_hash);
      }
      found = citation_ids_.find(product);
    }
    auto id = found->second.find(review);
    return id == found->second.end() ? std::string() : id->second;
  }

  // One item's export: its reviews' facts, then the body and its sizes.
  ProductExport Export(const Item& item) {
    const StoredSummary& summary = *item.summary;
    std::vector<StoredReview> reviews;
    if (review_scope_) {
      reviews.push_back(*store_.reviews().GetReview(std::stoll(summary.subject)));
    } else {
      reviews = store_.reviews().GetProductReviews(item.product);
    }
    ProductExport p;
    p.product = item.product;
    p.run_id = summary.run_id;
    if (review_scope_) {
      p.review_id = reviews[0].id;
      p.review_cited = CitationOf(p.product, p.review_id);
    }
    const Reviews read = CountReviews(reviews, p);
    WriteBody(summary, read, p);
    if (options_.tokens) {
      p.tokens_before = static_cast<int64_t>(options_.tokens->Count(read.all));
      p.tokens_after = static_cast<int64_t>(options_.tokens->Count(p.body));
    }
    return p;
  }

  // The reviews' count, mean rating, rating distribution and words into `p`; their sentences
  // and texts.
  Reviews CountReviews(const std::vector<StoredReview>& reviews, ProductExport& p) {
    Reviews read;
    p.reviews = static_cast<int64_t>(reviews.size());
    double rating_mean = 0;
    int64_t rated = 0;
    std::map<double, int64_t> distribution;
    for (const StoredReview& r : reviews) {
      if (r.rating) {
        ++rated;
        rating_mean += (*r.rating - rating_mean) / static_cast<double>(rated);
        ++distribution[*r.rating];
      }
      for (const StoredSentence& s : r.sentences) read.sentence[s.id] = {r.id, s.text};
      read.all += r.text;
      read.all += '\n';
      p.words_before += static_cast<int64_t>(words_(r.text));
    }
    if (rated) p.avg_rating = rating_mean;
    p.labels = rated && store_.reviews().RatedWithLabels(p.product);
    p.rating_distribution.assign(distribution.begin(), distribution.end());
    return read;
  }

  // The body: one cited sentence per line (text/markdown), or plain sentences (json), with the
  // citations and the words after.
  void WriteBody(const StoredSummary& summary, const Reviews& read, ProductExport& p) {
    std::vector<std::string> cited_ids;
    for (int64_t id : summary.sentence_ids) {
      if (auto it = read.sentence.find(id); it != read.sentence.end()) {
        cited_ids.push_back(CitationOf(p.product, it->second.first));
      }
    }
    ReviewStore& store = store_;
    const std::map<std::string, std::string> short_marks =
        options_.citations == CitationStyle::kShort
            ? ShortCitations(cited_ids,
                             [&store](const std::string& c) {
                               return store.reviews().CitationNeighbours(c, 2);
                             })
            : std::map<std::string, std::string>{};
    for (int64_t id : summary.sentence_ids) {
      auto it = read.sentence.find(id);
      if (it == read.sentence.end()) continue;  // sentence deleted since the run
      const auto& [review_id, text] = it->second;
      const std::string cited = CitationOf(p.product, review_id);
      p.citations.push_back(cited);
      std::string cite = options_.citations == CitationStyle::kShort
                             ? short_marks.at(cited)
                             : CitationMark(cited, options_.citations);
      if (!cite.empty()) cite = " " + cite;
      switch (options_.format) {
        case ExportFormat::kText:
          p.body += "- " + PlainInline(text) + cite + "\n";
          break;
        case ExportFormat::kMarkdown:
          p.body += "- " + MarkdownInline(text) + cite + "\n";
          break;
        case ExportFormat::kJson:
        case ExportFormat::kJsonl:
        case ExportFormat::kPrompt:
        case ExportFormat::kCsv:
          p.body += (p.body.empty() ? "" : " ") + text;
          break;
      }
      p.words_after += static_cast<int64_t>(words_(text));
    }
  }

  // Writes the `i`th item's export in the chosen format.
  void Write(const ProductExport& p, size_t i) {
    // A single review's rating is its rating, or its label.
    const std::string rating =
        !p.avg_rating ? std::string("n/a")
        : p.labels    ? (*p.avg_rating >= 0.5 ? "positive (label 1)" : "negative (label 0)")
                      : Fixed(*p.avg_rating, 2);
    // Review scope names the review by its citation id (the dump's id, or "h:" + content hash),
    // written as citations are (percent-encoded, so it is safe in text and markdown): the same
    // heading in a shard store and in the merged store, whatever the row ids.
    const std::string what =
        review_scope_ ? "review " + CitationText(p.review_cited) + " of " : std::string();
    const std::string counts = review_scope_
                                   ? "rating " + rating
                                   : std::to_string(p.reviews) + " reviews, " + RatingText(p);
    const std::string run = "run " + std::to_string(p.run_id);
    switch (options_.format) {
      case ExportFormat::kText:
        out_ << "== " << what << PlainInline(ShownProduct(p.product)) << " (" << counts << ", "
             << run << ") ==\n"
             << p.body << "(" << SizeLine(p, tokenizer_) << ")\n\n";
        break;
      case ExportFormat::kMarkdown:
        out_ << "## " << what << MarkdownInline(ShownProduct(p.product)) << "\n\n*" << counts
             << ", " << run << "*\n\n"
             << p.body << "\n_" << SizeLine(p, tokenizer_) << "_\n\n";
        break;
      case ExportFormat::kJson:
        out_ << (i ? ",\n " : "\n ") << Fields(options_, FlatJsonObject(p, tokenizer_));
        break;
      case ExportFormat::kJsonl:
      case ExportFormat::kPrompt:
      case ExportFormat::kCsv:
        out_ << Fields(options_, FlatJsonObject(p, tokenizer_)) << "\n";
        break;
    }
  }

  ReviewStore& store_;
  const ExportOptions& options_;
  std::ostream& out_;
  const ProductCallback& each_;
  const bool review_scope_;
  const std::string tokenizer_;
  const CostFunction words_;
  std::vector<StoredSummary> summaries_;
  std::vector<Item> items_;
  std::map<std::string, std::map<int64_t, std::string>> citation_ids_;  // product -> review -> id
};

}  // namespace

void ExportSummaries(ReviewStore& store, const ExportOptions& options, std::ostream& out,
                     const ProductCallback& each) {
  CheckExportOptions(options);
  if (options.flat || options.scope == "review") {
    FlatExporter(store, options, out, each).Run();
  } else {
    ExportStructured(store, options, out, each);
  }
}

std::vector<ProductExport> ExportSummaries(ReviewStore& store, const ExportOptions& options,
                                           std::ostream& out) {
  std::vector<ProductExport> exported;
  ExportSummaries(store, options, out, [&](const ProductExport& p) { exported.push_back(p); });
  return exported;
}

}  // namespace revsum
