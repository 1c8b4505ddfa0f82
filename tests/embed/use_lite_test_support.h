// Shared by the USE-lite tests: loading the model once per test binary, and reading the JSONL
// fixtures ({"text", "token_ids", "embedding"?} per line).
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "revsum/use_lite.h"

namespace revsum::testing {

// The largest absolute difference between row `row` of `got` and `want`.
inline double MaxAbsError(const Matrix& got, int64_t row, const std::vector<double>& want) {
  double err = 0;
  for (size_t j = 0; j < want.size(); ++j) {
    err = std::max(err,
                   std::abs(static_cast<double>(got(row, static_cast<Eigen::Index>(j))) - want[j]));
  }
  return err;
}

struct UseLiteRecord {
  std::string kind;  // "embedding" or "tokenizer" (our fixtures); "" in the shared reference
  std::string text;
  std::vector<int> token_ids;
  std::vector<double> embedding;  // empty when the record has none
};

inline std::vector<UseLiteRecord> ReadUseLiteRecords(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::vector<UseLiteRecord> out;
  simdjson::dom::parser parser;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty()) continue;
    simdjson::dom::element doc;
    if (parser.parse(line).get(doc)) {
      ADD_FAILURE() << path << ":" << line_no << ": invalid JSON";
      continue;
    }
    UseLiteRecord r;
    std::string_view sv;
    if (!doc["kind"].get(sv)) r.kind = sv;
    if (doc["text"].get(sv)) ADD_FAILURE() << path << ":" << line_no << ": no text";
    r.text = sv;
    for (simdjson::dom::element id : doc["token_ids"].get_array()) {
      r.token_ids.push_back(static_cast<int>(int64_t(id)));
    }
    simdjson::dom::array emb;
    if (!doc["embedding"].get(emb)) {
      for (simdjson::dom::element v : emb) r.embedding.push_back(double(v));
    }
    out.push_back(std::move(r));
  }
  return out;
}

// The model from models/use-lite (or $REVSUM_MODELS_DIR), loaded once. When the files are missing
// the test FAILS with the loader's message, which says how to fetch them.
inline UseLiteEmbedder* SharedUseLite() {
  static std::unique_ptr<UseLiteEmbedder> model;
  static std::string error;
  if (!model && error.empty()) {
    try {
      UseLiteOptions options;
      options.cache_entries = 0;  // tests that exercise the cache build their own embedder
      model = UseLiteEmbedder::Load(options);
    } catch (const UseLiteError& e) {
      error = e.what();
    }
  }
  if (!model) ADD_FAILURE() << error;
  return model.get();
}

#define REVSUM_REQUIRE_USE_LITE(var)                         \
  UseLiteEmbedder* var = ::revsum::testing::SharedUseLite(); \
  if (var == nullptr) return

}  // namespace revsum::testing
