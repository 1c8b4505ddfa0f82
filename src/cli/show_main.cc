// revsum show CITATION|PRODUCT --db PATH: a review or a product, sentence by sentence, with ids;
// with the latest run's summary and weights when there is one, and a product's points.
//
// SUBJECT is, in this order: a product key; a review's citation as exports write it (the dump's
// id, or h: + 16 hex digits; also "[ID]" with its percent-encoding, and "ID#INDEX", a sentence
// citation, which shows its review); a review's store id (reviews.id, a number); the start of
// one review's citation (a short citation). A subject that names several reviews is an error
// that lists them. --product and --review (store id) say which it is.
//
// Weights print as 3 significant digits in scientific notation (w=1.23e-02): the weights of a
// product scope sum to 1 over thousands of sentences, so fixed decimals would print 0.0000.
//
// --json prints one JSON object on stdout:
//   {"subject": TEXT, "scope": "product"|"review", "sort": "stored"|"weight",
//    "run": null | {"id": N, "embedder": TEXT, "started_at": TEXT, "finished_at": TEXT,
//                   "heads": [NAME, ...]},
//    "summaries": [{"text", "sentence_ids": [N], "units_in", "units_out", "unit", "embedder",
//                   "tokenizer", "tokens_in", "tokens_out"}],
//    "points": [{"index", "polarity", "support", "reviews", "share", "aspect": TEXT|null,
//                "text", "review": CITATION, "sentence": "CITATION#INDEX", "run_id"}],
//    "reviews_total": N, "sentences_total": N, "sentences_shown": N,
//    "reviews": [{"id", "citation", "product", "external_id", "rating": X|null, "title",
//                 "source", "line"}],
//    "sentences": [{"id", "review_id", "citation": "CITATION#INDEX", "index", "begin", "end",
//                   "text", "tokens": N|null,
//                   "weight": X|null, "polarity": "praise"|"complaint"|"neutral"|null,
//                   "score": X|null, "salience": X|null, "heads": {NAME: X, ...}|null}]}
// "id" and "review_id" are store ids (reviews.id, sentences.id); "citation" is how exports cite
// the review. "points" are the product's points of the latest finished run that has them (view
// product_points; [] for a review); "sentences" are in the chosen order, cut at --limit;
// "reviews" are those of the shown sentences, in stored order; "heads" holds the run's per-head
// weights of each sentence; "polarity", "score" and "salience" its learned opinion (opinion.h;
// null in runs without one).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"
#include "revsum/export.h"
#include "revsum/json.h"
#include "revsum/opinion.h"

namespace revsum::cli {
namespace {

struct ShowArgs {
  std::string subject, db;
  bool heads = false;
  bool review = false, product = false;
  bool json = false;
  size_t limit = 100;
  std::string sort = "stored";
};

// 3 significant digits, scientific: 1.23e-02. snprintf, so no stream state leaks between lines.
std::string Weight(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", w);
  return buf;
}

std::string Number(const char* format, double v) {
  if (!std::isfinite(v)) return "null";
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A stored opinion score's side (the band of the view sentence_opinions).
OpinionSide Side(float score) {
  return score >= OpinionModel::kDefaultBand    ? OpinionSide::kPraise
         : score <= -OpinionModel::kDefaultBand ? OpinionSide::kComplaint
                                                : OpinionSide::kNeutral;
}

// One sentence to print, with its review and its score (nullptr when the run has none for it).
struct Line {
  const StoredReview* review;
  const StoredSentence* sentence;
  const ScoreRow* score;
};

std::string HeadName(const std::vector<std::string>& names, size_t h) {
  return h < names.size() ? names[h] : "h" + std::to_string(h);
}

void PrintReviewHeader(const StoredReview& r) {
  std::cout << "review " << TerminalSafe(ShowInvisibles(r.citation)) << "  product "
            << TerminalSafe(ShowInvisibles(r.product)) << "  (store id " << r.id << ")";
  if (r.rating) std::cout << "  rating " << Number("%g", *r.rating);
  std::cout << "  (" << TerminalSafe(r.source) << ":" << r.line << ")\n";
  if (!r.title.empty()) std::cout << "  title: " << TerminalSafe(r.title) << "\n";
}

void PrintLine(const Line& line, const std::vector<std::string>& head_names, bool heads,
               bool with_review) {
  std::cout << "  [" << line.sentence->id << "] ";
  if (line.score) {
    std::cout << "w=" << Weight(line.score->weight) << " ";
    if (heads) {
      std::cout << "(";
      for (size_t h = 0; h < line.score->head_weights.size(); ++h) {
        std::cout << (h ? " " : "") << TerminalSafe(HeadName(head_names, h)) << "="
                  << Weight(line.score->head_weights[h]);
      }
      std::cout << ") ";
    }
  }
  if (line.score && line.score->opinion) {
    std::cout << OpinionSideName(Side(*line.score->opinion)) << " ";
  }
  if (with_review) std::cout << "(review " << line.review->id << ") ";
  std::cout << TerminalSafe(line.sentence->text) << "\n";
}

// A product's point as show prints it: its reviews' count and its sentence's citation.
struct ShownPoint {
  const StoredPoint* point;
  int64_t reviews;       // the reviews its share is of (support / share), as the run counted them
  std::string sentence;  // "CITATION#INDEX"
};

std::vector<ShownPoint> ShownPoints(const std::vector<StoredPoint>& points,
                                    const std::vector<StoredReview>& reviews) {
  std::map<int64_t, int32_t> index;
  for (const StoredReview& r : reviews) {
    for (const StoredSentence& s : r.sentences) index[s.id] = s.index;
  }
  std::vector<ShownPoint> out;
  for (const StoredPoint& p : points) {
    const int64_t of = p.share > 0 ? std::llround(static_cast<double>(p.support) / p.share)
                                   : static_cast<int64_t>(reviews.size());
    auto it = index.find(p.sentence_id);
    out.push_back({&p, of, SentenceCitation(p.citation, it == index.end() ? 0 : it->second)});
  }
  return out;
}

void PrintPoints(const std::vector<ShownPoint>& points) {
  if (points.empty()) return;
  std::cout << "points (run " << points[0].point->run_id << "):\n";
  for (const ShownPoint& sp : points) {
    const StoredPoint& p = *sp.point;
    char share[16];
    std::snprintf(share, sizeof share, "%.0f %%", 100.0 * p.share);
    std::cout << "  " << p.polarity << (p.aspect.empty() ? "" : " (" + TerminalSafe(p.aspect) + ")")
              << "  " << p.support << " of " << sp.reviews << " reviews (" << share << ")  "
              << PlainInline(p.text) << "  " << CitationMark(p.citation, CitationStyle::kFull)
              << "\n";
  }
  std::cout << "\n";
}

std::string PointsJson(const std::vector<ShownPoint>& points) {
  std::string o = "[";
  for (size_t i = 0; i < points.size(); ++i) {
    const StoredPoint& p = *points[i].point;
    o += (i ? ",{\"index\":" : "{\"index\":") + std::to_string(p.idx) +
         ",\"polarity\":" + JsonQuote(p.polarity) + ",\"support\":" + std::to_string(p.support) +
         ",\"reviews\":" + std::to_string(points[i].reviews) +
         ",\"share\":" + Number("%.6g", p.share) +
         ",\"aspect\":" + (p.aspect.empty() ? std::string("null") : JsonQuote(p.aspect)) +
         ",\"text\":" + JsonQuote(p.text) + ",\"review\":" + JsonQuote(p.citation) +
         ",\"sentence\":" + JsonQuote(points[i].sentence) +
         ",\"run_id\":" + std::to_string(p.run_id) + "}";
  }
  return o + "]";
}

std::string ShowJson(const ShowArgs& args, const std::string& scope,
                     const std::optional<RunInfo>& run, const std::vector<std::string>& head_names,
                     const std::vector<StoredSummary>& summaries,
                     const std::vector<ShownPoint>& points,
                     const std::vector<StoredReview>& reviews, size_t sentences_total,
                     const std::vector<Line>& shown) {
  std::string o = "{\"subject\":" + JsonQuote(args.subject) + ",\"scope\":" + JsonQuote(scope) +
                  ",\"sort\":" + JsonQuote(args.sort) + ",\"run\":";
  if (run) {
    o += "{\"id\":" + std::to_string(run->id) + ",\"embedder\":" + JsonQuote(run->embedder) +
         ",\"started_at\":" + JsonQuote(run->started_at) +
         ",\"finished_at\":" + JsonQuote(run->finished_at) + ",\"heads\":[";
    for (size_t h = 0; h < head_names.size(); ++h) o += (h ? "," : "") + JsonQuote(head_names[h]);
    o += "]}";
  } else {
    o += "null";
  }
  o += ",\"summaries\":[";
  for (size_t i = 0; i < summaries.size(); ++i) {
    const StoredSummary& s = summaries[i];
    o += (i ? ",{\"text\":" : "{\"text\":") + JsonQuote(s.text) + ",\"sentence_ids\":[";
    for (size_t k = 0; k < s.sentence_ids.size(); ++k) {
      o += (k ? "," : "") + std::to_string(s.sentence_ids[k]);
    }
    o += "],\"units_in\":" + std::to_string(s.units_in) +
         ",\"units_out\":" + std::to_string(s.units_out) + ",\"unit\":" + JsonQuote(s.unit) +
         ",\"embedder\":" + JsonQuote(s.embedder) +
         ",\"tokenizer\":" + (s.tokenizer.empty() ? std::string("null") : JsonQuote(s.tokenizer)) +
         ",\"tokens_in\":" + (s.tokenizer.empty() ? "null" : std::to_string(s.tokens_in)) +
         ",\"tokens_out\":" + (s.tokenizer.empty() ? "null" : std::to_string(s.tokens_out)) + "}";
  }
  o += "],\"points\":" + PointsJson(points) +
       ",\"reviews_total\":" + std::to_string(reviews.size()) +
       ",\"sentences_total\":" + std::to_string(sentences_total) +
       ",\"sentences_shown\":" + std::to_string(shown.size()) + ",\"reviews\":[";
  bool first = true;
  for (const StoredReview& r : reviews) {
    const bool has_shown =
        std::any_of(shown.begin(), shown.end(), [&r](const Line& l) { return l.review == &r; });
    if (!has_shown) continue;
    o += (first ? "{\"id\":" : ",{\"id\":") + std::to_string(r.id) +
         ",\"citation\":" + JsonQuote(r.citation) + ",\"product\":" + JsonQuote(r.product) +
         ",\"external_id\":" + JsonQuote(r.external_id) +
         ",\"rating\":" + (r.rating ? Number("%.17g", *r.rating) : std::string("null")) +
         ",\"title\":" + JsonQuote(r.title) + ",\"source\":" + JsonQuote(r.source) +
         ",\"line\":" + std::to_string(r.line) + "}";
    first = false;
  }
  o += "],\"sentences\":[";
  for (size_t i = 0; i < shown.size(); ++i) {
    const StoredSentence& s = *shown[i].sentence;
    o += (i ? ",{\"id\":" : "{\"id\":") + std::to_string(s.id) +
         ",\"review_id\":" + std::to_string(shown[i].review->id) +
         ",\"citation\":" + JsonQuote(SentenceCitation(shown[i].review->citation, s.index)) +
         ",\"index\":" + std::to_string(s.index) + ",\"begin\":" + std::to_string(s.begin) +
         ",\"end\":" + std::to_string(s.end) + ",\"text\":" + JsonQuote(s.text) +
         ",\"tokens\":" + (s.tokens >= 0 ? std::to_string(s.tokens) : std::string("null")) +
         ",\"weight\":";
    const ScoreRow* score = shown[i].score;
    if (!score) {
      o += "null,\"polarity\":null,\"score\":null,\"salience\":null,\"heads\":null}";
      continue;
    }
    o += Number("%.9g", score->weight);
    if (score->opinion) {
      o += ",\"polarity\":" + JsonQuote(OpinionSideName(Side(*score->opinion))) +
           ",\"score\":" + Number("%.6g", *score->opinion) +
           ",\"salience\":" + Number("%.6g", score->salience.value_or(NAN));
    } else {
      o += ",\"polarity\":null,\"score\":null,\"salience\":null";
    }
    o += ",\"heads\":{";
    for (size_t h = 0; h < score->head_weights.size(); ++h) {
      o += (h ? "," : "") + JsonQuote(HeadName(head_names, h)) + ":" +
           Number("%.9g", score->head_weights[h]);
    }
    o += "}}";
  }
  return o + "]}\n";
}

// "%2F" -> '/', as CitationMark encodes bytes; a '%' not followed by two hex digits is kept,
// except at the end of `s` (a short citation cut inside an escape), where it is dropped.
std::string PercentDecoded(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
    } else if (i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else if (i + 2 >= s.size() && (i + 1 == s.size() || hex(s[i + 1]) >= 0)) {
      break;  // "%" or "%2" at the end: an escape cut short
    } else {
      out += s[i];
    }
  }
  return out;
}

// What a subject may be besides a product key, most literal first: as typed; without the
// brackets of a written citation; without a sentence citation's "#INDEX"; percent-decoded.
std::vector<std::string> CitationForms(const std::string& subject) {
  std::vector<std::string> forms{subject};
  std::string s = subject;
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  const size_t hash = s.rfind('#');
  if (hash != std::string::npos && hash + 1 < s.size() &&
      s.find_first_not_of("0123456789", hash + 1) == std::string::npos) {
    s.resize(hash);
  }
  for (const std::string& f : {s, PercentDecoded(s)}) {
    if (!f.empty() && std::find(forms.begin(), forms.end(), f) == forms.end()) forms.push_back(f);
  }
  return forms;
}

// The review(s) SUBJECT names when it is no product: see the header comment for the order.
// Sets `error` when it names none or several.
std::vector<StoredReview> ResolveReview(ReviewStore& store, const ShowArgs& args,
                                        std::string* error) {
  // A review id is a positive int64: at most 18 digits here, so no id overflows (a longer
  // number is simply not a review id).
  const bool numeric = !args.subject.empty() && args.subject.size() <= 18 &&
                       args.subject.find_first_not_of("0123456789") == std::string::npos;
  auto by_id = [&]() -> std::vector<StoredReview> {
    if (!numeric) return {};
    if (auto r = store.reviews().GetReview(std::stoll(args.subject))) return {*r};
    return {};
  };
  if (args.review) return by_id();
  constexpr size_t kListed = 10;
  const std::vector<std::string> forms = CitationForms(args.subject);
  std::vector<std::pair<int64_t, std::string>> exact, prefix;
  for (const std::string& form : forms) {
    auto found = store.reviews().FindCitations(form, kListed + 1);
    if (found.empty()) continue;
    (found.front().second == form ? exact : prefix) = found;
    if (!exact.empty()) break;
  }
  std::vector<std::pair<int64_t, std::string>> found = exact;
  if (found.empty()) {
    if (auto r = by_id(); !r.empty()) return r;
    found = prefix;
  }
  if (found.size() == 1) return {*store.reviews().GetReview(found[0].first)};
  if (found.empty()) return {};
  *error = "'" + KeyForMessage(args.subject) + "' names " +
           (found.size() > kListed ? "more than " + std::to_string(kListed)
                                   : std::to_string(found.size())) +
           " reviews:";
  for (size_t i = 0; i < std::min(found.size(), kListed); ++i) {
    *error +=
        " " + KeyForMessage(found[i].second) + " (store id " + std::to_string(found[i].first) + ")";
    *error += i + 1 < std::min(found.size(), kListed) ? "," : "";
  }
  *error += "; give more of the citation, or the store id with --review";
  return {};
}

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<ShowArgs>();
  sub.add_option("subject", args->subject,
                 "a product key, a review's citation as exports write it ([ID], ID#INDEX, or its "
                 "start when that names one review), or a review's store id (number)")
      ->required();
  AddDbOption(sub, &args->db);
  // Read-only: a missing database is an error, never created.
  sub.get_option("--db")->description("the revsum database to read (never created here)");
  sub.add_flag("--heads", args->heads, "show each attention head's weight per sentence");
  sub.add_flag("--review", args->review, "SUBJECT is a review's store id (reviews.id)");
  sub.add_flag("--product", args->product, "SUBJECT is a product key");
  sub.add_option("-n,--limit", args->limit, "print at most this many sentences (0 = all)")
      ->capture_default_str();
  sub.add_option("--sort", args->sort,
                 "stored: reviews and sentences in ingest order; weight: sentences of the latest "
                 "run by weight, highest first")
      ->check(CLI::IsMember({"stored", "weight"}))
      ->capture_default_str();
  sub.add_flag("--json", args->json,
               "print one JSON object: subject, scope, sort, run {id, embedder, heads}, "
               "summaries, reviews_total, sentences_total, sentences_shown, reviews, sentences "
               "[{id, review_id, text, weight, heads {NAME: weight}}]");
  sub.footer(
      "Weights print as 3 significant digits in scientific notation (w=1.23e-02); --json gives "
      "them in full.");
  return [args] {
    StoreOptions options;
    options.read_only = true;
    auto store = ReviewStore::Open(args->db, options);
    bool as_product =
        args->product || (!args->review && store->reviews().HasProduct(args->subject));
    std::vector<StoredReview> reviews;
    std::string scope = as_product ? "product" : "review";
    std::string ambiguous;
    if (as_product) {
      reviews = store->reviews().GetProductReviews(args->subject);
    } else {
      reviews = ResolveReview(*store, *args, &ambiguous);
    }
    if (!ambiguous.empty()) {
      std::cerr << "revsum show: " << ambiguous << "\n";
      return kExitFailure;
    }
    if (reviews.empty()) {
      std::cerr << "revsum show: no product or review '" << KeyForMessage(args->subject) << "' in "
                << TerminalSafe(args->db)
                << " (a product key, a review's citation or the start of one, or its store id)\n";
      return kExitFailure;
    }
    auto run = store->runs().LatestRun();
    std::map<int64_t, ScoreRow> scores;
    std::vector<std::string> head_names;
    std::vector<StoredSummary> summaries;
    if (run) {
      head_names = store->runs().RunHeadNames(run->id);
      std::string subject = scope == "product" ? args->subject : std::to_string(reviews[0].id);
      summaries = store->runs().GetSummaries(run->id, scope, subject);
      std::vector<int64_t> ids;
      for (const auto& r : reviews) {
        for (const auto& s : r.sentences) ids.push_back(s.id);
      }
      for (auto& [id, row] : store->runs().GetScores(run->id, scope, ids)) scores[id] = row;
      if (scores.empty() && scope == "review") {
        // A run of product scopes only: show the weights the review's sentences got there.
        for (auto& [id, row] : store->runs().GetScores(run->id, "product", ids)) scores[id] = row;
      }
    }

    std::vector<StoredPoint> points;
    if (as_product) points = store->points().LatestPoints(args->subject);
    const std::vector<ShownPoint> shown_points = ShownPoints(points, reviews);

    std::vector<Line> lines;
    for (const StoredReview& r : reviews) {
      for (const StoredSentence& s : r.sentences) {
        auto it = scores.find(s.id);
        lines.push_back({&r, &s, it == scores.end() ? nullptr : &it->second});
      }
    }
    const size_t total = lines.size();
    if (args->sort == "weight") {
      if (scores.empty()) {
        std::cerr << "revsum show: no weights for '" << KeyForMessage(args->subject)
                  << "': summarize first (revsum summarize --db " << TerminalSafe(args->db)
                  << ")\n";
        return kExitFailure;
      }
      // Highest weight first; unscored sentences last; ties keep the stored order.
      std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
        if (!a.score || !b.score) return a.score && !b.score;
        return a.score->weight > b.score->weight;
      });
    }
    if (args->limit > 0 && lines.size() > args->limit) lines.resize(args->limit);

    if (args->json) {
      std::cout << ShowJson(*args, scope, run, head_names, summaries, shown_points, reviews, total,
                            lines);
      return kExitOk;
    }
    for (const StoredSummary& s : summaries) {
      std::cout << "summary (run " << run->id << ", " << TerminalSafe(s.embedder) << ", "
                << s.units_out << "/" << s.units_in << " " << TerminalSafe(s.unit) << "):\n  "
                << TerminalSafe(s.text) << "\n\n";
    }
    PrintPoints(shown_points);
    if (as_product) {
      std::cout << "product " << TerminalSafe(args->subject) << ": " << reviews.size()
                << " reviews, " << total << " sentences"
                << (args->sort == "weight" ? ", by weight (run " + std::to_string(run->id) + ")"
                                           : std::string())
                << "\n";
    }
    if (args->sort == "weight") {
      if (!as_product) PrintReviewHeader(reviews[0]);
      for (const Line& line : lines) PrintLine(line, head_names, args->heads, as_product);
    } else {
      const StoredReview* current = nullptr;
      for (const Line& line : lines) {
        if (line.review != current) PrintReviewHeader(*line.review);
        current = line.review;
        PrintLine(line, head_names, args->heads, false);
      }
    }
    if (lines.size() < total) {
      std::cerr << "revsum show: " << lines.size() << " of " << total
                << " sentences shown (--limit 0 shows all)\n";
    }
    return kExitOk;
  };
}

REVSUM_COMMAND("show",
               "A product (summary, points) or a review by its citation, sentence by sentence",
               Setup);

}  // namespace
}  // namespace revsum::cli
