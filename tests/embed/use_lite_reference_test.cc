// UseLiteEmbedder against the shared reference (../shared/reference/use-lite/): golden.jsonl (42
// sentences embedded by the official TF.js pipeline) and tokenizer_cases.jsonl (600 strings).
// Runs in CI (REVSUM_REQUIRE_SHARED); needs the model files (scripts/fetch-use-lite).

#include <cstdio>

#include <gtest/gtest.h>

#include "revsum/use_lite.h"
#include "support/shared_data.h"
#include "use_lite_test_support.h"

namespace revsum {
namespace {

using testing::MaxAbsError;
using testing::ReadUseLiteRecords;

TEST(UseLiteReference, GoldenTokenIds) {
  REVSUM_REQUIRE_SHARED(golden, "reference/use-lite/golden.jsonl");
  REVSUM_REQUIRE_USE_LITE(model);
  const auto records = ReadUseLiteRecords(golden.string());
  ASSERT_EQ(records.size(), 42u);
  for (const auto& r : records) EXPECT_EQ(model->TokenizeOne(r.text), r.token_ids) << r.text;
}

TEST(UseLiteReference, TokenizerCases) {
  REVSUM_REQUIRE_SHARED(cases, "reference/use-lite/tokenizer_cases.jsonl");
  REVSUM_REQUIRE_USE_LITE(model);
  const auto records = ReadUseLiteRecords(cases.string());
  ASSERT_EQ(records.size(), 600u);
  std::vector<std::string> texts;
  for (const auto& r : records) texts.push_back(r.text);
  const auto ids = model->Tokenize(texts);  // the batch (multi-threaded) entry point
  for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(ids[i], records[i].token_ids) << texts[i];
}

TEST(UseLiteReference, GoldenEmbeddingsOneSentenceAtATime) {
  REVSUM_REQUIRE_SHARED(golden, "reference/use-lite/golden.jsonl");
  REVSUM_REQUIRE_USE_LITE(model);
  double worst = 0;
  for (const auto& r : ReadUseLiteRecords(golden.string())) {
    const Matrix e = model->Embed({r.text});
    const double err = MaxAbsError(e, 0, r.embedding);
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-5) << r.text;
  }
  RecordProperty("max_abs_error", std::to_string(worst));
  std::printf("golden batch-of-1 max abs error: %.3e\n", worst);
}

TEST(UseLiteReference, GoldenEmbeddingsInOneMixedLengthBatch) {
  REVSUM_REQUIRE_SHARED(golden, "reference/use-lite/golden.jsonl");
  REVSUM_REQUIRE_USE_LITE(model);
  const auto records = ReadUseLiteRecords(golden.string());
  std::vector<std::string> texts;
  for (const auto& r : records) texts.push_back(r.text);
  const Matrix e = model->Embed(texts);
  ASSERT_EQ(e.rows(), 42);
  double worst = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const double err = MaxAbsError(e, i, records[i].embedding);
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-5) << records[i].text;
  }
  std::printf("golden mixed batch of 42 max abs error: %.3e\n", worst);
}

}  // namespace
}  // namespace revsum
