// The demo dumps under samples/: the clean ones read without a single reject, and each file under
// samples/messy/ yields exactly the rejects it was written to contain.
#include <map>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"
#include "support/paths.h"

namespace revsum {
namespace {

using testing::ReadAll;
using ::testing::StartsWith;

std::string Sample(const std::string& name) { return testing::kSamples + "/" + name; }

TEST(Samples, EnglishAmazon2023DumpReadsCleanly) {
  auto result = ReadAll(Sample("en_reviews.jsonl"));
  EXPECT_TRUE(result.rejects.empty());
  ASSERT_EQ(result.reviews.size(), 40u);
  std::map<std::string, int> per_product;
  for (const Review& r : result.reviews) {
    ++per_product[r.product];
    ASSERT_TRUE(r.rating.has_value());
    EXPECT_GE(*r.rating, 1.0);
    EXPECT_LE(*r.rating, 5.0);
    EXPECT_FALSE(r.external_id.empty());
    EXPECT_GT(r.time.value_or(0), 1600000000);
  }
  EXPECT_EQ(per_product.size(), 4u);
}

TEST(Samples, ChineseCsvReadsCleanlyWithCategoriesAsProducts) {
  ReadOptions options;
  options.fields.product = "cat";
  auto result = ReadAll(Sample("zh_reviews.csv"), options);
  EXPECT_TRUE(result.rejects.empty());
  ASSERT_EQ(result.reviews.size(), 30u);
  std::set<std::string> products;
  for (const Review& r : result.reviews) products.insert(r.product);
  EXPECT_EQ(products, (std::set<std::string>{"水果", "衣服", "酒店"}));
  EXPECT_EQ(result.reviews[4].text, "橙子太酸了，和描述的\"超甜\"完全不一样，而且个头很小。");
}

TEST(Samples, MixedLanguageDumpReadsCleanly) {
  auto result = ReadAll(Sample("mixed_reviews.jsonl"));
  EXPECT_TRUE(result.rejects.empty());
  EXPECT_EQ(result.reviews.size(), 15u);
}

struct MessyCase {
  const char* file;
  size_t reviews;
  std::vector<std::pair<uint64_t, std::string>> rejects;  // line, start of the reason
};

TEST(Samples, EachMessyFileYieldsTheRejectsItWasWrittenFor) {
  const std::vector<MessyCase> cases = {
      {"messy/malformed_json.jsonl", 3, {{2, "malformed JSON: "}, {4, "malformed JSON: "}}},
      {"messy/invalid_utf8.jsonl", 2, {{2, "invalid UTF-8 at byte 33"}}},
      {"messy/missing_text.jsonl", 2, {{2, "missing text field"}}},
      {"messy/empty_text.jsonl",
       2,
       {{2, "empty text field \"text\""}, {3, "empty text field \"text\""}}},
      {"messy/binary_garbage.jsonl", 2, {{2, "invalid UTF-8 at byte 1"}}},
      {"messy/bad_quoting.csv",
       2,
       {{3, "row has 4 fields, header has 3"}, {5, "unterminated quoted field at end of file"}}},
  };
  for (const MessyCase& c : cases) {
    SCOPED_TRACE(c.file);
    auto result = ReadAll(Sample(c.file));
    EXPECT_EQ(result.reviews.size(), c.reviews);
    ASSERT_EQ(result.rejects.size(), c.rejects.size());
    for (size_t i = 0; i < c.rejects.size(); ++i) {
      EXPECT_EQ(result.rejects[i].line, c.rejects[i].first);
      EXPECT_THAT(result.rejects[i].reason, StartsWith(c.rejects[i].second));
      EXPECT_FALSE(result.rejects[i].raw.empty());
    }
  }
}

TEST(Samples, MacLineEndsCsvReadsCleanlyKeepingTheQuotedLineBreak) {
  auto result = ReadAll(Sample("messy/mac_line_ends.csv"));
  EXPECT_TRUE(result.rejects.empty());
  ASSERT_EQ(result.reviews.size(), 3u);
  EXPECT_EQ(result.reviews[0].text, "Boils fast.\rQuiet too.");
  EXPECT_EQ(result.reviews[1].line, 4u);
  EXPECT_EQ(result.reviews[2].text, "Good value, \"solid\" handle.");
}

TEST(Samples, PrettyPrintedJsonArrayReadsCleanly) {
  auto result = ReadAll(Sample("messy/records_array.json"));
  EXPECT_TRUE(result.rejects.empty());
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].line, 2u);
  EXPECT_EQ(result.reviews[0].product, "cafe-9");
  EXPECT_EQ(result.reviews[0].time, 1531001351);
  EXPECT_EQ(result.reviews[1].line, 9u);
  EXPECT_EQ(result.reviews[1].time, 1546389000);  // 2019-01-02T00:30:00Z
  EXPECT_EQ(result.reviews[1].external_id, "y-2");
}

TEST(Samples, TruncatedGzipDumpEndsWithOneReject) {
  auto result = ReadAll(Sample("messy/truncated.jsonl.gz"));
  EXPECT_TRUE(result.gzip);
  EXPECT_GT(result.reviews.size(), 0u);
  EXPECT_LT(result.reviews.size(), 60u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("truncated gzip stream"));
  EXPECT_EQ(result.rejects[0].line, result.reviews.size() + 1);
}

}  // namespace
}  // namespace revsum
