// JSON Lines: the Amazon 2018 and 2023 review dumps, field overrides, and every kind of bad line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;
using testing::ReadAll;
using ::testing::StartsWith;
using testing::TempDir;

constexpr char kAmazon2018[] =
    R"({"overall": 4.0, "verified": true, "reviewTime": "05 4, 2016", "reviewerID": "A2SUAM1J3GNN3B", "asin": "0000013714", "reviewerName": "J. McDonald", "reviewText": "I bought this for my husband who plays the piano. He is having a wonderful time playing these old hymns.", "summary": "Heavenly Highway Hymns", "unixReviewTime": 1462320000})"
    "\n";

constexpr char kAmazon2023[] =
    R"({"rating": 5.0, "title": "Such a lovely scent but not overpowering.", "text": "This spray is really nice. It smells really good, goes on really fine, and does the trick.", "images": [], "asin": "B00YQ6X8EO", "parent_asin": "B00YQ6X8EO0", "user_id": "AGKHLEW2SOWHNMFQIJGBECAF7INQ", "timestamp": 1588687728923, "helpful_vote": 0, "verified_purchase": true})"
    "\n";

TEST(JsonlReader, ReadsAmazon2018Fields) {
  TempDir dir;
  auto result = ReadAll(dir.Write("books.jsonl", kAmazon2018));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 1u);
  const Review& r = result.reviews[0];
  EXPECT_EQ(r.line, 1u);
  EXPECT_EQ(r.product, "0000013714");
  EXPECT_EQ(r.rating, 4.0);
  EXPECT_EQ(r.title, "Heavenly Highway Hymns");
  EXPECT_THAT(r.text, StartsWith("I bought this for my husband"));
  EXPECT_EQ(r.time, 1462320000);
  EXPECT_EQ(r.external_id, "A2SUAM1J3GNN3B:1462320000");
  EXPECT_EQ(result.format, Format::kJsonl);
}

TEST(JsonlReader, ReadsAmazon2023FieldsPreferringParentAsinAndConvertingMilliseconds) {
  TempDir dir;
  auto result = ReadAll(dir.Write("beauty.jsonl", kAmazon2023));
  ASSERT_EQ(result.reviews.size(), 1u);
  const Review& r = result.reviews[0];
  EXPECT_EQ(r.product, "B00YQ6X8EO0");  // parent_asin wins over asin
  EXPECT_EQ(r.rating, 5.0);
  EXPECT_EQ(r.title, "Such a lovely scent but not overpowering.");
  EXPECT_EQ(r.time, 1588687728);  // milliseconds -> seconds
}

TEST(JsonlReader, Amazon2023ReviewWithoutIdIsIdentifiedByUserAndTimestamp) {
  TempDir dir;
  auto result = ReadAll(dir.Write("beauty.jsonl", kAmazon2023));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].external_id, "AGKHLEW2SOWHNMFQIJGBECAF7INQ:1588687728923");
}

TEST(JsonlReader, ExplicitReviewIdIsUsedAsIs) {
  TempDir dir;
  auto result = ReadAll(dir.Write(
      "r.jsonl", R"({"review_id": 9731, "text": "Fits well.", "user_id": "U1", "timestamp": 1})"));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].external_id, "9731");
}

TEST(JsonlReader, FieldMapOverridesEveryField) {
  TempDir dir;
  const std::string path = dir.Write(
      "custom.jsonl",
      R"({"body": "Sturdy kettle, boils fast.", "sku": "KT-100", "rid": "r-77", "stars": "4", "headline": "Good kettle", "posted": 1700000000, "text": "not this one", "rating": 1})"
      "\n");
  ReadOptions options;
  options.fields = {.text = "body",
                    .product = "sku",
                    .id = "rid",
                    .rating = "stars",
                    .title = "headline",
                    .time = "posted"};
  auto result = ReadAll(path, options);
  ASSERT_EQ(result.reviews.size(), 1u);
  const Review& r = result.reviews[0];
  EXPECT_EQ(r.text, "Sturdy kettle, boils fast.");
  EXPECT_EQ(r.product, "KT-100");
  EXPECT_EQ(r.external_id, "r-77");
  EXPECT_EQ(r.rating, 4.0);
  EXPECT_EQ(r.title, "Good kettle");
  EXPECT_EQ(r.time, 1700000000);
}

TEST(JsonlReader, RatingWrittenAsAStringIsANumber) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", R"({"text": "ok", "rating": " 5.0 "})"));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].rating, 5.0);
}

TEST(JsonlReader, NullOrEmptyRatingMeansNoRating) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"text\": \"a\", \"rating\": null}\n"
                                  "{\"text\": \"b\", \"rating\": \"\"}\n"));
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_FALSE(result.reviews[0].rating.has_value());
  EXPECT_FALSE(result.reviews[1].rating.has_value());
}

TEST(JsonlReader, RatingThatIsNotANumberRejectsTheRecord) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"text\": \"Nice mug.\", \"rating\": \"five\"}\n"
                                  "{\"text\": \"Nice mug.\", \"overall\": [5]}\n"));
  ASSERT_EQ(result.rejects.size(), 2u);
  EXPECT_EQ(result.rejects[0].reason, "rating is not a number: \"rating\" is \"five\"");
  EXPECT_EQ(result.rejects[1].reason, "rating is not a number: \"overall\" is an array");
}

TEST(JsonlReader, RatingOutOfAnyScaleRejectsTheRecord) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"text\": \"Nice mug.\", \"rating\": 1e308}\n"
                                  "{\"text\": \"Nice cup.\", \"stars\": \"-2000000\"}\n"
                                  "{\"text\": \"Nice jug.\", \"rating\": 100}\n"));
  ASSERT_EQ(result.rejects.size(), 2u);
  EXPECT_EQ(result.rejects[0].reason,
            "rating out of range: \"rating\" is 1e+308 (accepted: -1000000 to 1000000)");
  EXPECT_EQ(result.rejects[1].reason,
            "rating out of range: \"stars\" is -2e+06 (accepted: -1000000 to 1000000)");
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].rating, 100.0);
}

TEST(JsonlReader, TimeThatIsNotANumberRejectsTheRecordWhenTheFieldIsNamed) {
  TempDir dir;
  ReadOptions options;
  options.fields.time = "timestamp";
  auto result =
      ReadAll(dir.Write("r.jsonl", R"({"text": "Nice.", "timestamp": "yesterday"})"), options);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason,
            "time is not a number or a date: \"timestamp\" is \"yesterday\"");
}

TEST(JsonlReader, AnUnreadableTimeInAFieldFoundByItsNameKeepsTheReviewWithOneNotice) {
  // An optional field in a form revsum does not read sank every review of a dump before.
  TempDir dir;
  ReadOptions options;
  std::vector<std::string> notices;
  options.on_notice = [&](const std::string& n) {
    if (n.find("time") != std::string::npos) notices.push_back(n);  // not the product notice
  };
  const std::string path = dir.Write("r.jsonl",
                                     "{\"text\": \"Nice.\", \"date\": \"yesterday\"}\n"
                                     "{\"text\": \"Fine.\", \"date\": \"Dec 23, 2008\"}\n"
                                     "{\"text\": \"Good.\", \"date\": \"last week\"}\n");
  auto result = ReadAll(path, options);
  EXPECT_TRUE(result.rejects.empty());
  ASSERT_EQ(result.reviews.size(), 3u);
  EXPECT_FALSE(result.reviews[0].time.has_value());
  EXPECT_EQ(result.reviews[1].time, 1229990400);
  EXPECT_FALSE(result.reviews[2].time.has_value());
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0], path +
                            ": 2 reviews kept without a time: not a time revsum reads (first at "
                            "line 1: \"date\" is \"yesterday\"); name the field with "
                            "--time-field to reject such records instead");
}

TEST(JsonlReader, BlankLinesAreSkippedButCounted) {
  TempDir dir;
  auto result =
      ReadAll(dir.Write("r.jsonl", "\n{\"text\": \"first\"}\n   \n\r\n{\"text\": \"second\"}\n\n"));
  EXPECT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].line, 2u);
  EXPECT_EQ(result.reviews[1].line, 5u);
}

TEST(JsonlReader, MalformedLineIsRejectedWithSimdjsonsMessageAndReadingContinues) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"text\": \"good one\"}\n"
                                  "{\"text\": \"cut off in the mid\n"
                                  "{\"text\": \"good two\"}\n"));
  ASSERT_EQ(result.reviews.size(), 2u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].line, 2u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("malformed JSON: "));
  EXPECT_GT(result.rejects[0].reason.size(), std::string("malformed JSON: ").size());
  EXPECT_EQ(result.rejects[0].raw, "{\"text\": \"cut off in the mid");
  EXPECT_EQ(result.reviews[1].line, 3u);
}

TEST(JsonlReader, LineThatIsNotAnObjectIsRejected) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", "[\"text\", \"an array\"]\n42\n"));
  ASSERT_EQ(result.rejects.size(), 2u);
  EXPECT_EQ(result.rejects[0].reason, "JSON value is not an object (it is an array)");
  EXPECT_EQ(result.rejects[1].reason, "JSON value is not an object (it is a number)");
}

TEST(JsonlReader, InvalidUtf8IsRejectedAtItsByte) {
  TempDir dir;
  // byte 10 is a lone continuation byte inside the string
  auto result = ReadAll(dir.Write("r.jsonl", "{\"text\": \"\x80 bad\"}\n{\"text\": \"fine\"}\n"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "invalid UTF-8 at byte 10");
  EXPECT_EQ(result.rejects[0].line, 1u);
  EXPECT_EQ(result.reviews.size(), 1u);
}

TEST(JsonlReader, OverlongAndSurrogateEncodingsAreInvalidUtf8) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"text\": \"\xC0\xAF\"}\n"             // overlong '/'
                                  "{\"text\": \"\xED\xA0\x80\"}\n"         // U+D800
                                  "{\"text\": \"\xF4\x90\x80\x80\"}\n"));  // > U+10FFFF
  ASSERT_EQ(result.rejects.size(), 3u);
  for (const Reject& r : result.rejects) EXPECT_EQ(r.reason, "invalid UTF-8 at byte 10");
}

TEST(JsonlReader, BinaryGarbageIsRejected) {
  TempDir dir;
  std::string garbage = "PK\x03\x04";
  garbage += std::string("\x00\x14\x00\x08\x00\x08\x00", 7);
  garbage += "\n{\"text\": \"after the garbage\"}\n";
  auto result = ReadAll(dir.Write("r.jsonl", garbage));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "binary data: NUL byte at byte 4");
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "after the garbage");
}

// Found by tests/fuzz/fuzz_read: the escape passed the raw-byte NUL check.
TEST(JsonlReader, EscapedNulIsRejectedAsBinaryData) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"text\": \"nul \\u0000 inside\"}\n"
                                  "{\"text\": \"fine\", \"title\": \"t\\u0000\"}\n"
                                  "{\"text\": \"kept\"}\n"));
  ASSERT_EQ(result.rejects.size(), 2u);
  EXPECT_EQ(result.rejects[0].reason, "binary data: NUL byte (\\u0000) in the text field");
  EXPECT_EQ(result.rejects[0].line, 1u);
  EXPECT_EQ(result.rejects[1].reason, "binary data: NUL byte (\\u0000) in the title field");
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "kept");
}

TEST(JsonlReader, MissingTextFieldIsRejectedNamingTheFields) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", R"({"rating": 3, "asin": "B01"})"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("missing text field (none of reviewText, text"));
}

TEST(JsonlReader, MissingOverriddenTextFieldIsRejectedNamingIt) {
  TempDir dir;
  ReadOptions options;
  options.fields.text = "body";
  // (A field that no record of the look-ahead has is a ReadError instead; see below.)
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"body\": \"Fine.\"}\n"
                                  "{\"text\": \"present but not asked for\"}\n"),
                        options);
  ASSERT_EQ(result.reviews.size(), 1u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "missing text field \"body\"");
}

TEST(JsonlReader, EmptyOrWhitespaceTextIsRejected) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl",
                                  "{\"reviewText\": \"\"}\n"
                                  "{\"text\": \" \\n\\u3000 \"}\n"));
  ASSERT_EQ(result.rejects.size(), 2u);
  EXPECT_EQ(result.rejects[0].reason, "empty text field \"reviewText\"");
  EXPECT_EQ(result.rejects[1].reason, "empty text field \"text\"");
}

TEST(JsonlReader, TextThatIsNotAStringIsRejected) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", R"({"text": {"en": "nested"}})"));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "text field \"text\" is not a string (it is an object)");
}

TEST(JsonlReader, JsonEscapesAndChineseTextAreDecoded) {
  TempDir dir;
  auto result = ReadAll(
      dir.Write("r.jsonl", R"({"text": "\"Great\" fit\u2014\u5f88\u597d 👍<br />Love it"})"));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "\"Great\" fit\u2014很好 👍<br />Love it");
}

TEST(JsonlReader, RecordLongerThanTheLimitIsRejectedAndReadingContinues) {
  TempDir dir;
  ReadOptions options;
  options.max_record_bytes = 100;
  options.max_raw_bytes = 20;
  const std::string long_line = "{\"text\": \"" + std::string(200, 'a') + "\"}";
  auto result = ReadAll(dir.Write("r.jsonl", long_line + "\n{\"text\": \"short\"}\n"), options);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "record too long: 212 bytes (limit 100)");
  EXPECT_EQ(result.rejects[0].raw, long_line.substr(0, 20));
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].line, 2u);
}

TEST(JsonlReader, FiftyMegabyteLineIsRejectedKeepingOnlyABoundedPrefix) {
  TempDir dir;
  const size_t n = 50u << 20;
  std::string dump = "{\"text\": \"before\"}\n{\"text\": \"";
  dump.append(n, 'x');
  dump += "\"}\n{\"text\": \"after\"}\n";
  auto result = ReadAll(dir.Write("big.jsonl", dump));  // default limit: 16 MiB
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].line, 2u);
  EXPECT_EQ(result.rejects[0].reason,
            "record too long: " + std::to_string(n + 12) + " bytes (limit 16777216)");
  EXPECT_EQ(result.rejects[0].raw.size(), 64u << 10);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "after");
  EXPECT_EQ(result.reviews[1].line, 3u);
}

TEST(JsonlReader, FiftyMegabyteLineIsReadWhenTheLimitAllowsIt) {
  TempDir dir;
  const size_t n = 50u << 20;
  std::string dump = "{\"text\": \"";
  dump.append(n, 'y');
  dump += "\"}\n";
  ReadOptions options;
  options.max_record_bytes = 64u << 20;
  auto result = ReadAll(dir.Write("big.jsonl", dump), options);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text.size(), n);
}

TEST(JsonlReader, LinesSpanningReadChunksAreJoined) {
  TempDir dir;
  ReadOptions options;
  options.chunk_bytes = 4096;  // the smallest chunk; lines of ~3 KB straddle chunk ends
  std::string dump;
  for (int i = 0; i < 20; ++i) {
    dump += "{\"text\": \"" + std::string(3000 + i, static_cast<char>('a' + i)) + "\"}\n";
  }
  auto result = ReadAll(dir.Write("r.jsonl", dump), options);
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(result.reviews[i].text, std::string(3000 + i, static_cast<char>('a' + i)));
    EXPECT_EQ(result.reviews[i].line, static_cast<uint64_t>(i + 1));
  }
}

TEST(JsonlReader, CrOnlyLineEndsSeparateRecords) {
  TempDir dir;
  auto result = ReadAll(dir.Write("mac.jsonl", "{\"text\": \"one\"}\r{\"text\": \"two\"}\r"));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "two");
  EXPECT_EQ(result.reviews[1].line, 2u);
  auto crlf = ReadAll(dir.Write("win.jsonl", "{\"text\": \"one\"}\r\n{\"text\": \"two\"}\r\n"));
  ASSERT_EQ(crlf.reviews.size(), 2u);
  EXPECT_EQ(crlf.reviews[1].line, 2u);
}

constexpr char kYelp[] =
    R"({"review_id":"KU_O5udG6zpxOg-VcAEodg","user_id":"mh_-eMZ6K5RLWhZyISBhwA","business_id":"XQfwVwDr-v0ZS3_CbbE5Xw","stars":3.0,"useful":0,"funny":0,"cool":0,"text":"If you decide to eat here, just be aware it is going to take about 2 hours from beginning to end.","date":"2018-07-07 22:09:11"})"
    "\n";

TEST(JsonlReader, ReadsYelpFields) {
  TempDir dir;
  auto result = ReadAll(dir.Write("yelp_academic_dataset_review.json", kYelp));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 1u);
  const Review& r = result.reviews[0];
  EXPECT_EQ(r.product, "XQfwVwDr-v0ZS3_CbbE5Xw");
  EXPECT_EQ(r.rating, 3.0);
  EXPECT_EQ(r.external_id, "KU_O5udG6zpxOg-VcAEodg");
  EXPECT_EQ(r.time, 1531001351);  // 2018-07-07 22:09:11 UTC
}

TEST(JsonlReader, TimeStringsInIsoAndCommonDateFormsAreUnixSecondsUtc) {
  const std::pair<std::string, int64_t> cases[] = {
      {"2018-07-07 22:09:11", 1531001351},
      {"2018-07-07T22:09:11Z", 1531001351},
      {"2018-07-07T22:09:11+08:00", 1530972551},
      {"2018-07-07T22:09:11.250-05:30", 1531021151},
      {"2018-07-07T22:09+0800", 1530972540},
      {"2018-07-07", 1530921600},
      {"2018/07/07", 1530921600},
      {"2018/7/7", 1530921600},
      {"2000-02-29T00:00:00Z", 951782400},
      {"1969-12-31T23:59:59Z", -1},
      {"9999-12-31 23:59:59", 253402300799},
      {"1588687728923", 1588687728},  // milliseconds written as a string
      {" 1462320000 ", 1462320000},
      // Month names (TripAdvisor, review sites), RFC 2822, and the year last.
      {"Dec 23, 2008", 1229990400},
      {"December 23, 2008", 1229990400},
      {"dec 23 2008", 1229990400},
      {"23 Dec 2008", 1229990400},
      {"Sept 1, 2008", 1220227200},
      {"Tue, 23 Dec 2008 14:30:00 +0100", 1230039000},
      {"23 Dec 2008 14:30:00 GMT", 1230042600},
      {"12/23/2008", 1229990400},  // month first (US)
      {"23/12/2008", 1229990400},  // the first number above 12: day first
      {"01/02/2008", 1199232000},  // ambiguous: month first, January 2
      {"23.12.2008", 1229990400},  // dots: day first
      {"12/23/2008 14:30", 1230042600},
  };
  TempDir dir;
  for (const auto& [text, seconds] : cases) {
    SCOPED_TRACE(text);
    auto result = ReadAll(dir.Write("t.jsonl", "{\"text\": \"x\", \"date\": \"" + text + "\"}\n"));
    ASSERT_EQ(result.reviews.size(), 1u);
    EXPECT_EQ(result.reviews[0].time, seconds);
  }
}

TEST(JsonlReader, TimeStringThatIsNoDateIsRejectedNamingIt) {
  TempDir dir;
  ReadOptions options;
  options.fields.time = "date";
  for (std::string text :
       {"2018-02-30", "2018-07-07T25:00:00Z", "13/13/2018", "2018-07-07 22:09:11 PST", "2018-13-01",
        "2018-07-07T22:09:11+8", "Feb 30, 2008", "Dec 2008", "Smarch 3, 2008",
        "Tue, 23 Dec 2008 14:30:00 EST", "23 Dec 08", "12/23/08", "foo 23 Dec 2008",
        "12:00 Dec 23 2008"}) {
    SCOPED_TRACE(text);
    auto result =
        ReadAll(dir.Write("t.jsonl", "{\"text\": \"x\", \"date\": \"" + text + "\"}\n"), options);
    ASSERT_EQ(result.rejects.size(), 1u);
    EXPECT_EQ(result.rejects[0].reason,
              "time is not a number or a date: \"date\" is \"" + text + "\"");
  }
}

TEST(JsonlReader, UserIdWithoutATimestampIdentifiesTheReview) {
  TempDir dir;
  auto result = ReadAll(
      dir.Write("r.jsonl",
                "{\"parent_asin\": \"B1\", \"user_id\": \"alice\", \"rating\": 5, "
                "\"text\": \"Great product.\"}\n"
                "{\"parent_asin\": \"B1\", \"user_id\": \"bob\", \"rating\": 1, "
                "\"text\": \"Great product.\"}\n"
                "{\"asin\": \"B2\", \"reviewerID\": \"A2SUAM\", \"reviewText\": \"Ok.\"}\n"));
  ASSERT_EQ(result.reviews.size(), 3u);
  EXPECT_EQ(result.reviews[0].external_id, "alice");
  EXPECT_EQ(result.reviews[1].external_id, "bob");
  EXPECT_EQ(result.reviews[2].external_id, "A2SUAM");
}

TEST(JsonlReader, NamedFieldInNoneOfTheFirstRecordsIsAReadErrorListingTheKeys) {
  TempDir dir;
  std::string dump;
  for (int i = 0; i < 5; ++i) dump += kYelp;
  const std::string path = dir.Write("yelp.jsonl", dump);
  ReadOptions options;
  options.fields.product = "business_idd";
  const std::string message = testing::ReadErrorOf(path, options);
  EXPECT_THAT(message, StartsWith(path + ": no record has the product field \"business_idd\""));
  EXPECT_THAT(message, HasSubstr("looked at the first 5 records"));
  EXPECT_THAT(message, HasSubstr("\"review_id\", \"user_id\", \"business_id\", \"stars\""));
  // A misspelt text field too: it rejected every record (256 rejects, exit 3) before.
  for (auto field :
       {&FieldMap::id, &FieldMap::rating, &FieldMap::title, &FieldMap::time, &FieldMap::text}) {
    ReadOptions other;
    other.fields.*field = "nope";
    EXPECT_THAT(testing::ReadErrorOf(path, other), HasSubstr("field \"nope\""));
  }
}

TEST(JsonlReader, NamedFieldFoundInSomeOfTheFirstRecordsIsNoError) {
  TempDir dir;
  std::string dump = "{\"text\": \"a\"}\n{\"text\": \"b\"}\n";
  for (int i = 0; i < 1200; ++i) dump += "{\"text\": \"c\", \"sku\": \"k\"}\n";
  ReadOptions options;
  options.fields.product = "sku";
  auto result = ReadAll(dir.Write("r.jsonl", dump), options);
  EXPECT_EQ(result.reviews.size(), 1202u);
  EXPECT_EQ(result.reviews[0].product, "");
  EXPECT_EQ(result.reviews[2].product, "k");
  // Only records in the look-ahead (the first 1,000) count.
  std::string late;
  for (int i = 0; i < 1001; ++i) late += "{\"text\": \"c\"}\n";
  late += "{\"text\": \"c\", \"sku\": \"k\"}\n";
  EXPECT_THAT(testing::ReadErrorOf(dir.Write("late.jsonl", late), options),
              HasSubstr("no record has the product field \"sku\""));
}

TEST(JsonlReader, DumpWithoutAProductFieldGivesOneNotice) {
  TempDir dir;
  std::vector<std::string> notices;
  ReadOptions options;
  options.on_notice = [&](const std::string& notice) { notices.push_back(notice); };
  std::string dump;
  for (int i = 0; i < 3000; ++i) dump += "{\"text\": \"fine\", \"rating\": 4}\n";
  const std::string path = dir.Write("r.jsonl", dump);
  EXPECT_EQ(ReadAll(path, options).reviews.size(), 3000u);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0], path +
                            ": no product field (looked for parent_asin, asin, product, "
                            "product_id, business_id, cat, category); all reviews go under "
                            "product ''; name one with --product-field");
  notices.clear();
  ReadAll(dir.Write("s.jsonl", kAmazon2023), options);
  EXPECT_TRUE(notices.empty());
}

TEST(JsonlReader, LastLineWithoutNewlineIsRead) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", "{\"text\": \"a\"}\n{\"text\": \"no newline\"}"));
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "no newline");
}

}  // namespace
}  // namespace revsum
