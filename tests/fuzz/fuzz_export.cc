// Fuzzes the flat exporters (revsum/export.h, --flat) with hostile product keys and sentences: a
// small store is built from the input (1-3 products with keys from the input, 1-3 reviews each, 1-3
// sentences per review with texts from the input, any valid UTF-8 without NUL, as the readers
// allow), a finished run keeps a subset of the sentences chosen by the input, and every format is
// exported.
//
// Checked, as a consumer would read the output (not by calling the escapes again):
//   - text: exactly one "== ... ==" header, one "- ... [r<id>]" line per kept sentence with its
//     review's dump id (the fuzzer gives review <id> the dump id "r<id>"), one "(sizes)" line and
//     one blank line per product, in that order;
//   - markdown: the same blocks, with "## " headings; the only lines that start with '#' are the
//     headings and the only lines that start with "- " are the kept sentences; inside a heading or
//     sentence every markdown metacharacter is backslash-escaped, '<' '>' never appear raw, no
//     character reference other than &lt; &gt; &amp; starts there, and nothing opens a list item;
//   - text and markdown: valid UTF-8, no control character except the line feeds, no DEL, no C1
//     control, no bidi control, no U+2028/U+2029;
//   - json and jsonl: simdjson parses them, and they hold each product key exactly, the kept
//     sentences joined by one space, and the citations in order.
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <simdjson.h>

#include "export_checks.h"
#include "fuzz_support.h"
#include "revsum/export.h"
#include "revsum/store.h"

namespace {

using revsum::fuzz::CheckMarkdownInline;
using revsum::fuzz::CheckNoControls;
using revsum::fuzz::EndsWith;
using revsum::fuzz::Escape;
using revsum::fuzz::Lines;
using revsum::fuzz::RemoveTempDir;
using revsum::fuzz::StartsWith;
using revsum::fuzz::TempDir;

// Valid UTF-8 without NUL: what a reader lets through as a product key or review text.
std::string ReaderSafe(std::string_view bytes) {
  std::u32string cps = revsum::fuzz::DecodeUtf8(bytes);
  for (char32_t& c : cps) {
    if (c == 0) c = 0xFFFD;
  }
  return revsum::fuzz::EncodeUtf8(cps);
}

struct Product {
  std::string key;
  std::vector<int64_t> kept_ids;        // sentence ids in the summary, in order
  std::vector<int64_t> kept_reviews;    // their review ids
  std::vector<std::string> kept_texts;  // their texts
};

std::string Export(revsum::ReviewStore& store, revsum::ExportFormat format) {
  revsum::ExportOptions options;
  options.format = format;
  options.flat = true;
  std::ostringstream out;
  revsum::ExportSummaries(store, options, out);
  return out.str();
}

// Checks the block structure of text or markdown output.
void CheckBlocks(const std::string& out, const std::vector<Product>& products, bool markdown) {
  const char* format = markdown ? "markdown" : "text";
  CheckNoControls(out, format);
  const std::vector<std::string> lines = Lines(out);
  size_t k = 0;
  auto next = [&]() -> const std::string& {
    FUZZ_CHECK(k < lines.size(), std::string(format) + ": output ends early: " + Escape(out));
    return lines[k++];
  };
  size_t headings = 0, bullets = 0;
  for (const Product& p : products) {
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
    }
    ++headings;
    for (size_t s = 0; s < p.kept_ids.size(); ++s) {
      const std::string& line = next();
      const std::string cite = " [r" + std::to_string(p.kept_reviews[s]) + "]";
      FUZZ_CHECK(StartsWith(line, "- ") && EndsWith(line, cite),
                 std::string(format) + ": sentence line " + Escape(line) + " for " + cite);
      const std::string_view body = std::string_view(line).substr(2, line.size() - 2 - cite.size());
      if (markdown) {
        CheckMarkdownInline(body, "markdown sentence");
      } else {
        FUZZ_CHECK(body.find_first_of("[]") == std::string_view::npos,
                   "text: a bracket from the data could forge a citation: " + Escape(line));
      }
      ++bullets;
    }
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
    FUZZ_CHECK(dash_lines == bullets, "markdown: list items != kept sentences");
  }
}

void CheckJsonProduct(simdjson::dom::element element, const Product& p, const char* format) {
  std::string_view key, summary;
  FUZZ_CHECK(element["product"].get(key) == simdjson::SUCCESS, std::string(format) + ": product");
  FUZZ_CHECK(key == p.key,
             std::string(format) + ": product key " + Escape(key) + " != " + Escape(p.key));
  FUZZ_CHECK(element["summary"].get(summary) == simdjson::SUCCESS, "json summary");
  std::string expected;
  for (const std::string& t : p.kept_texts) expected += (expected.empty() ? "" : " ") + t;
  FUZZ_CHECK(summary == expected, std::string(format) + ": summary " + Escape(summary));
  simdjson::dom::array citations;
  FUZZ_CHECK(element["citations"].get(citations) == simdjson::SUCCESS, "json citations");
  size_t i = 0;
  for (simdjson::dom::element c : citations) {
    std::string_view id;
    FUZZ_CHECK(c.get(id) == simdjson::SUCCESS && i < p.kept_reviews.size() &&
                   id == "r" + std::to_string(p.kept_reviews[i]),
               std::string(format) + ": citation " + std::to_string(i));
    ++i;
  }
  FUZZ_CHECK(i == p.kept_reviews.size(), std::string(format) + ": citation count");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (TempDir().empty()) {
    // A store per input: in memory-backed /dev/shm when there is one (4x faster than a disk).
    const std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                           ? std::filesystem::path("/dev/shm")
                                           : std::filesystem::temp_directory_path();
    std::string pattern = (base / "revsum-fuzz-export-XXXXXX");
    FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr, "mkdtemp failed for " + pattern);
    TempDir() = pattern;
    std::atexit(RemoveTempDir);
  }
  const std::string path = (TempDir() / "export.db").string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);

  FuzzedDataProvider input(data, size);
  std::vector<Product> products;
  {
    auto store = revsum::ReviewStore::Open(path);
    const int64_t source = store->ingest().AddSource("fuzz.jsonl", "jsonl", size);
    const int product_count = input.ConsumeIntegralInRange(1, 3);
    std::set<std::string> keys;
    uint64_t line = 0;
    for (int p = 0; p < product_count; ++p) {
      std::string key = ReaderSafe(input.ConsumeRandomLengthString(64));
      if (!keys.insert(key).second) continue;
      const int reviews = input.ConsumeIntegralInRange(1, 3);
      for (int r = 0; r < reviews; ++r) {
        revsum::Review review;
        review.source = "fuzz.jsonl";
        review.line = ++line;
        review.product = key;
        review.external_id = "r" + std::to_string(line);
        std::vector<revsum::Sentence> sentences;
        const int count = input.ConsumeIntegralInRange(1, 3);
        int32_t at = 0;
        for (int s = 0; s < count; ++s) {
          std::string text = ReaderSafe(input.ConsumeRandomLengthString(200));
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
        FUZZ_CHECK(store->ingest().AddReview(source, review, sentences), "review not added");
      }
    }
    store->Flush();

    revsum::RunInfo run;
    run.key = "fuzz";
    run.params_json = "{}";
    run.embedder = "none";
    const int64_t run_id = store->runs().BeginRun(run, {});
    // Products in the exporter's order (by key); a subset of each product's sentences is kept.
    for (const std::string& key : keys) {
      Product p;
      p.key = key;
      revsum::StoredSummary summary;
      summary.run_id = run_id;
      summary.scope = "product";
      summary.subject = key;
      summary.unit = "words";
      summary.embedder = "none";
      for (const revsum::StoredReview& r : store->reviews().GetProductReviews(key)) {
        for (const revsum::StoredSentence& s : r.sentences) {
          if (!input.ConsumeBool() && !(p.kept_ids.empty() && input.remaining_bytes() == 0)) {
            continue;
          }
          p.kept_ids.push_back(s.id);
          p.kept_reviews.push_back(r.id);
          p.kept_texts.push_back(s.text);
        }
      }
      summary.sentence_ids = p.kept_ids;
      store->runs().AddSummary(summary);
      products.push_back(std::move(p));
    }
    store->runs().FinishRun(run_id);
  }

  revsum::StoreOptions read_only;
  read_only.read_only = true;
  auto store = revsum::ReviewStore::Open(path, read_only);
  CheckBlocks(Export(*store, revsum::ExportFormat::kText), products, false);
  CheckBlocks(Export(*store, revsum::ExportFormat::kMarkdown), products, true);

  simdjson::dom::parser parser;
  const std::string json = Export(*store, revsum::ExportFormat::kJson);
  simdjson::dom::array array;
  FUZZ_CHECK(parser.parse(json).get(array) == simdjson::SUCCESS, "json: " + Escape(json));
  FUZZ_CHECK(array.size() == products.size(), "json: product count");
  size_t i = 0;
  for (simdjson::dom::element e : array) CheckJsonProduct(e, products[i++], "json");

  const std::string jsonl = Export(*store, revsum::ExportFormat::kJsonl);
  const std::vector<std::string> lines = Lines(jsonl);
  FUZZ_CHECK(lines.size() == products.size(), "jsonl: one line per product");
  for (size_t k = 0; k < lines.size(); ++k) {
    simdjson::dom::element e;
    FUZZ_CHECK(parser.parse(lines[k]).get(e) == simdjson::SUCCESS, "jsonl: " + Escape(lines[k]));
    CheckJsonProduct(e, products[k], "jsonl");
  }
  return 0;
}
