// Fuzzes the structured exporter (revsum/export.h, the default export: sections Praise /
// Complaints / Other, points with share and support) in every format and citation style. A small
// store is built from the input: 1-3 products, 1-4 reviews each, 1-3 sentences per review, 0-6
// points per product (text, polarity, support, aspect, representative and members from the input)
// and a flat summary (some of the product's sentences, in an order from the input: the candidates
// of "Also said"),
// under a budget in words, sentences, tokens or percent, with or without a rating filter. Product
// keys, external review ids, review and sentence texts, point texts and aspects are raw bytes from
// the input: NUL, invalid UTF-8, newlines, CR, ESC, markup, U+2028, bracket look-alikes; a flag
// byte stretches a string to thousands of bytes. A store is data a dump (or a merged shard, or a
// hand-edited file) put there, so nothing in it is trusted.
//
// Checked, as a consumer reads the output:
//   - text and markdown: valid UTF-8 with no control character but the line feeds (no ESC, no CR,
//     no C1, no bidi control, no U+2028/U+2029); the lines are exactly the documented structure
//     (header, ratings, section names, one "- N% (S reviews) ..." or "- S of R reviews: ..." line
//     per exported point ending
//     in its citation mark, then "Also said (single reviews)" and one "- TEXT [CITATION]" line
//     per exported sentence, sizes, blank); markdown point texts and headings open no markup;
//   - "Also said" holds no sentence that a shown point holds (face or member), and each of its
//     sentences is one of the stored flat summary's;
//   - json and jsonl: simdjson parses them; every string is valid UTF-8 and holds the stored text
//     (invalid sequences replaced by U+FFFD); the points and citations are those of the export;
//   - prompt: every line is "Product: ...", "Reviews: ...", a section name + ':', a point line
//     "- N% (S) TEXT [CITATION]" (or "- S of R reviews: ..."), "Also said (single reviews):" and
//     its "- TEXT [CITATION]" lines, a last "(N more points not shown)"
//     or the blank line between products, so no dump string starts a
//     line; inside a line no '[' or ']' comes from the data (the only bracket pair is the final
//     citation mark); each product block (from "Product:" to its last line feed) costs at most
//     the budget, counted on the output itself (o200k_base tokens, budget words, points);
//   - every format: the body (what the budget measured) fits the budget.
// Needs the o200k_base vocabulary under models/tiktoken/ (scripts/fetch-tiktoken) or
// $REVSUM_MODELS_DIR, like fuzz_tokens.
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <simdjson.h>

#include "export_checks.h"
#include "fuzz_support.h"
#include "revsum/escape.h"
#include "revsum/export.h"
#include "revsum/select.h"
#include "revsum/store.h"
#include "revsum/structured.h"
#include "revsum/summarize.h"
#include "revsum/tokens.h"

namespace {

using revsum::fuzz::CheckMarkdownInline;
using revsum::fuzz::CheckNoControls;
using revsum::fuzz::EndsWith;
using revsum::fuzz::Escape;
using revsum::fuzz::Lines;
using revsum::fuzz::RemoveTempDir;
using revsum::fuzz::StartsWith;
using revsum::fuzz::TempDir;

const revsum::TokenCounter& Tokens() {
  static const std::unique_ptr<revsum::TokenCounter> counter = [] {
    std::string error;
    auto c = revsum::TokenCounter::Load(revsum::Encoding::kO200kBase, &error);
    FUZZ_CHECK(c != nullptr, "fuzz_export_structured needs o200k_base: " + error);
    return c;
  }();
  return *counter;
}

// What a JSON consumer must read for stored bytes: the maximal-subpart U+FFFD decoding.
std::string AsJsonReads(std::string_view bytes) {
  return revsum::fuzz::EncodeUtf8(revsum::fuzz::DecodeUtf8(bytes));
}

// A hostile string: raw bytes, sometimes repeated to a very long string.
std::string Hostile(FuzzedDataProvider& input, size_t max_length) {
  std::string s = input.ConsumeRandomLengthString(max_length);
  if (!s.empty() && input.ConsumeIntegralInRange(0, 15) == 0) {
    const size_t copies = 8192 / s.size() + 1;
    std::string long_s;
    for (size_t i = 0; i < copies; ++i) long_s += s;
    s = std::move(long_s);
  }
  return s;
}

// The citation mark a point line must end with: the full mark, a prefix of it (short), or none.
void CheckCitation(std::string_view line, const std::string& review, revsum::CitationStyle style,
                   const std::string& what) {
  if (style == revsum::CitationStyle::kNone) return;
  const std::string full = revsum::CitationMark(review, revsum::CitationStyle::kFull);
  FUZZ_CHECK(EndsWith(line, "]"), what + ": no citation: " + Escape(line));
  const size_t open = line.rfind(" [");
  FUZZ_CHECK(open != std::string_view::npos, what + ": no citation: " + Escape(line));
  const std::string_view mark = line.substr(open + 1);
  for (char c : mark.substr(1, mark.size() - 2)) {
    FUZZ_CHECK(std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '-' || c == '%',
               what + ": citation byte outside [A-Za-z0-9:%-]: " + Escape(line));
  }
  if (style == revsum::CitationStyle::kFull) {
    FUZZ_CHECK(mark == full, what + ": citation " + Escape(mark) + " != " + Escape(full));
  } else {
    FUZZ_CHECK(mark.size() >= 3 && StartsWith(full, mark.substr(0, mark.size() - 1)),
               what + ": short citation " + Escape(mark) + " is no prefix of " + Escape(full));
  }
}

// "N%" or "<1%", then " (" digits; returns the position after the digits or npos.
size_t SharePrefix(std::string_view s) {
  size_t i = 0;
  if (StartsWith(s, "<1%")) {
    i = 3;
  } else {
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == 0 || i >= s.size() || s[i] != '%') return std::string_view::npos;
    ++i;
  }
  if (s.substr(i, 2) != " (") return std::string_view::npos;
  i += 2;
  const size_t digits = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i > digits ? i : std::string_view::npos;
}

// The share that leads a point line (export.h): "N% (S reviews) " ("<1%" below half a percent;
// prompt "N% (S) "), or "S of R reviews: " for a product of fewer than kFewReviews reviews, S the
// point's support. Returns the lead's length, or npos.
size_t ShareLead(std::string_view s, const revsum::ExportedPoint& x, int64_t reviews, bool prompt) {
  if (reviews < revsum::kFewReviews) {
    const std::string lead = std::to_string(x.support) + " of " + std::to_string(reviews) +
                             (reviews == 1 ? " review: " : " reviews: ");
    return StartsWith(s, lead) ? lead.size() : std::string_view::npos;
  }
  const size_t i = SharePrefix(s);
  if (i == std::string_view::npos) return i;
  const std::string support = std::to_string(x.support);
  if (i < support.size() || s.substr(i - support.size(), support.size()) != support) {
    return std::string_view::npos;
  }
  const std::string_view unit = prompt ? ") " : x.support == 1 ? " review) " : " reviews) ";
  return StartsWith(s.substr(i), unit) ? i + unit.size() : std::string_view::npos;
}

// "(N more point(s) not shown)": the last line of a prompt block when the budget left points out.
bool IsNotShownLine(std::string_view line) {
  if (!StartsWith(line, "(")) return false;
  size_t i = 1;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  const std::string_view rest = line.substr(i);
  return i > 1 && (rest == " more points not shown)" || rest == " more point not shown)");
}

const char* const kSections[] = {"Praise", "Complaints", "Other"};

bool IsSectionName(std::string_view line, std::string_view suffix = "") {
  for (const char* name : kSections) {
    if (line == std::string(name) + std::string(suffix)) return true;
  }
  return false;
}

// The "Also said" lines of `p` hold no sentence a shown point holds, and only flat-summary ones.
void CheckAlsoSaid(const revsum::ProductExport& p, const std::set<int64_t>& flat) {
  std::set<int64_t> held;
  for (const revsum::ExportedPoint& x : p.points) {
    held.insert(x.sentence_id);
    held.insert(x.member_sentences.begin(), x.member_sentences.end());
  }
  for (const revsum::ExportedSentence& a : p.also_said) {
    FUZZ_CHECK(!held.count(a.sentence_id), "also said repeats a shown point: " + Escape(a.text));
    FUZZ_CHECK(flat.count(a.sentence_id), "also said: not a flat summary sentence");
  }
}

// A "- TEXT [CITATION]" line of "Also said": no share, TEXT the sentence as the format escapes
// it, its citation; returns TEXT.
std::string_view CheckAlsoLine(std::string_view line, const revsum::ExportedSentence& a,
                               revsum::CitationStyle citations, const char* format) {
  const std::string_view f = format;
  const std::string escaped =
      f == "markdown" ? revsum::MarkdownInline(a.text) : revsum::PlainInline(a.text);
  FUZZ_CHECK(StartsWith(line.substr(2), escaped),
             std::string(format) + ": also-said line is not its sentence: " + Escape(line));
  std::string_view text = line.substr(2);
  if (citations != revsum::CitationStyle::kNone) {
    CheckCitation(line, a.review, citations, format);
    text = text.substr(0, text.rfind(" ["));
  }
  return text;
}

// The budget's cost of `text` holding `points` points, and its limit for `p`.
double Cost(const revsum::Budget& budget, const std::string& text, size_t points) {
  static const revsum::CostFunction words = revsum::BudgetWordCost();
  switch (budget.unit) {
    case revsum::Budget::Unit::kSentences:
      return static_cast<double>(points);
    case revsum::Budget::Unit::kTokens:
      return static_cast<double>(Tokens().Count(text));
    case revsum::Budget::Unit::kWords:
    case revsum::Budget::Unit::kRatio:
      return static_cast<double>(words(text));
  }
  return 0;
}
double Limit(const revsum::Budget& budget, const revsum::ProductExport& p) {
  return budget.unit == revsum::Budget::Unit::kRatio
             ? std::floor(budget.amount * static_cast<double>(p.words_before))
             : budget.amount;
}

struct Run {
  revsum::Budget budget;
  revsum::CitationStyle citations = revsum::CitationStyle::kFull;
  bool budget_from_run = false;
  std::optional<double> min_rating;
};

std::vector<revsum::ProductExport> Export(revsum::ReviewStore& store, const Run& run,
                                          revsum::ExportFormat format, std::string& out,
                                          const std::set<int64_t>& flat) {
  revsum::ExportOptions options;
  options.format = format;
  options.citations = run.citations;
  if (!run.budget_from_run) options.budget = run.budget;
  options.filter.min_rating = run.min_rating;
  options.tokens = &Tokens();
  options.tokenizer_name = "o200k_base";
  std::ostringstream stream;
  std::vector<revsum::ProductExport> exported = revsum::ExportSummaries(store, options, stream);
  out = stream.str();
  for (const revsum::ProductExport& p : exported) {
    if (p.left_out) continue;
    CheckAlsoSaid(p, flat);
    FUZZ_CHECK(p.budget == run.budget.ToString(), "budget " + p.budget);
    FUZZ_CHECK(
        Cost(run.budget, p.body, p.points.size() + p.also_said.size()) <= Limit(run.budget, p),
        "body over the budget " + p.budget + ": " + Escape(p.body));
  }
  return exported;
}

std::vector<const revsum::ProductExport*> Written(const std::vector<revsum::ProductExport>& all) {
  std::vector<const revsum::ProductExport*> out;
  for (const revsum::ProductExport& p : all) {
    if (!p.left_out) out.push_back(&p);
  }
  return out;
}

// Text and markdown: see the header comment.
void CheckTextOrMarkdown(const std::string& out, const std::vector<revsum::ProductExport>& all,
                         const Run& run, bool markdown) {
  const char* format = markdown ? "markdown" : "text";
  CheckNoControls(out, format);
  const std::vector<std::string> lines = Lines(out, format);
  size_t k = 0;
  auto next = [&]() -> const std::string& {
    FUZZ_CHECK(k < lines.size(), std::string(format) + ": output ends early: " + Escape(out));
    return lines[k++];
  };
  auto peek = [&]() -> std::string_view {
    return k < lines.size() ? std::string_view(lines[k]) : std::string_view();
  };
  size_t headings = 0, bullets = 0;
  for (const revsum::ProductExport* p : Written(all)) {
    FUZZ_CHECK(out.find(p->body) != std::string::npos, std::string(format) + ": body not written");
    const std::string& header = next();
    if (markdown) {
      FUZZ_CHECK(StartsWith(header, "## "), "markdown heading: " + Escape(header));
      CheckMarkdownInline(std::string_view(header).substr(3), "markdown heading");
      FUZZ_CHECK(next().empty(), "markdown: blank line after the heading");
      const std::string& counts = next();
      FUZZ_CHECK(StartsWith(counts, "*") && EndsWith(counts, "*"), "markdown counts line");
      FUZZ_CHECK(next().empty(), "markdown: blank line after the counts");
    } else {
      FUZZ_CHECK(StartsWith(header, "== ") && EndsWith(header, ") =="),
                 "text header: " + Escape(header));
      if (p->avg_rating) {
        FUZZ_CHECK(StartsWith(next(), "Ratings (rating:reviews): "), "text: ratings line");
      }
    }
    ++headings;
    size_t point = 0, also = 0;
    int last_section = -1;
    while (k < lines.size()) {
      const std::string_view line = peek();
      int section = -1;
      for (int s = 0; s < 4; ++s) {
        const std::string name = s < 3 ? kSections[s] : revsum::kAlsoSaidName;
        if (line == (markdown ? "**" + name + "**" : name)) section = s;
      }
      if (section >= 0) {
        FUZZ_CHECK(section > last_section, std::string(format) + ": section order");
        last_section = section;
        ++k;
        continue;
      }
      if (!StartsWith(line, "- ")) break;
      FUZZ_CHECK(last_section >= 0, std::string(format) + ": point before any section");
      if (last_section == 3) {
        FUZZ_CHECK(also < p->also_said.size(), std::string(format) + ": more also-said lines");
        const std::string_view text =
            CheckAlsoLine(line, p->also_said[also++], run.citations, format);
        if (markdown) CheckMarkdownInline(text, "markdown also said");
        ++bullets;
        ++k;
        continue;
      }
      FUZZ_CHECK(point < p->points.size(), std::string(format) + ": more point lines than points");
      const revsum::ExportedPoint& x = p->points[point++];
      const size_t lead = ShareLead(line.substr(2), x, p->reviews, false);
      FUZZ_CHECK(lead != std::string_view::npos,
                 std::string(format) + ": point line " + Escape(line));
      CheckCitation(line, x.review, run.citations, format);
      std::string_view text = line.substr(2 + lead);
      if (run.citations != revsum::CitationStyle::kNone) text = text.substr(0, text.rfind(" ["));
      if (markdown) {
        CheckMarkdownInline(text, "markdown point");
      } else {
        FUZZ_CHECK(text.find_first_of("[]") == std::string_view::npos,
                   "text: a bracket from the data could forge a citation: " + Escape(line));
      }
      ++bullets;
      ++k;
    }
    FUZZ_CHECK(point == p->points.size(), std::string(format) + ": point lines != points");
    FUZZ_CHECK(also == p->also_said.size(), std::string(format) + ": also-said lines");
    if (markdown) {
      FUZZ_CHECK(next().empty(), "markdown: blank line before the sizes");
      const std::string& sizes = next();
      FUZZ_CHECK(StartsWith(sizes, "_") && EndsWith(sizes, "_"), "markdown sizes line");
    } else {
      const std::string& sizes = next();
      FUZZ_CHECK(StartsWith(sizes, "(") && EndsWith(sizes, ")"), "text sizes: " + Escape(sizes));
    }
    FUZZ_CHECK(next().empty(), std::string(format) + ": blank line after a product");
  }
  FUZZ_CHECK(k == lines.size(), std::string(format) + ": extra lines: " + Escape(out));
  if (markdown) {
    size_t hash_lines = 0, dash_lines = 0;
    for (const std::string& line : lines) {
      hash_lines += StartsWith(line, "#");
      dash_lines += StartsWith(line, "- ") || StartsWith(line, "* ") || StartsWith(line, "+ ");
    }
    FUZZ_CHECK(hash_lines == headings, "markdown: lines starting with '#' != products");
    FUZZ_CHECK(dash_lines == bullets, "markdown: list items != points");
  }
}

std::string_view JsonString(simdjson::dom::element e, const char* field, const char* format) {
  std::string_view s;
  FUZZ_CHECK(e[field].get(s) == simdjson::SUCCESS, std::string(format) + ": no string " + field);
  FUZZ_CHECK(revsum::fuzz::IsValidUtf8(s), std::string(format) + ": invalid UTF-8 in " + field);
  return s;
}

void CheckJsonProduct(simdjson::dom::element e, const revsum::ProductExport& p,
                      const char* format) {
  FUZZ_CHECK(JsonString(e, "product", format) == AsJsonReads(p.product),
             std::string(format) + ": product " + Escape(p.product));
  FUZZ_CHECK(JsonString(e, "summary", format) == AsJsonReads(p.body),
             std::string(format) + ": summary");
  simdjson::dom::array points;
  FUZZ_CHECK(e["points"].get(points) == simdjson::SUCCESS, std::string(format) + ": points");
  FUZZ_CHECK(points.size() == p.points.size(), std::string(format) + ": point count");
  size_t i = 0;
  for (simdjson::dom::element x : points) {
    const revsum::ExportedPoint& want = p.points[i++];
    FUZZ_CHECK(JsonString(x, "text", format) == AsJsonReads(want.text),
               std::string(format) + ": point text " + Escape(want.text));
    FUZZ_CHECK(JsonString(x, "review", format) == AsJsonReads(want.review),
               std::string(format) + ": point review " + Escape(want.review));
    FUZZ_CHECK(JsonString(x, "polarity", format) == want.polarity, "polarity");
    if (want.aspect.empty()) {
      FUZZ_CHECK(x["aspect"].is_null(), std::string(format) + ": aspect not null");
    } else {
      FUZZ_CHECK(JsonString(x, "aspect", format) == AsJsonReads(want.aspect),
                 std::string(format) + ": aspect " + Escape(want.aspect));
    }
    int64_t support = 0;
    FUZZ_CHECK(x["support"].get(support) == simdjson::SUCCESS && support == want.support,
               std::string(format) + ": support");
  }
  simdjson::dom::array also;
  FUZZ_CHECK(e["also_said"].get(also) == simdjson::SUCCESS, std::string(format) + ": also_said");
  FUZZ_CHECK(also.size() == p.also_said.size(), std::string(format) + ": also_said count");
  i = 0;
  for (simdjson::dom::element x : also) {
    const revsum::ExportedSentence& want = p.also_said[i++];
    FUZZ_CHECK(JsonString(x, "text", format) == AsJsonReads(want.text),
               std::string(format) + ": also_said text " + Escape(want.text));
    FUZZ_CHECK(JsonString(x, "review", format) == AsJsonReads(want.review),
               std::string(format) + ": also_said review");
  }
}

// Prompt: see the header comment.
void CheckPrompt(const std::string& out, const std::vector<revsum::ProductExport>& all,
                 const Run& run) {
  CheckNoControls(out, "prompt");
  const std::vector<std::string> lines = Lines(out, "prompt");
  const std::vector<const revsum::ProductExport*> written = Written(all);
  size_t product = 0, point = 0, also = 0;
  bool in_also = false;
  std::string block;
  const revsum::ProductExport* p = nullptr;
  auto end_block = [&]() {
    if (!p) return;
    FUZZ_CHECK(point == p->points.size(), "prompt: point lines != points");
    FUZZ_CHECK(also == p->also_said.size(), "prompt: also-said lines");
    FUZZ_CHECK(block == p->body, "prompt: block is not the measured body: " + Escape(block));
    FUZZ_CHECK(Cost(run.budget, block, point + also) <= Limit(run.budget, *p),
               "prompt: block over the budget " + p->budget + ": " + Escape(block));
    block.clear();
    p = nullptr;
  };
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    if (line.empty()) {
      FUZZ_CHECK(p != nullptr && k + 1 < lines.size() && StartsWith(lines[k + 1], "Product: "),
                 "prompt: stray blank line");
      end_block();
      continue;
    }
    block += line + "\n";
    if (StartsWith(line, "Product: ")) {
      FUZZ_CHECK(p == nullptr || (k > 0 && lines[k - 1].empty()),
                 "prompt: a product line inside a block: " + Escape(line));
      end_block();
      block = line + "\n";
      FUZZ_CHECK(product < written.size(), "prompt: more blocks than products");
      p = written[product++];
      point = 0;
      also = 0;
      in_also = false;
      FUZZ_CHECK(line.find_first_of("[]") == std::string::npos,
                 "prompt: bracket in the product line: " + Escape(line));
      continue;
    }
    FUZZ_CHECK(p != nullptr, "prompt: a line outside a block: " + Escape(line));
    if (StartsWith(line, "Reviews: ")) {
      FUZZ_CHECK(line.find_first_of("[]") == std::string::npos, "prompt: bracket in Reviews");
      continue;
    }
    if (IsSectionName(line, ":")) {
      FUZZ_CHECK(!in_also, "prompt: a section after also said");
      continue;
    }
    if (line == std::string(revsum::kAlsoSaidName) + ":") {
      in_also = true;
      continue;
    }
    if (IsNotShownLine(line)) {
      FUZZ_CHECK(point == p->points.size(), "prompt: a point after the not-shown line");
      continue;
    }
    FUZZ_CHECK(StartsWith(line, "- "), "prompt: a line the data started: " + Escape(line));
    if (in_also) {
      FUZZ_CHECK(also < p->also_said.size(), "prompt: more also-said lines");
      const std::string_view text =
          CheckAlsoLine(line, p->also_said[also++], run.citations, "prompt");
      FUZZ_CHECK(text.find_first_of("[]") == std::string_view::npos,
                 "prompt: the data wrote a bracket: " + Escape(line));
      continue;
    }
    FUZZ_CHECK(point < p->points.size(), "prompt: more point lines than points");
    const revsum::ExportedPoint& x = p->points[point++];
    const size_t lead = ShareLead(std::string_view(line).substr(2), x, p->reviews, true);
    FUZZ_CHECK(lead != std::string_view::npos, "prompt: point line " + Escape(line));
    std::string_view text = std::string_view(line).substr(2 + lead);
    if (run.citations != revsum::CitationStyle::kNone) {
      CheckCitation(line, x.review, run.citations, "prompt");
      text = text.substr(0, text.rfind(" ["));
    }
    FUZZ_CHECK(text.find_first_of("[]") == std::string_view::npos,
               "prompt: the data wrote a bracket: " + Escape(line));
  }
  end_block();
  FUZZ_CHECK(product == written.size(), "prompt: blocks != products");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Tokens();
  if (TempDir().empty()) {
    const std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                           ? std::filesystem::path("/dev/shm")
                                           : std::filesystem::temp_directory_path();
    std::string pattern = (base / "revsum-fuzz-export-structured-XXXXXX");
    FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr, "mkdtemp failed for " + pattern);
    TempDir() = pattern;
    std::atexit(RemoveTempDir);
  }
  const std::string path = (TempDir() / "export.db").string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);

  FuzzedDataProvider input(data, size);
  Run run;
  std::set<int64_t> flat_sentences;  // of the stored flat summaries
  switch (input.ConsumeIntegralInRange(0, 3)) {
    case 0:
      run.budget.unit = revsum::Budget::Unit::kWords;
      run.budget.amount = input.ConsumeIntegralInRange(1, 200);
      break;
    case 1:
      run.budget.unit = revsum::Budget::Unit::kSentences;
      run.budget.amount = input.ConsumeIntegralInRange(1, 8);
      break;
    case 2:
      run.budget.unit = revsum::Budget::Unit::kTokens;
      run.budget.amount = input.ConsumeIntegralInRange(1, 400);
      break;
    default:
      run.budget.unit = revsum::Budget::Unit::kRatio;
      run.budget.amount = input.ConsumeIntegralInRange(1, 100) / 100.0;
      break;
  }
  run.budget_from_run = input.ConsumeBool();
  run.citations = static_cast<revsum::CitationStyle>(input.ConsumeIntegralInRange(0, 2));
  if (input.ConsumeIntegralInRange(0, 3) == 0) run.min_rating = input.ConsumeIntegralInRange(1, 5);

  {
    auto store = revsum::ReviewStore::Open(path);
    const int64_t source = store->ingest().AddSource("fuzz.jsonl", "jsonl", size);
    const int product_count = input.ConsumeIntegralInRange(1, 3);
    std::set<std::string> keys;
    uint64_t line = 0;
    for (int p = 0; p < product_count; ++p) {
      std::string key = Hostile(input, 64);
      if (!keys.insert(key).second) continue;
      const int reviews = input.ConsumeIntegralInRange(1, 4);
      for (int r = 0; r < reviews; ++r) {
        revsum::Review review;
        review.source = "fuzz.jsonl";
        review.line = ++line;
        review.product = key;
        if (input.ConsumeBool()) review.external_id = Hostile(input, 32);
        if (input.ConsumeBool()) review.rating = input.ConsumeIntegralInRange(1, 5);
        std::vector<revsum::Sentence> sentences;
        const int count = input.ConsumeIntegralInRange(1, 3);
        int32_t at = 0;
        for (int s = 0; s < count; ++s) {
          std::string text = Hostile(input, 120);
          if (text.empty()) text = "x";
          if (!review.text.empty()) {
            review.text += ' ';
            ++at;
          }
          review.text += text;
          revsum::Sentence sentence;
          sentence.index = s;
          sentence.begin = at;
          at += static_cast<int32_t>(revsum::fuzz::DecodeUtf8(text).size());
          sentence.end = at;
          sentence.text = text;
          sentences.push_back(sentence);
        }
        store->ingest().AddReview(source, review,
                                  sentences);  // false: the same content, once stored
      }
    }
    store->Flush();

    revsum::RunInfo info;
    info.key = "fuzz";
    info.params_json = "{\"budget\":\"" + run.budget.ToString() + "\"}";
    info.embedder = "none";
    const int64_t run_id = store->runs().BeginRun(info, {});
    static const char* const kPolarities[] = {"praise", "complaint", "neutral", "unknown"};
    for (const std::string& key : keys) {
      std::vector<std::pair<int64_t, int64_t>> sentences;  // (sentence id, review id)
      std::vector<std::string> texts;
      for (const revsum::StoredReview& r : store->reviews().GetProductReviews(key)) {
        for (const revsum::StoredSentence& s : r.sentences) {
          sentences.emplace_back(s.id, r.id);
          texts.push_back(s.text);
        }
      }
      if (sentences.empty()) continue;
      std::vector<revsum::StoredPoint> points;
      const int count = input.ConsumeIntegralInRange(0, 6);
      for (int i = 0; i < count; ++i) {
        revsum::StoredPoint point;
        point.idx = i;
        const size_t rep = input.ConsumeIntegralInRange<size_t>(0, sentences.size() - 1);
        point.sentence_id = sentences[rep].first;
        point.review_id = sentences[rep].second;
        point.text = input.ConsumeBool() ? texts[rep] : Hostile(input, 200);
        point.polarity = kPolarities[input.ConsumeIntegralInRange(0, 3)];
        point.aspect = input.ConsumeBool() ? Hostile(input, 24) : "";
        point.weight = input.ConsumeFloatingPointInRange(0.0, 1.0);
        point.members.push_back({point.sentence_id, point.review_id, 1.0});
        std::set<int64_t> supporters = {point.review_id};
        for (size_t m = 0; m < sentences.size(); ++m) {
          if (m == rep || !input.ConsumeBool()) continue;
          point.members.push_back({sentences[m].first, sentences[m].second, 0.5});
          supporters.insert(sentences[m].second);
        }
        point.support = static_cast<int64_t>(supporters.size());
        point.share = input.ConsumeFloatingPointInRange(0.0, 1.0);
        points.push_back(std::move(point));
      }
      store->points().AddPoints(run_id, key, points);
      revsum::StoredSummary flat;
      flat.run_id = run_id;
      flat.scope = "product";
      flat.subject = key;
      for (size_t m = 0; m < sentences.size(); ++m) {
        if (!input.ConsumeBool()) continue;
        flat.sentence_ids.push_back(sentences[m].first);
        flat.text += (flat.text.empty() ? "" : " ") + texts[m];
      }
      if (input.ConsumeBool()) std::reverse(flat.sentence_ids.begin(), flat.sentence_ids.end());
      flat_sentences.insert(flat.sentence_ids.begin(), flat.sentence_ids.end());
      store->runs().AddSummary(flat);
    }
    store->runs().FinishRun(run_id);
  }

  revsum::StoreOptions read_only;
  read_only.read_only = true;
  auto store = revsum::ReviewStore::Open(path, read_only);
  std::string out;
  std::vector<revsum::ProductExport> exported;
  try {
    exported = Export(*store, run, revsum::ExportFormat::kText, out, flat_sentences);
  } catch (const std::runtime_error& e) {
    // No product has points: the documented refusal, the same in every format.
    FUZZ_CHECK(store->points().LatestPoints().empty(), std::string("export refused: ") + e.what());
    return 0;
  }
  CheckTextOrMarkdown(out, exported, run, false);
  exported = Export(*store, run, revsum::ExportFormat::kMarkdown, out, flat_sentences);
  CheckTextOrMarkdown(out, exported, run, true);
  exported = Export(*store, run, revsum::ExportFormat::kPrompt, out, flat_sentences);
  CheckPrompt(out, exported, run);

  simdjson::dom::parser parser;
  exported = Export(*store, run, revsum::ExportFormat::kJson, out, flat_sentences);
  simdjson::dom::array array;
  FUZZ_CHECK(parser.parse(out).get(array) == simdjson::SUCCESS, "json: " + Escape(out));
  const std::vector<const revsum::ProductExport*> written = Written(exported);
  FUZZ_CHECK(array.size() == written.size(), "json: product count");
  size_t i = 0;
  for (simdjson::dom::element e : array) CheckJsonProduct(e, *written[i++], "json");

  exported = Export(*store, run, revsum::ExportFormat::kJsonl, out, flat_sentences);
  const std::vector<std::string> lines = Lines(out, "jsonl");
  const std::vector<const revsum::ProductExport*> written_l = Written(exported);
  FUZZ_CHECK(lines.size() == written_l.size(), "jsonl: one line per product");
  for (size_t k = 0; k < lines.size(); ++k) {
    simdjson::dom::element e;
    FUZZ_CHECK(parser.parse(lines[k]).get(e) == simdjson::SUCCESS, "jsonl: " + Escape(lines[k]));
    CheckJsonProduct(e, *written_l[k], "jsonl");
  }
  return 0;
}
