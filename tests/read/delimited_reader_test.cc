// CSV and TSV (RFC 4180): header mapping, quoting, line breaks in fields, BOM, CRLF, bad rows.
#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"
#include "support/shared_data.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;
using testing::ReadAll;
using testing::ReadErrorOf;
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

TEST(DelimitedReader, RatingOutOfAnyScaleRejectsTheRow) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv", "review,rating\nGood,1.7e308\nFine,4\n"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason,
            "rating out of range: \"rating\" is 1.7e+308 (accepted: -1000000 to 1000000)");
  EXPECT_EQ(result.rejects[0].line, 2u);
  ASSERT_EQ(result.reviews.size(), 1u);
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

TEST(DelimitedReader, OverriddenColumnMissingFromTheHeaderIsAReadError) {
  TempDir dir;
  ReadOptions options;
  options.fields.product = "sku";
  const std::string path = dir.Write("r.csv", "cat,label,review\n水果,1,甜\n水果,0,酸\n");
  EXPECT_EQ(ReadErrorOf(path, options),
            path + ":1: no column \"sku\" for the product in the header (cat,label,review)");
}

TEST(DelimitedReader, HeaderWithoutATextColumnIsAReadError) {
  TempDir dir;
  const std::string path = dir.Write("r.csv", "a,b\n1,2\n");
  EXPECT_THAT(ReadErrorOf(path), StartsWith(path + ":1: no text column in the header (a,b)"));
}

TEST(DelimitedReader, RecordLongerThanTheLimitIsRejectedAndReadingResumesAtTheNextLine) {
  TempDir dir;
  ReadOptions options;
  options.max_record_bytes = 64;
  auto result = ReadAll(dir.Write("r.csv", "review\n\"" + std::string(40, 'a') + "\n" +
                                               std::string(40, 'b') + "\"\nshort\n"),
                        options);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "record too long: 83 bytes (limit 64)");
  EXPECT_EQ(result.rejects[0].line, 2u);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "short");
  EXPECT_EQ(result.reviews[0].line, 4u);
}

TEST(DelimitedReader, CrOnlyLineEndsEndRecords) {
  TempDir dir;
  auto result = ReadAll(dir.Write("m.csv", "text,rating\rfirst.,5\rsecond.,4\r"));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].text, "first.");
  EXPECT_EQ(result.reviews[1].text, "second.");
  EXPECT_EQ(result.reviews[1].rating, 4.0);
  EXPECT_EQ(result.reviews[1].line, 3u);
}

TEST(DelimitedReader, LoneCrInsideAQuotedFieldStaysInTheField) {
  TempDir dir;
  auto cr_file = ReadAll(dir.Write("m.csv", "text,rating\r\"two\rlines\",5\rnext,4\r"));
  ASSERT_EQ(cr_file.reviews.size(), 2u);
  EXPECT_EQ(cr_file.reviews[0].text, "two\rlines");
  EXPECT_EQ(cr_file.reviews[1].line, 4u);
  auto lf_file = ReadAll(dir.Write("n.csv", "text,rating\n\"two\rlines\",5\nlone\rcr,4\r\n"));
  ASSERT_EQ(lf_file.rejects.size(), 0u);
  ASSERT_EQ(lf_file.reviews.size(), 2u);
  EXPECT_EQ(lf_file.reviews[0].text, "two\rlines");
  EXPECT_EQ(lf_file.reviews[1].text, "lone\rcr");  // an LF file: a lone CR is a byte
  EXPECT_EQ(lf_file.reviews[1].line, 3u);
}

// A quoted field over the limit: made of lines (`line_breaks`) or one line.
std::string OversizedQuotedRow(size_t bytes, bool line_breaks) {
  std::string field = "\"";
  const std::string piece =
      line_breaks ? "he said \"\"stop\"\", a,b\n" : "he said \"\"stop\"\", a,b ";
  while (field.size() < bytes) field += piece;
  return field + "\",1\n";
}

TEST(DelimitedReader, OversizedQuotedFieldIsOneRejectAndTheNextRowIsRead) {
  TempDir dir;
  for (bool line_breaks : {true, false}) {
    SCOPED_TRACE(line_breaks);
    const std::string row = OversizedQuotedRow(17u << 20, line_breaks);
    const std::string path =
        dir.Write("big.csv", "text,rating\nfirst row,5\n" + row + "valid row after it,4\n");
    auto result = ReadAll(path);  // default limit: 16 MiB
    ASSERT_EQ(result.rejects.size(), 1u);
    EXPECT_EQ(result.rejects[0].reason,
              "record too long: " + std::to_string(row.size() - 1) + " bytes (limit 16777216)");
    EXPECT_EQ(result.rejects[0].line, 3u);
    EXPECT_EQ(result.rejects[0].raw.size(), 64u << 10);
    ASSERT_EQ(result.reviews.size(), 2u);
    EXPECT_EQ(result.reviews[1].text, "valid row after it");
    const uint64_t row_lines = line_breaks ? std::count(row.begin(), row.end(), '\n') : 1;
    EXPECT_EQ(result.reviews[1].line, 3 + row_lines);
  }
}

TEST(DelimitedReader, OversizedQuotedFieldSpanningSmallChunksIsOneReject) {
  TempDir dir;
  ReadOptions options;
  options.chunk_bytes = 4096;
  options.max_record_bytes = 5000;
  std::string dump = "text,rating\n";
  for (int i = 0; i < 10; ++i) {
    dump += OversizedQuotedRow(6000 + 999 * i, i % 2 == 0) + "ok " + std::to_string(i) + ",3\n";
  }
  auto result = ReadAll(dir.Write("r.csv", dump), options);
  EXPECT_EQ(result.rejects.size(), 10u);
  ASSERT_EQ(result.reviews.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(result.reviews[i].text, "ok " + std::to_string(i));
  for (const Reject& r : result.rejects) EXPECT_THAT(r.reason, StartsWith("record too long: "));
}

TEST(DelimitedReader, HeaderWithoutAProductColumnGivesOneNotice) {
  TempDir dir;
  std::vector<std::string> notices;
  ReadOptions options;
  options.on_notice = [&](const std::string& notice) { notices.push_back(notice); };
  const std::string path = dir.Write("r.csv", "review,rating\nGood.,5\nBad.,1\n");
  EXPECT_EQ(ReadAll(path, options).reviews.size(), 2u);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_THAT(notices[0], StartsWith(path + ": no product column (looked for product, "));
  EXPECT_THAT(notices[0], HasSubstr("all reviews go under product ''"));
  notices.clear();
  ReadAll(dir.Write("s.csv", "product,review\np1,Good.\n"), options);
  EXPECT_TRUE(notices.empty());
}

TEST(DelimitedReader, UserColumnIdentifiesAReviewWithoutAnIdColumn) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.csv",
                                  "product,user_id,text,rating\n"
                                  "p1,alice,Great product.,5\n"
                                  "p1,bob,Great product.,1\n"));
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].external_id, "alice");
  EXPECT_EQ(result.reviews[1].external_id, "bob");
}

TEST(DelimitedReader, YelpDateColumnIsReadAsUtc) {
  TempDir dir;
  auto result = ReadAll(dir.Write("y.csv",
                                  "review_id,business_id,stars,text,date\n"
                                  "KU_O5udG6zpxOg,XQfwVwDr-v0ZS3,3,Decent.,2018-07-07 22:09:11\n"));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].product, "XQfwVwDr-v0ZS3");
  EXPECT_EQ(result.reviews[0].time, 1531001351);
  EXPECT_EQ(result.reviews[0].rating, 3.0);
}

TEST(DelimitedReader, AnUnreadableDateKeepsTheReviewUnlessItsColumnIsNamed) {
  TempDir dir;
  const std::string path = dir.Write("d.csv",
                                     "text,hotel,date\n"
                                     "Clean rooms.,H1,\"Dec 23, 2008\"\n"
                                     "Noisy street.,H1,sometime in May\n");
  ReadOptions options;
  int notices = 0;
  options.on_notice = [&](const std::string& n) {
    notices += n.find("1 review kept without a time") != std::string::npos;
  };
  auto kept = ReadAll(path, options);
  ASSERT_EQ(kept.reviews.size(), 2u);
  EXPECT_EQ(kept.reviews[0].time, 1229990400);
  EXPECT_FALSE(kept.reviews[1].time.has_value());
  EXPECT_EQ(notices, 1);
  options.fields.time = "date";
  auto named = ReadAll(path, options);
  EXPECT_EQ(named.reviews.size(), 1u);
  ASSERT_EQ(named.rejects.size(), 1u);
  EXPECT_EQ(named.rejects[0].reason,
            "time is not a number or a date: \"date\" is \"sometime in May\"");
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
