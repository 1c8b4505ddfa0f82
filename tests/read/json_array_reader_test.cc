// A JSON array of objects (`jq -s`, pandas to_json(orient="records"), Hugging Face exports),
// compact on one line or pretty-printed, read element by element.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"

namespace revsum {
namespace {

using testing::Gzip;
using ::testing::HasSubstr;
using testing::ReadAll;
using testing::ReadErrorOf;
using ::testing::StartsWith;
using testing::TempDir;

TEST(JsonArrayReader, CompactArrayOnOneLineIsReadAsRecords) {
  TempDir dir;
  auto result = ReadAll(dir.Write(
      "r.json", R"([{"text":"first","rating":5,"asin":"B1"},{"text":"second","asin":"B2"}])"));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].text, "first");
  EXPECT_EQ(result.reviews[0].rating, 5.0);
  EXPECT_EQ(result.reviews[1].product, "B2");
  EXPECT_EQ(result.reviews[1].line, 1u);
  EXPECT_EQ(result.format, Format::kJson);
}

TEST(JsonArrayReader, PrettyPrintedArrayGivesEachRecordTheLineWhereItStarts) {
  TempDir dir;
  const std::string pretty =
      "\xEF\xBB\xBF[\n"
      "  {\n"
      "    \"text\": \"Brackets ] and braces } and commas, inside \\\"quotes\\\" \\\\\",\n"
      "    \"tags\": [\"a\", {\"b\": [1, 2]}],\n"
      "    \"rating\": 4\n"
      "  },\n"
      "  {\n"
      "    \"text\": \"second\"\n"
      "  }\n"
      "]\n";
  auto result = ReadAll(dir.Write("pretty.json", pretty));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].text, "Brackets ] and braces } and commas, inside \"quotes\" \\");
  EXPECT_EQ(result.reviews[0].line, 2u);
  EXPECT_EQ(result.reviews[1].line, 7u);
}

TEST(JsonArrayReader, IsSniffedWithoutAnExtensionAndReadFromGzip) {
  TempDir dir;
  const std::string json = "  [{\"text\": \"one\"}, {\"text\": \"two\"}]";
  auto result = ReadAll(dir.Write("dump", Gzip(json)));
  EXPECT_TRUE(result.gzip);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "two");
}

TEST(JsonArrayReader, BadElementsAreRejectedAndTheRestIsRead) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.json",
                                  "[{\"text\": \"ok 1\"},\n"
                                  " {\"text\": },\n"
                                  " 42,\n"
                                  " {\"rating\": 5},\n"
                                  " {\"text\": \"ok 2\"}\n"
                                  "]"));
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "ok 2");
  EXPECT_EQ(result.reviews[1].line, 5u);
  ASSERT_EQ(result.rejects.size(), 3u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("malformed JSON: "));
  EXPECT_EQ(result.rejects[0].line, 2u);
  EXPECT_EQ(result.rejects[0].raw, "{\"text\": }");
  EXPECT_EQ(result.rejects[1].reason, "JSON value is not an object (it is a number)");
  EXPECT_THAT(result.rejects[2].reason, StartsWith("missing text field"));
}

TEST(JsonArrayReader, EmptyArrayHasNoRecords) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.json", "[ ]\n"));
  EXPECT_TRUE(result.reviews.empty());
  EXPECT_TRUE(result.rejects.empty());
}

TEST(JsonArrayReader, TruncatedArrayEndsWithAReject) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.json", "[{\"text\": \"kept\"},\n{\"text\": \"cut of"));
  ASSERT_EQ(result.reviews.size(), 1u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].reason, "unterminated JSON array at end of file");
  EXPECT_EQ(result.rejects[0].line, 2u);
}

TEST(JsonArrayReader, ContentAfterTheArrayIsOneReject) {
  TempDir dir;
  for (size_t chunk : {4096, 1 << 20}) {
    ReadOptions options;
    options.chunk_bytes = chunk;
    auto result = ReadAll(dir.Write("r.json", "[{\"text\": \"a\"}]\n{\"text\": \"b\"}\nmore\n" +
                                                  std::string(10000, ' ')),
                          options);
    ASSERT_EQ(result.reviews.size(), 1u);
    ASSERT_EQ(result.rejects.size(), 1u);
    EXPECT_EQ(result.rejects[0].reason, "content after the end of the JSON array");
    EXPECT_EQ(result.rejects[0].line, 2u);
    EXPECT_EQ(result.rejects[0].raw, "{\"text\": \"b\"}");
  }
}

TEST(JsonArrayReader, ElementsSpanningReadChunksAndOverTheLimit) {
  TempDir dir;
  ReadOptions options;
  options.chunk_bytes = 4096;
  options.max_record_bytes = 20000;
  std::string json = "[";
  for (int i = 0; i < 40; ++i) {
    const size_t n = i % 10 == 9 ? 30000 : 1000 + 97 * i;  // every tenth is too long
    json += std::string(i > 0 ? "," : "") + "{\"text\": \"" +
            std::string(n, static_cast<char>('a' + i % 26)) + "\"}";
  }
  json += "]";
  auto result = ReadAll(dir.Write("r.json", json), options);
  ASSERT_EQ(result.reviews.size(), 36u);
  ASSERT_EQ(result.rejects.size(), 4u);
  EXPECT_EQ(result.rejects[0].reason, "record too long: 30012 bytes (limit 20000)");
  EXPECT_EQ(result.reviews[9].text, std::string(1000 + 97 * 10, 'k'));
}

TEST(JsonArrayReader, NamedFieldMissingFromTheFirstElementsIsAReadError) {
  TempDir dir;
  const std::string path = dir.Write("r.json", R"([{"text": "a", "business_id": "b1"}])");
  ReadOptions options;
  options.fields.product = "business_idd";
  EXPECT_EQ(ReadErrorOf(path, options),
            path +
                ": no record has the product field \"business_idd\" (looked at the first 1 "
                "records); the first record has the keys: \"text\", \"business_id\"");
  options.fields.product = "business_id";
  auto result = ReadAll(path, options);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].product, "b1");
}

TEST(JsonArrayReader, JsonlNameKeepsJsonLines) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", "[1, 2]\n{\"text\": \"x\"}\n"));
  ASSERT_EQ(result.reviews.size(), 1u);
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_THAT(result.rejects[0].reason, HasSubstr("not an object"));
}

}  // namespace
}  // namespace revsum
