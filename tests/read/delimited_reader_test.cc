// CSV and TSV (RFC 4180): header mapping, quoting, line breaks in fields, BOM, CRLF, bad rows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"
#include "support/shared_data.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;
using testing::ReadAll;
using ::testing::StartsWith;
using testing::TempDir;

TEST(DelimitedReader, MapsColumnsByHeaderName) {
  TempDir dir;
  auto result =
      ReadAll(dir.Write("r.csv",
                        "id,stars,product,title,review,timestamp\n"
                        "r1,4,lamp-01,Bright enough,Lights the whole desk.,1700000000\n"));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 1u);
  const Review& r = result.reviews[0];
  EXPECT_EQ(r.external_id, "r1");
  EXPECT_EQ(r.rating, 4.0);
  EXPECT_EQ(r.product, "lamp-01");
  EXPECT_EQ(r.title, "Bright enough");
  EXPECT_EQ(r.text, "Lights the whole desk.");
  EXPECT_EQ(r.time, 1700000000);
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(result.format, Format::kCsv);
}

TEST(DelimitedReader, ChineseShoppingHeaderMapsLabelToRatingAndCatToProduct) {
  TempDir dir;
  auto result = ReadAll(dir.Write("zh.csv", "cat,label,review\n水果,1,很新鲜，甜度刚好。\n"));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].product, "水果");
  EXPECT_EQ(result.reviews[0].rating, 1.0);
  EXPECT_EQ(result.reviews[0].text, "很新鲜，甜度刚好。");
}

TEST(DelimitedReader, HeaderNamesMatchIgnoringCase) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "Rating,Review Title,REVIEW\n3,x,Decent value.\n"));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "Decent value.");
  EXPECT_EQ(result.reviews[0].rating, 3.0);
}

TEST(DelimitedReader, QuotedFieldsHoldSeparatorsDoubledQuotesAndLineBreaks) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv",
                                  "cat,label,review\n"
                                  "书籍,1,\"总有一天,我们会\"\"习以为常\"\".\n第二行\"\n"
                                  "书籍,0,\"\"\n"
                                  "书籍,0,plain\n"));
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].text, "总有一天,我们会\"习以为常\".\n第二行");
  EXPECT_EQ(result.reviews[0].line, 2u);
  EXPECT_EQ(result.reviews[1].line, 5u);  // the multi-line record above spans lines 2-3
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].line, 4u);
  EXPECT_EQ(result.rejects[0].reason, "empty text field \"review\"");
}

TEST(DelimitedReader, BomAndCrlfAreHandled) {
  TempDir dir;
  auto result = ReadAll(
      dir.Write("r.csv", "\xEF\xBB\xBFreview,rating\r\n\"Two\r\nlines\",5\r\nSecond one,4\r\n"));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].text, "Two\r\nlines");  // a quoted line break is kept as written
  EXPECT_EQ(result.reviews[1].text, "Second one");
  EXPECT_EQ(result.reviews[1].rating, 4.0);
  EXPECT_EQ(result.reviews[1].line, 4u);
}

TEST(DelimitedReader, TextAfterAClosingQuoteIsKeptLeniently) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "review\n\"Works\" great, 5\"\n"));
  ASSERT_EQ(result.rejects.size(), 1u);  // the comma makes two fields
  auto lenient = ReadAll(dir.Write("s.csv", "review\n\"Works\" great\nsays \"5 stars\"\n"));
  ASSERT_EQ(lenient.reviews.size(), 2u);
  EXPECT_EQ(lenient.reviews[0].text, "Works great");
  EXPECT_EQ(lenient.reviews[1].text, "says \"5 stars\"");
}

TEST(DelimitedReader, RowWithTheWrongNumberOfFieldsIsRejected) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "cat,label,review\n衣服,1,好看,合身\n衣服,0,褪色\n"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "row has 4 fields, header has 3");
  EXPECT_EQ(result.rejects[0].line, 2u);
  EXPECT_EQ(result.rejects[0].raw, "衣服,1,好看,合身");
  ASSERT_EQ(result.reviews.size(), 1u);
}

TEST(DelimitedReader, UnterminatedQuoteAtEndOfFileIsRejectedAtTheRecordStart) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "review,rating\nfine,5\n\"never closed,4\nmore text\n"));
  ASSERT_EQ(result.reviews.size(), 1u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "unterminated quoted field at end of file");
  EXPECT_EQ(result.rejects[0].line, 3u);
  EXPECT_EQ(result.rejects[0].raw, "\"never closed,4\nmore text\n");
}

TEST(DelimitedReader, InvalidUtf8IsRejectedWithItsOffsetInTheRecord) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "review,rating\n\"ok\nba\xFF\",2\nnext,3\n"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "invalid UTF-8 at byte 6");
  EXPECT_EQ(result.rejects[0].line, 2u);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "next");
}

TEST(DelimitedReader, RatingThatIsNotANumberRejectsTheRow) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "review,rating\nGood,five\nGood,\n"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "rating is not a number: \"rating\" is \"five\"");
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_FALSE(result.reviews[0].rating.has_value());  // an empty rating is no rating
}

TEST(DelimitedReader, FieldMapOverridesColumns) {
  TempDir dir;
  ReadOptions options;
  options.fields.text = "comment";
  options.fields.product = "cat";
  options.fields.rating = "label";
  auto result = ReadAll(
      dir.Write("r.csv", "review,comment,cat,label,rating\nignored,Tastes fresh.,水果,1,3\n"),
      options);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "Tastes fresh.");
  EXPECT_EQ(result.reviews[0].product, "水果");
  EXPECT_EQ(result.reviews[0].rating, 1.0);
}

TEST(DelimitedReader, OverriddenColumnMissingFromTheHeaderIsOneRejectAndTheEnd) {
  TempDir dir;
  ReadOptions options;
  options.fields.product = "sku";
  auto result = ReadAll(dir.Write("r.csv", "cat,label,review\n水果,1,甜\n水果,0,酸\n"), options);
  EXPECT_EQ(result.reviews.size(), 0u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].line, 1u);
  EXPECT_EQ(result.rejects[0].reason,
            "no column \"sku\" for the product in the header (cat,label,review)");
}

TEST(DelimitedReader, HeaderWithoutATextColumnIsOneReject) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "a,b\n1,2\n"));
  EXPECT_EQ(result.reviews.size(), 0u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("no text column in the header (a,b)"));
}

TEST(DelimitedReader, RecordLongerThanTheLimitIsRejectedAndReadingResumesAtTheNextLine) {
  TempDir dir;
  ReadOptions options;
  options.max_record_bytes = 64;
  auto result = ReadAll(dir.Write("r.csv", "review\n\"" + std::string(40, 'a') + "\n" +
                                               std::string(40, 'b') + "\"\nshort\n"),
                        options);
  ASSERT_GE(result.rejects.size(), 1u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("record too long: 83 bytes"));
  EXPECT_EQ(result.rejects[0].line, 2u);
  ASSERT_FALSE(result.reviews.empty());
  EXPECT_EQ(result.reviews.back().text, "short");
}

TEST(DelimitedReader, TsvUsesTabsWithTheSameQuoting) {
  TempDir dir;
  auto result = ReadAll(
      dir.Write("r.tsv", "product\trating\ttext\nmug-2\t5\t\"Holds heat,\tkeeps\"\"hot\"\"\"\n"));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "Holds heat,\tkeeps\"hot\"");
  EXPECT_EQ(result.reviews[0].product, "mug-2");
  EXPECT_EQ(result.format, Format::kTsv);
}

TEST(DelimitedReader, ReadsTheWholeChineseShoppingDump) {
  REVSUM_REQUIRE_SHARED(path, "data/zh/online_shopping_10_cats.csv");
  ReadOptions options;
  options.fields.product = "cat";
  auto result = ReadAll(path.string(), options);
  // 62,774 data rows (python3's csv module agrees); one row (line 36427, 热水器) has an empty
  // review.
  EXPECT_EQ(result.reviews.size() + result.rejects.size(), 62774u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "empty text field \"review\"");
  EXPECT_EQ(result.rejects[0].line, 36427u);
  EXPECT_EQ(result.rejects[0].raw, "热水器,1,");
  size_t fruit = 0;
  for (const Review& r : result.reviews) fruit += r.product == "水果";
  EXPECT_EQ(fruit, 10000u);
  EXPECT_EQ(result.bytes_read, result.total_bytes);
}

}  // namespace
}  // namespace revsum
