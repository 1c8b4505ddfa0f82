// Fuzzes full-text search (revsum/store.h): FtsQuery, FtsIndexText and ReviewStore::Search with
// a query made of arbitrary bytes, against a small store of English and Chinese sentences built
// once in a temporary folder (removed at exit).
//
// Checked:
//   - Search either returns at most `limit` hits, each one of the stored sentences, or throws
//     StoreError; any other exception or a crash is a failure;
//   - FtsQuery either throws StoreError naming the search, or keeps every letter, digit and
//     non-ASCII byte outside CJK runs of the query (possibly reordered: -words move to the end),
//     adding only ASCII punctuation, spaces and NOT/AND operators, and writes exactly the CJK
//     characters of the query (as pairs: each may appear twice); FtsIndexText only adds spaces
//     (so removing them gives back the input); FtsCjkGrams holds exactly the query's CJK
//     characters and spaces; all keep valid UTF-8 valid.
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_support.h"
#include "revsum/store.h"
#include "revsum/utf8.h"

namespace {

using revsum::fuzz::Escape;
using revsum::fuzz::IsValidUtf8;
using revsum::fuzz::RemoveTempDir;
using revsum::fuzz::TempDir;

const char* const kSentences[][3] = {
    // product, review id, sentence
    {"B00X", "r1", "The battery died after a week."},
    {"B00X", "r2", "Lovely colour, and the battery lasts two days!"},
    {"B00X", "r3", "Price is OK; shipping was slow (10 days)."},
    {"B00Y", "r4", "电池续航很好，物流很快。"},
    {"B00Y", "r5", "东西不错,性价比高 👍"},
    {"B00Y", "r6", "Great value — 质量很好 and fast delivery."},
};

std::unique_ptr<revsum::ReviewStore> MakeStore() {
  std::string pattern = (std::filesystem::temp_directory_path() / "revsum-fuzz-store-XXXXXX");
  FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr, "mkdtemp failed for " + pattern);
  TempDir() = pattern;
  std::atexit(RemoveTempDir);
  auto store = revsum::ReviewStore::Open((TempDir() / "fuzz.db").string());
  const int64_t source = store->ingest().AddSource("fuzz.jsonl", "jsonl", 100);
  uint64_t line = 0;
  for (const auto& row : kSentences) {
    revsum::Review review;
    review.source = "fuzz.jsonl";
    review.line = ++line;
    review.product = row[0];
    review.external_id = row[1];
    review.text = row[2];
    revsum::Sentence sentence;
    sentence.index = 0;
    sentence.begin = 0;
    sentence.end = static_cast<int32_t>(revsum::fuzz::DecodeUtf8(review.text).size());
    sentence.text = review.text;
    FUZZ_CHECK(store->ingest().AddReview(source, review, {sentence}), "fixture review not added");
  }
  store->Flush();
  return store;
}

// Scripts written without spaces, as revsum's index cuts them (fts.cc IsSpacelessScript).
bool IsCjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x2FA1F);
}

// Length of a well-formed UTF-8 sequence at s[i] and its code point (NextCodePoint, as the index
// reads it); 0 when it is not one.
size_t DecodeAt(std::string_view s, size_t i, char32_t* cp) {
  size_t next = i;
  const int32_t c = revsum::NextCodePoint(s, &next);
  if (c < 0) return 0;
  *cp = static_cast<char32_t>(c);
  return next - i;
}

// `s` as (piece, is one CJK character) pieces: each CJK character alone, every other byte alone.
std::vector<std::pair<std::string_view, bool>> CjkSplit(std::string_view s) {
  std::vector<std::pair<std::string_view, bool>> out;
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const size_t n = DecodeAt(s, i, &cp);
    if (n > 1 && IsCjk(cp)) {
      out.emplace_back(s.substr(i, n), true);
      i += n;
    } else {
      out.emplace_back(s.substr(i, 1), false);
      ++i;
    }
  }
  return out;
}

std::set<std::string> CjkCharacters(std::string_view s) {
  std::set<std::string> chars;
  for (const auto& [piece, cjk] : CjkSplit(s)) {
    if (cjk) chars.emplace(piece);
  }
  return chars;
}

// `s` with only its CJK characters and spaces.
std::string CjkOnly(std::string_view s) {
  std::string out;
  for (const auto& [piece, cjk] : CjkSplit(s)) {
    if (cjk || piece == " ") out.append(piece);
  }
  return out;
}

std::string Without(std::string_view s, std::string_view chars) {
  std::string out;
  for (char c : s) {
    if (chars.find(c) == std::string_view::npos) out += c;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto store = MakeStore();
  static const std::set<std::string> stored = [] {
    std::set<std::string> texts;
    for (const auto& row : kSentences) texts.insert(row[2]);
    return texts;
  }();
  const std::string query(reinterpret_cast<const char*>(data), size);
  const std::string shown = "query '" + Escape(query) + "'";

  // FtsQuery rewrites operators and punctuation (-word -> NOT word, moved after the positive
  // terms; "a-b" -> "\"a-b\""; an AND beside a group) but never the words: counting letters,
  // digits, '_' and non-ASCII bytes, the rewrite has exactly those of the query plus some NOT and
  // AND operators.
  const auto counts = [](std::string_view s) {
    std::array<int64_t, 256> n{};
    for (const auto& [piece, cjk] : CjkSplit(s)) {
      if (cjk) continue;
      for (char c : piece) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x80 || std::isalnum(b) || c == '_') ++n[b];
      }
    }
    return n;
  };
  std::string fts;
  bool rewritten = true;
  try {
    fts = revsum::FtsQuery(query);
  } catch (const revsum::StoreError& e) {
    rewritten = false;
    FUZZ_CHECK(std::string_view(e.what()).find("search") != std::string_view::npos,
               "FtsQuery's StoreError without the search context: " + std::string(e.what()));
  }
  if (rewritten) {
    const std::array<int64_t, 256> before = counts(query), after = counts(fts);
    // k NOTs and m ANDs added: T and O grow by k, A and D by m, N by k + m.
    const auto grew = [&](char c) {
      return after[static_cast<unsigned char>(c)] - before[static_cast<unsigned char>(c)];
    };
    const int64_t nots = grew('T'), ands = grew('A');
    bool same_words = nots >= 0 && ands >= 0 && grew('O') == nots && grew('D') == ands &&
                      grew('N') == nots + ands;
    for (int b = 0; b < 256; ++b) {
      if (std::string_view("NOTAD").find(static_cast<char>(b)) == std::string_view::npos) {
        same_words = same_words && after[b] == before[b];
      }
    }
    FUZZ_CHECK(same_words, "FtsQuery changed more than operators and punctuation: '" + Escape(fts) +
                               "' for " + shown);
    FUZZ_CHECK(CjkCharacters(fts) == CjkCharacters(query),
               "FtsQuery changed the CJK characters: '" + Escape(fts) + "' for " + shown);
  }
  const std::string grams = revsum::FtsCjkGrams(query);
  FUZZ_CHECK(
      CjkCharacters(grams) == CjkCharacters(query) &&
          Without(CjkOnly(grams), " ") == Without(grams, " "),
      "FtsCjkGrams holds more than the CJK characters: '" + Escape(grams) + "' for " + shown);
  const std::string indexed = revsum::FtsIndexText(query);
  FUZZ_CHECK(Without(indexed, " ") == Without(query, " "),
             "FtsIndexText changed more than spaces: " + shown);
  if (IsValidUtf8(query)) {
    FUZZ_CHECK(!rewritten || IsValidUtf8(fts), "FtsQuery broke UTF-8: " + shown);
    FUZZ_CHECK(IsValidUtf8(indexed), "FtsIndexText broke UTF-8: " + shown);
  }

  constexpr size_t kLimit = 4;
  try {
    const std::vector<revsum::SearchHit> hits = store->search().Find(query, kLimit);
    FUZZ_CHECK(hits.size() <= kLimit, "more hits than the limit: " + shown);
    for (const revsum::SearchHit& hit : hits) {
      FUZZ_CHECK(stored.count(hit.text) == 1,
                 "hit '" + Escape(hit.text) + "' was never stored: " + shown);
      FUZZ_CHECK(hit.sentence_id > 0 && hit.review_id > 0, "hit without ids: " + shown);
    }
  } catch (const revsum::StoreError& e) {
    FUZZ_CHECK(std::string_view(e.what()).find("search") != std::string_view::npos,
               "StoreError without the search context: " + std::string(e.what()));
  }
  return 0;
}
