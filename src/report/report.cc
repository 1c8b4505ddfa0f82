// The report page (include/revsum/report.h): reads the store through its ReportReader and
// RunStore (store.h), and writes one HTML file. The page's CSS and script are in page_assets.cc.
#include "revsum/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "page_assets.h"
#include "revsum/escape.h"
#include "revsum/json.h"

namespace revsum {
namespace {

// Byte offset of code point `cp` in valid UTF-8 `s` (s.size() when past the end).
size_t ByteOfCodePoint(std::string_view s, size_t cp) {
  size_t i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (cp == 0) return i;
    --cp;
  }
  return s.size();
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// At most `max` code points of `s`, with "…" when cut.
std::string Clip(std::string_view s, size_t max) {
  const size_t cut = ByteOfCodePoint(s, max);
  return cut >= s.size() ? std::string(s) : std::string(s.substr(0, cut)) + "\u2026";
}

std::string Num(const char* format, double v) {
  if (!std::isfinite(v)) return "null";
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string Percent(double share) { return Num("%.1f", 100.0 * share) + "%"; }

std::string JsonOptional(const std::optional<double>& v) {
  return v ? Num("%.17g", *v) : std::string("null");
}

struct RatingBin {
  std::string label;
  int64_t count = 0;
};

struct PointView {
  int64_t id = 0, idx = 0, sentence_id = 0, review_id = 0, support = 0, members = 0;
  std::string text, polarity, aspect;
  double share = 0, weight = 0;
};

struct EvidenceView {
  int64_t sentence_id = 0, review_id = 0;
  std::string external_id;
  std::optional<double> rating;
  double similarity = 0;
  ReviewExcerpt excerpt;
};

struct SentenceView {
  std::string text;
  std::optional<ScoreRow> score;
};

struct ReviewView {
  int64_t id = 0;
  std::string external_id, title;
  std::optional<double> rating;
  std::vector<SentenceView> sentences;
  int64_t sentences_total = 0;
};

struct ProductView {
  std::string key;
  int64_t reviews = 0;
  std::optional<double> avg_rating;
  std::vector<RatingBin> ratings;
  int64_t unrated = 0;
  std::optional<RunInfo> run;  // the run of the points (and of the attention)
  std::vector<PointView> points;
  std::vector<std::vector<EvidenceView>> evidence;  // per point
  std::vector<std::string> heads;
  std::string score_scope;  // "product", "review" or "" (no scores)
  std::vector<ReviewView> sample;
};

// The products to show, with their review counts, in page order.
std::vector<std::pair<std::string, int64_t>> ChooseProducts(ReportReader& db,
                                                            const ReportOptions& options,
                                                            size_t* omitted) {
  if (options.products.empty()) {
    size_t total = 0;
    auto out = db.ProductsByReviews(options.max_products, &total);
    *omitted = total - out.size();
    return out;
  }
  std::vector<std::pair<std::string, int64_t>> out;
  for (const std::string& key : options.products) {
    const std::optional<int64_t> n = db.ProductReviewCount(key);
    if (!n) throw ReportError("report: no product \"" + key + "\" in the store");
    out.emplace_back(key, *n);
  }
  *omitted = 0;
  return out;
}

void ReadRatings(ReportReader& db, ProductView& p) {
  std::vector<std::pair<double, int64_t>> values;
  double sum = 0;
  int64_t rated = 0;
  for (const auto& [rating, n] : db.RatingCounts(p.key)) {
    if (!rating) {
      p.unrated += n;
      continue;
    }
    values.emplace_back(*rating, n);
    sum += *rating * static_cast<double>(n);
    rated += n;
  }
  if (rated > 0) p.avg_rating = sum / static_cast<double>(rated);
  if (values.size() <= 11) {  // stars, 0/1 labels, 1-10: one bar per value
    for (const auto& [v, n] : values) p.ratings.push_back({Num("%g", v), n});
    return;
  }
  // Many distinct values (e.g. 0-100): five equal bins between the lowest and highest.
  const double lo = values.front().first, hi = values.back().first;
  constexpr int kBins = 5;
  for (int b = 0; b < kBins; ++b) {
    p.ratings.push_back({Num("%g", lo + (hi - lo) * b / kBins) + "\u2013" +
                             Num("%g", lo + (hi - lo) * (b + 1) / kBins),
                         0});
  }
  for (const auto& [v, n] : values) {
    const int b = std::min(kBins - 1, static_cast<int>((v - lo) / (hi - lo) * kBins));
    p.ratings[static_cast<size_t>(b)].count += n;
  }
}

// The run whose points a product shows: options.run_id, else the latest finished run that has
// points for it (as the view product_points picks it; queried here without the view's window
// over every product's points, which would cost a scan of the whole table per product). 0: none.
int64_t PointsRun(ReportReader& db, const ReportOptions& options, const std::string& product) {
  return options.run_id ? *options.run_id : db.LatestPointsRun(product);
}

void ReadPoints(ReportReader& db, PointStore& points, const ReportOptions& options,
                ProductView& p) {
  const int64_t run_id = PointsRun(db, options, p.key);
  if (run_id == 0) return;
  for (StoredPoint& point : points.RunPoints(run_id, p.key, /*with_members=*/false)) {
    PointView v;
    v.id = point.id;
    v.idx = point.idx;
    v.text = std::move(point.text);
    v.sentence_id = point.sentence_id;
    v.review_id = point.review_id;
    v.polarity = std::move(point.polarity);
    v.support = point.support;
    v.share = point.share;
    v.aspect = std::move(point.aspect);
    v.weight = point.weight;
    p.points.push_back(std::move(v));
  }
  for (PointView& v : p.points) {
    v.members = db.MemberCount(v.id);
    std::vector<EvidenceView> list;
    for (ReportReader::Evidence& m : db.PointEvidence(v.id, v.sentence_id, options.max_evidence)) {
      EvidenceView e;
      e.sentence_id = m.sentence_id;
      e.review_id = m.review_id;
      e.similarity = m.similarity;
      e.excerpt = CutExcerpt(m.review_text, m.begin, m.end, options.context_chars,
                             options.max_sentence_chars);
      e.external_id = std::move(m.external_id);
      e.rating = m.rating;
      list.push_back(std::move(e));
    }
    p.evidence.push_back(std::move(list));
  }
}

// The reviews of the attention view: the representatives' reviews first, then an evenly spread
// sample of the product's reviews, up to options.sample_reviews.
std::vector<int64_t> SampleReviews(ReportReader& db, const ReportOptions& options,
                                   const ProductView& p) {
  std::vector<int64_t> out;
  std::set<int64_t> seen;
  for (const PointView& v : p.points) {
    if (out.size() >= options.sample_reviews) return out;
    if (seen.insert(v.review_id).second) out.push_back(v.review_id);
  }
  std::vector<int64_t> all;  // the others
  for (int64_t id : db.ProductReviewIds(p.key)) {
    if (!seen.count(id)) all.push_back(id);
  }
  const size_t want = options.sample_reviews - out.size();
  if (want == 0 || all.empty()) return out;
  const double stride = std::max(1.0, static_cast<double>(all.size()) / static_cast<double>(want));
  for (double at = 0; at < static_cast<double>(all.size()) && out.size() < options.sample_reviews;
       at += stride) {
    out.push_back(all[static_cast<size_t>(at)]);
  }
  return out;
}

void ReadAttention(ReviewStore& store, const ReportOptions& options, ProductView& p) {
  if (!p.run) return;
  p.heads = store.runs().RunHeadNames(p.run->id);
  for (int64_t id : SampleReviews(store.report(), options, p)) {
    ReviewView r;
    r.id = id;
    ReportReader::ReviewHead head = store.report().GetReviewHead(id);
    r.external_id = std::move(head.external_id);
    r.title = std::move(head.title);
    r.rating = head.rating;
    std::vector<int64_t> ids;
    size_t chars = 0;
    for (const auto& [sentence_id, text] : store.report().ReviewSentences(id)) {
      ++r.sentences_total;
      if (r.sentences.size() >= options.max_review_sentences || chars > options.max_review_chars) {
        continue;
      }
      ids.push_back(sentence_id);
      r.sentences.push_back({Clip(text, options.max_sentence_chars), std::nullopt});
      chars += CodePoints(r.sentences.back().text);
    }
    // Product-scope weights when the run scored the product, else the review's own scope.
    for (const char* scope : {"product", "review"}) {
      auto scores = store.runs().GetScores(p.run->id, scope, ids);
      if (scores.empty()) continue;
      std::map<int64_t, ScoreRow> by_id(scores.begin(), scores.end());
      for (size_t i = 0; i < ids.size(); ++i) {
        auto it = by_id.find(ids[i]);
        if (it != by_id.end()) r.sentences[i].score = it->second;
      }
      if (p.score_scope.empty()) p.score_scope = scope;
      break;
    }
    p.sample.push_back(std::move(r));
  }
}

// What a head looks at, for the legend (score.h).
std::string HeadDescription(const std::string& head) {
  if (head == "consensus") {
    return "attention a sentence receives from the other sentences of the product: what many "
           "reviewers say";
  }
  if (head == "centroid") return "closeness to the average of everything the scope says";
  if (head == "opinion") return "evaluation (\"great quality, recommend\") rather than narration";
  if (head.rfind("aspect:", 0) == 0) {
    return "the overall review tilted towards " + head.substr(7) +
           ", the aspect's seed sentences (models/seeds)";
  }
  if (head.rfind("topic:", 0) == 0) {
    return "main topic " + head.substr(6) + " of the scope (a principal direction)";
  }
  return "a head of this run";
}

std::string PolarityLabel(const std::string& polarity) {
  if (polarity == "praise") return "praise";
  if (polarity == "complaint") return "complaint";
  if (polarity == "neutral") return "neutral";
  return "unknown";
}

// Data spans: HTML-escaped, bidi-isolated (class d, see page_assets.cc).
std::string Data(std::string_view s) { return "<span class=\"d\">" + HtmlEscape(s) + "</span>"; }

const PointView* Biggest(const ProductView& p, const char* polarity) {
  const PointView* best = nullptr;
  for (const PointView& v : p.points) {
    if (v.polarity == polarity && (!best || v.support > best->support)) best = &v;
  }
  return best;
}

void WriteRatingBars(std::string& o, const ProductView& p, bool labels) {
  int64_t max = 0;
  for (const RatingBin& b : p.ratings) max = std::max(max, b.count);
  if (p.ratings.empty()) {
    o += "<span class=\"muted\">no ratings</span>";
    return;
  }
  o += labels ? "<div class=\"ratings big\">" : "<div class=\"ratings\">";
  for (const RatingBin& b : p.ratings) {
    const double h = max ? 100.0 * static_cast<double>(b.count) / static_cast<double>(max) : 0;
    o += "<div class=\"rbin\" title=\"rating " + HtmlEscape(b.label) + ": " +
         std::to_string(b.count) +
         " reviews\"><div class=\"rcol\"><div class=\"rbar\" style=\"height:" + Num("%.0f", h) +
         "%\"></div></div>";
    if (labels) {
      o += "<div class=\"rlabel\">" + HtmlEscape(b.label) + "</div><div class=\"rcount\">" +
           std::to_string(b.count) + "</div>";
    }
    o += "</div>";
  }
  o += "</div>";
  if (p.unrated > 0 && labels) {
    o += "<span class=\"muted\">" + std::to_string(p.unrated) + " without rating</span>";
  }
}

void WriteIndex(std::string& o, const std::vector<ProductView>& products, size_t omitted) {
  o += "<section id=\"index\"><h2>Products</h2>";
  if (omitted > 0) {
    o += "<p class=\"note\">" + std::to_string(omitted) +
         " more products of the store are not on this page (the ones with fewest reviews); name "
         "them with <code>--product</code>.</p>";
  }
  o += "<table class=\"index\"><thead><tr><th>product</th><th class=\"num\">reviews</th>"
       "<th>ratings</th><th>biggest praise</th><th>biggest complaint</th></tr></thead><tbody>";
  for (size_t i = 0; i < products.size(); ++i) {
    const ProductView& p = products[i];
    o += "<tr class=\"index-row\" data-product=\"" + HtmlEscape(p.key) + "\"><td><a href=\"#p" +
         std::to_string(i) + "\">" + Data(ShowInvisibles(p.key)) + "</a></td><td class=\"num\">" +
         std::to_string(p.reviews) + "</td><td>";
    WriteRatingBars(o, p, false);
    o += "</td>";
    for (const char* polarity : {"praise", "complaint"}) {
      const PointView* v = Biggest(p, polarity);
      o += "<td class=\"biggest " + std::string(polarity) + "\">";
      if (v) {
        o += "<span class=\"pct\">" + Percent(v->share) + "</span> " + Data(Clip(v->text, 160));
      } else {
        o += "<span class=\"muted\">none</span>";
      }
      o += "</td>";
    }
    o += "</tr>";
  }
  o += "</tbody></table></section>";
}

void WritePoints(std::string& o, const ProductView& p, size_t product_index) {
  if (p.points.empty()) {
    o += "<p class=\"muted\">No points for this product" +
         std::string(p.run ? " in this run."
                           : ": run <code>revsum run</code> or "
                             "<code>revsum summarize</code> first.") +
         "</p>";
    return;
  }
  struct Group {
    const char* title;
    std::vector<const char*> polarities;
  };
  const Group groups[] = {{"Praise", {"praise"}},
                          {"Complaints", {"complaint"}},
                          {"Other points", {"neutral", "unknown"}}};
  for (const Group& g : groups) {
    std::vector<size_t> in;
    for (size_t k = 0; k < p.points.size(); ++k) {
      for (const char* pol : g.polarities) {
        if (p.points[k].polarity == pol) in.push_back(k);
      }
    }
    if (in.empty()) continue;
    o += "<h4>" + std::string(g.title) + "</h4><ol class=\"points\">";
    for (size_t k : in) {
      const PointView& v = p.points[k];
      o += "<li class=\"point " + PolarityLabel(v.polarity) + "\" tabindex=\"0\" role=\"button\" " +
           "aria-expanded=\"false\" data-product-index=\"" + std::to_string(product_index) +
           "\" data-k=\"" + std::to_string(k) + "\" data-point-id=\"" + std::to_string(v.id) +
           "\" data-share=\"" + Num("%.17g", v.share) + "\" data-support=\"" +
           std::to_string(v.support) + "\"><div class=\"track\"><div class=\"bar\" style=\"width:" +
           Num("%.2f", std::clamp(100.0 * v.share, 0.0, 100.0)) +
           "%\"></div></div><span class=\"pct\">" + Percent(v.share) +
           "</span><span class=\"ptext\">" + Data(v.text) + "</span><span class=\"meta\">" +
           PolarityLabel(v.polarity);
      if (!v.aspect.empty())
        o += " \u00b7 <span class=\"aspect\">" + HtmlEscape(v.aspect) + "</span>";
      o += " \u00b7 " + std::to_string(v.support) + " of " + std::to_string(p.reviews) +
           " reviews \u00b7 " + std::to_string(v.members) +
           (v.members == 1 ? " sentence" : " sentences") + "</span></li>";
    }
    o += "</ol>";
  }
}

void WriteProduct(std::string& o, const ProductView& p, size_t i, const ReportOptions& options) {
  o += "<section class=\"product\" id=\"p" + std::to_string(i) + "\" data-product=\"" +
       HtmlEscape(p.key) + "\" data-product-index=\"" + std::to_string(i) + "\"><h2>" +
       Data(ShowInvisibles(p.key)) + "</h2><p class=\"facts\">" + std::to_string(p.reviews) +
       " reviews";
  if (p.avg_rating) o += " \u00b7 mean rating " + Num("%.2f", *p.avg_rating);
  if (p.run) {
    o += " \u00b7 run " + std::to_string(p.run->id) + " (" + HtmlEscape(p.run->embedder) +
         ", finished " + HtmlEscape(p.run->finished_at) + ")";
  }
  o += "</p><div class=\"cols\"><div class=\"col-ratings\"><h3>Ratings</h3>";
  WriteRatingBars(o, p, true);
  o += "</div><div class=\"col-points\"><h3>Points <span class=\"hint\">share of the " +
       std::to_string(p.reviews) +
       " reviews that say it; click a point for its evidence</span></h3>";
  WritePoints(o, p, i);
  o += "</div></div>";
  size_t shown = 0, members = 0;
  for (size_t k = 0; k < p.points.size(); ++k) {
    shown += p.evidence[k].size();
    members += static_cast<size_t>(p.points[k].members);
  }
  o += "<p class=\"note bound\">This page holds " + std::to_string(shown) + " of the " +
       std::to_string(members) + " member sentences of these points (at most " +
       std::to_string(options.max_evidence) + " a point, each with up to " +
       std::to_string(options.context_chars) +
       " characters of its review on either side) and the attention of a sample of " +
       std::to_string(p.sample.size()) + " of the " + std::to_string(p.reviews) +
       " reviews. The store holds all of them (views <code>point_evidence</code>, "
       "<code>sentence_head_weights</code>).</p>";
  o += "<div class=\"attention\"><h3>Attention <span class=\"hint\">a review's sentences "
       "shaded by final weight";
  if (p.score_scope == "product") o += " in the product";
  if (p.score_scope == "review") o += " in the review";
  o += "; per-head weights as a heatmap (each column shaded relative to its largest value in "
       "the review)</span></h3>";
  if (p.sample.empty() || p.score_scope.empty()) {
    o += "<p class=\"muted\">No scores for this product.</p></div></section>";
    return;
  }
  o += "<label>review <select class=\"att-select\" data-product-index=\"" + std::to_string(i) +
       "\"></select></label><div class=\"att-view\" data-product-index=\"" + std::to_string(i) +
       "\"></div><dl class=\"legend\">";
  // The aspect heads share one entry: they differ only in the aspect they lean towards.
  std::string aspects;
  for (const std::string& h : p.heads) {
    if (h.rfind("aspect:", 0) == 0) {
      aspects += (aspects.empty() ? "" : ", ") + h.substr(7);
      continue;
    }
    o += "<dt>" + HtmlEscape(h) + "</dt><dd>" + HtmlEscape(HeadDescription(h)) + "</dd>";
  }
  if (!aspects.empty()) {
    o += "<dt>aspect:X</dt><dd>" + HtmlEscape(HeadDescription("aspect:X")) + "; X is one of " +
         HtmlEscape(aspects) + "</dd>";
  }
  o += "<dt>final</dt><dd>the heads mixed (consensus carries most of a product's weight); a "
       "product's final weights sum to 1 over all its sentences</dd></dl></div></section>";
}

void AppendScores(std::string& o, const ScoreRow& s) {
  o += "\"w\":" + Num("%.4g", s.weight) + ",\"h\":[";
  for (size_t h = 0; h < s.head_weights.size(); ++h) {
    o += (h ? "," : "") + Num("%.4g", s.head_weights[h]);
  }
  o += "]";
}

// The JSON the page's script reads: evidence per point and the attention sample per product.
std::string DataJson(const std::vector<ProductView>& products) {
  std::string o = "{\"products\":[";
  for (size_t i = 0; i < products.size(); ++i) {
    const ProductView& p = products[i];
    o += (i ? ",{" : "{") + std::string("\"key\":") + ScriptJsonQuote(p.key) + ",\"points\":[";
    for (size_t k = 0; k < p.points.size(); ++k) {
      const PointView& v = p.points[k];
      o += (k ? ",{" : "{") + std::string("\"id\":") + std::to_string(v.id) +
           ",\"members\":" + std::to_string(v.members) + ",\"evidence\":[";
      const auto& ev = p.evidence[k];
      for (size_t e = 0; e < ev.size(); ++e) {
        const EvidenceView& x = ev[e];
        o += (e ? ",{" : "{") + std::string("\"sentence\":") + std::to_string(x.sentence_id) +
             ",\"review\":" + std::to_string(x.review_id) +
             ",\"ext\":" + ScriptJsonQuote(x.external_id) +
             ",\"rating\":" + JsonOptional(x.rating) + ",\"sim\":" + Num("%.3f", x.similarity) +
             ",\"pre\":" + ScriptJsonQuote(x.excerpt.before) +
             ",\"hit\":" + ScriptJsonQuote(x.excerpt.hit) +
             ",\"post\":" + ScriptJsonQuote(x.excerpt.after) + ",\"cut\":[" +
             (x.excerpt.cut_before ? "1," : "0,") + (x.excerpt.cut_hit ? "1," : "0,") +
             (x.excerpt.cut_after ? "1]}" : "0]}");
      }
      o += "]}";
    }
    o += "],\"heads\":[";
    for (size_t h = 0; h < p.heads.size(); ++h) o += (h ? "," : "") + ScriptJsonQuote(p.heads[h]);
    o += "],\"reviews\":[";
    for (size_t r = 0; r < p.sample.size(); ++r) {
      const ReviewView& v = p.sample[r];
      o += (r ? ",{" : "{") + std::string("\"id\":") + std::to_string(v.id) +
           ",\"ext\":" + ScriptJsonQuote(v.external_id) + ",\"title\":" + ScriptJsonQuote(v.title) +
           ",\"rating\":" + JsonOptional(v.rating) +
           ",\"total\":" + std::to_string(v.sentences_total) + ",\"sentences\":[";
      for (size_t s = 0; s < v.sentences.size(); ++s) {
        o += (s ? ",{" : "{") + std::string("\"t\":") + ScriptJsonQuote(v.sentences[s].text);
        if (v.sentences[s].score) {
          o += ",";
          AppendScores(o, *v.sentences[s].score);
        }
        o += "}";
      }
      o += "]}";
    }
    o += "]}";
  }
  o += "]}";
  return o;
}

}  // namespace

std::string ScriptJsonQuote(std::string_view utf8) {
  const std::string json = JsonQuote(utf8);
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
      out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

ReviewExcerpt CutExcerpt(std::string_view text, int64_t begin, int64_t end, size_t context,
                         size_t max_hit) {
  const auto n = static_cast<int64_t>(CodePoints(text));
  begin = std::clamp<int64_t>(begin, 0, n);
  end = std::clamp<int64_t>(end, begin, n);
  ReviewExcerpt x;
  const auto ctx = static_cast<int64_t>(context);
  const int64_t from = std::max<int64_t>(0, begin - ctx);
  int64_t hit_end = end;
  if (static_cast<size_t>(end - begin) > max_hit) {
    hit_end = begin + static_cast<int64_t>(max_hit);
    x.cut_hit = true;
  }
  const int64_t to = std::min<int64_t>(n, end + ctx);
  auto at = [&](int64_t cp) { return ByteOfCodePoint(text, static_cast<size_t>(cp)); };
  x.cut_before = from > 0;
  x.cut_after = to < n;
  x.before = std::string(text.substr(at(from), at(begin) - at(from)));
  x.hit = std::string(text.substr(at(begin), at(hit_end) - at(begin)));
  x.after = std::string(text.substr(at(end), at(to) - at(end)));
  return x;
}

ReportSummary WriteReport(ReviewStore& store, const ReportOptions& options, std::ostream& out) {
  ReportReader& db = store.report();
  std::optional<RunInfo> chosen_run;
  if (options.run_id) {
    chosen_run = store.runs().GetRun(*options.run_id);
    if (!chosen_run) {
      throw ReportError("report: no run " + std::to_string(*options.run_id) + " in the store");
    }
  }
  const std::optional<RunInfo> latest_product_run = store.runs().LatestRun("product");
  ReportSummary summary;
  std::vector<ProductView> products;
  for (const auto& [key, reviews] : ChooseProducts(db, options, &summary.products_omitted)) {
    ProductView p;
    p.key = key;
    p.reviews = reviews;
    ReadRatings(db, p);
    ReadPoints(db, store.points(), options, p);
    if (chosen_run) {
      p.run = chosen_run;
    } else if (const int64_t run = PointsRun(db, options, key); run != 0) {
      p.run = store.runs().GetRun(run);
    } else {
      p.run = latest_product_run;
    }
    ReadAttention(store, options, p);
    summary.points += p.points.size();
    for (const auto& ev : p.evidence) summary.evidence += ev.size();
    summary.attention_reviews += p.sample.size();
    products.push_back(std::move(p));
  }
  summary.products = products.size();

  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'none'\">"
       "<title>revsum report</title><style>";
  o += report_internal::kPageCss;
  o += "</style></head><body><header><h1>revsum report</h1><p class=\"facts\">store " +
       Data(options.store_label) + " \u00b7 " + std::to_string(products.size()) + " products";
  if (chosen_run) o += " \u00b7 run " + std::to_string(chosen_run->id);
  o += "</p><p class=\"note\">Points group sentences that say the same thing; a point's share is "
       "the share of the product's reviews among its members. Bars: <span class=\"key "
       "praise\">praise</span> <span class=\"key complaint\">complaint</span> <span "
       "class=\"key neutral\">neutral</span> <span class=\"key unknown\">unknown</span>.</p>"
       "</header><main>";
  WriteIndex(o, products, summary.products_omitted);
  for (size_t i = 0; i < products.size(); ++i) WriteProduct(o, products[i], i, options);
  o += "</main><script type=\"application/json\" id=\"revsum-data\">";
  o += DataJson(products);
  o += "</script><script>";
  o += report_internal::kPageScript;
  o += "</script></body></html>\n";
  out << o;
  if (!out) throw ReportError("report: writing the page failed");
  summary.bytes = o.size();
  return summary;
}

}  // namespace revsum
