// Opening dumps: format detection, plain text, gzip (plain, concatenated, truncated, corrupt),
// unreadable files, standard input and progress counters.
#include <fcntl.h>
#include <unistd.h>

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

TEST(Format, FromPathUsesTheExtensionIgnoringGz) {
  EXPECT_EQ(FormatFromPath("a/b/reviews.jsonl"), Format::kJsonl);
  EXPECT_EQ(FormatFromPath("Beauty.JSONL.GZ"), Format::kJsonl);
  EXPECT_EQ(FormatFromPath("x.json.gz"), Format::kJson);
  EXPECT_EQ(FormatFromPath("x.ndjson"), Format::kJsonl);
  EXPECT_EQ(FormatFromPath("zh.csv"), Format::kCsv);
  EXPECT_EQ(FormatFromPath("zh.tsv.gz"), Format::kTsv);
  EXPECT_EQ(FormatFromPath("notes.txt"), Format::kText);
  EXPECT_EQ(FormatFromPath("dump"), Format::kAuto);
  EXPECT_EQ(FormatFromPath("dump.gz"), Format::kAuto);
}

TEST(Format, NamesRoundTripAndAliasesParse) {
  for (Format f : {Format::kAuto, Format::kJsonl, Format::kCsv, Format::kTsv, Format::kText}) {
    EXPECT_EQ(ParseFormat(FormatName(f)), f);
  }
  EXPECT_EQ(ParseFormat("ndjson"), Format::kJsonl);
  EXPECT_EQ(ParseFormat("TXT"), Format::kText);
  EXPECT_EQ(ParseFormat("xml"), std::nullopt);
}

TEST(ReviewReader, SniffsTheFormatWhenTheNameHasNoExtension) {
  TempDir dir;
  EXPECT_EQ(ReadAll(dir.Write("a", "\n  {\"text\": \"x\"}\n")).format, Format::kJsonl);
  EXPECT_EQ(ReadAll(dir.Write("b", "cat,label,review\n")).format, Format::kCsv);
  EXPECT_EQ(ReadAll(dir.Write("c", "label\treview\n")).format, Format::kTsv);
  EXPECT_EQ(ReadAll(dir.Write("d", "Just a sentence.\n")).format, Format::kText);
}

TEST(ReviewReader, ExplicitFormatOverridesTheExtension) {
  TempDir dir;
  ReadOptions options;
  options.format = Format::kText;
  auto result = ReadAll(dir.Write("r.jsonl", "{\"text\": \"kept verbatim\"}\n"), options);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "{\"text\": \"kept verbatim\"}");
}

TEST(TextReader, OneReviewPerNonBlankLine) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.txt", "Great kettle.\r\n\nToo loud!!!\n  \ngreat.love it"));
  ASSERT_EQ(result.reviews.size(), 3u);
  EXPECT_EQ(result.reviews[0].text, "Great kettle.");
  EXPECT_EQ(result.reviews[1].text, "Too loud!!!");
  EXPECT_EQ(result.reviews[1].line, 3u);
  EXPECT_EQ(result.reviews[2].text, "great.love it");
  EXPECT_EQ(result.reviews[2].line, 5u);
  EXPECT_TRUE(result.reviews[0].product.empty());
}

TEST(TextReader, CrOnlyLineEndsGiveOneReviewPerLine) {
  TempDir dir;
  auto result = ReadAll(dir.Write("mac.txt", "First review.\rSecond one.\r\rThird.\r"));
  ASSERT_EQ(result.reviews.size(), 3u);
  EXPECT_EQ(result.reviews[0].text, "First review.");
  EXPECT_EQ(result.reviews[1].text, "Second one.");
  EXPECT_EQ(result.reviews[2].text, "Third.");
  EXPECT_EQ(result.reviews[2].line, 4u);
  ReadOptions paragraphs;
  paragraphs.blank_line_separated = true;
  auto joined = ReadAll(dir.Write("p.txt", "a\rb\r\rc\r"), paragraphs);
  ASSERT_EQ(joined.reviews.size(), 2u);
  EXPECT_EQ(joined.reviews[0].text, "a\nb");
}

TEST(TextReader, LineEndsSplitAcrossReadChunksAreFound) {
  TempDir dir;
  ReadOptions options;
  options.chunk_bytes = 4096;  // line ends fall on every position relative to a chunk end
  for (std::string_view eol : {"\n", "\r\n", "\r"}) {
    SCOPED_TRACE(eol.size() == 2 ? "CRLF" : eol == "\r" ? "CR" : "LF");
    std::string dump;
    for (int i = 0; i < 3000; ++i) {
      dump += std::string(1 + i % 37, static_cast<char>('a' + i % 26));
      dump += eol;
    }
    auto result = ReadAll(dir.Write("r.txt", dump), options);
    ASSERT_EQ(result.reviews.size(), 3000u);
    for (int i = 0; i < 3000; ++i) {
      ASSERT_EQ(result.reviews[i].text, std::string(1 + i % 37, static_cast<char>('a' + i % 26)));
      ASSERT_EQ(result.reviews[i].line, static_cast<uint64_t>(i + 1));
    }
  }
}

TEST(TextReader, BlankLineSeparatedParagraphsAreOneReviewEach) {
  TempDir dir;
  ReadOptions options;
  options.blank_line_separated = true;
  auto result = ReadAll(dir.Write("r.txt",
                                  "\n\nThe strap broke\nafter a week.\n\n\n"
                                  "物流很快。\n质量一般。\n"),
                        options);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[0].text, "The strap broke\nafter a week.");
  EXPECT_EQ(result.reviews[0].line, 3u);
  EXPECT_EQ(result.reviews[1].text, "物流很快。\n质量一般。");
  EXPECT_EQ(result.reviews[1].line, 7u);
}

TEST(TextReader, ParagraphLongerThanTheLimitIsRejectedWhole) {
  TempDir dir;
  ReadOptions options;
  options.blank_line_separated = true;
  options.max_record_bytes = 30;
  auto result = ReadAll(
      dir.Write("r.txt", "short one\n\n" + std::string(20, 'a') + "\n" + std::string(20, 'b') +
                             "\n" + std::string(20, 'c') + "\n\nlast one\n"),
      options);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "last one");
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].line, 3u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("record too long: 62 bytes"));
}

TEST(TextReader, BinaryLineIsRejected) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.txt", std::string("ok\n\x89PNG\r\n\x1a\n\x00\x00", 14)));
  ASSERT_EQ(result.reviews.size(), 2u);  // "ok" and "\x1a" (a control character, but valid UTF-8)
  ASSERT_EQ(result.rejects.size(), 2u);
  EXPECT_EQ(result.rejects[0].reason, "invalid UTF-8 at byte 0");
  EXPECT_EQ(result.rejects[1].reason, "binary data: NUL byte at byte 0");
}

TEST(Gzip, IsReadTransparentlyAndDetectedByMagicBytes) {
  TempDir dir;
  const std::string json = "{\"text\": \"one\"}\n{\"text\": \"two\"}\n";
  auto result = ReadAll(dir.Write("r.jsonl.gz", Gzip(json)));
  EXPECT_TRUE(result.gzip);
  EXPECT_EQ(result.format, Format::kJsonl);
  ASSERT_EQ(result.reviews.size(), 2u);
  EXPECT_EQ(result.reviews[1].text, "two");
  auto unnamed = ReadAll(dir.Write("dump", Gzip(json)));  // no .gz: sniffed, then format sniffed
  EXPECT_TRUE(unnamed.gzip);
  EXPECT_EQ(unnamed.format, Format::kJsonl);
  EXPECT_EQ(unnamed.reviews.size(), 2u);
}

TEST(Gzip, ConcatenatedMembersAreReadInSequence) {
  TempDir dir;
  auto result = ReadAll(dir.Write(
      "r.csv.gz", Gzip("review,rating\nfirst,5\n") + Gzip("second,4\n") + Gzip("third,3\n")));
  ASSERT_EQ(result.rejects.size(), 0u);
  ASSERT_EQ(result.reviews.size(), 3u);
  EXPECT_EQ(result.reviews[2].text, "third");
  EXPECT_EQ(result.reviews[2].line, 4u);
}

TEST(Gzip, LargeInputSpansManyChunks) {
  TempDir dir;
  std::string json;
  for (int i = 0; i < 20000; ++i)
    json += "{\"text\": \"review number " + std::to_string(i) + "\"}\n";
  ReadOptions options;
  options.chunk_bytes = 4096;
  auto result = ReadAll(dir.Write("r.jsonl.gz", Gzip(json)), options);
  ASSERT_EQ(result.reviews.size(), 20000u);
  EXPECT_EQ(result.reviews.back().text, "review number 19999");
}

TEST(Gzip, TruncatedStreamYieldsARejectAtTheLineReachedAndEnds) {
  TempDir dir;
  std::string json;
  for (int i = 0; i < 2000; ++i) json += "{\"text\": \"line " + std::to_string(i) + "\"}\n";
  const std::string gz = Gzip(json);
  auto result = ReadAll(dir.Write("r.jsonl.gz", gz.substr(0, gz.size() / 2)));
  ASSERT_EQ(result.rejects.size(), 1u);
  const Reject& reject = result.rejects[0];
  EXPECT_THAT(reject.reason, StartsWith("truncated gzip stream"));
  EXPECT_EQ(reject.line, result.reviews.size() + 1);
  EXPECT_GT(result.reviews.size(), 100u);
  EXPECT_LT(result.reviews.size(), 2000u);
}

TEST(Gzip, StreamCutInsideTheHeaderIsTruncated) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl.gz", Gzip("{\"text\": \"x\"}\n").substr(0, 5)));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_EQ(result.rejects[0].line, 1u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("truncated gzip stream"));
}

TEST(Gzip, CorruptDataYieldsARejectAndEnds) {
  TempDir dir;
  std::string gz = Gzip(std::string(5000, 'z') + "\n");
  for (size_t i = 12; i < gz.size() - 8; ++i) gz[i] = static_cast<char>(gz[i] ^ 0x5A);
  auto result = ReadAll(dir.Write("r.txt.gz", gz));
  ASSERT_EQ(result.rejects.size(), 1u);
  EXPECT_THAT(result.rejects[0].reason, StartsWith("corrupt gzip data (zlib: "));
  EXPECT_EQ(result.rejects[0].line, 1u);
}

TEST(ReviewReader, MissingFileIsAReadErrorNamingThePath) {
  EXPECT_THROW(ReviewReader::Open("/nonexistent/dir/reviews.jsonl", {}), ReadError);
  EXPECT_EQ(ReadErrorOf("/nonexistent/dir/reviews.jsonl"),
            "/nonexistent/dir/reviews.jsonl: cannot open: No such file or directory");
}

TEST(ReviewReader, DirectoryIsAReadError) {
  TempDir dir;
  EXPECT_EQ(ReadErrorOf(dir.path().string()), dir.path().string() + ": is a directory, not a file");
}

TEST(ReviewReader, ParquetFileIsAReadErrorSayingHowToConvertIt) {
  TempDir dir;
  const std::string path =
      dir.Write("reviews.parquet", std::string("PAR1\x15\x04\x15\x00\x00PAR1", 13));
  const std::string message = ReadErrorOf(path);
  EXPECT_THAT(message, StartsWith(path + ": Parquet is not supported; convert it to JSON Lines"));
  EXPECT_THAT(message, HasSubstr("duckdb -c"));
  EXPECT_THAT(message, HasSubstr("pandas.read_parquet"));
  // Whatever the name or the format asked for.
  ReadOptions csv;
  csv.format = Format::kCsv;
  EXPECT_THAT(ReadErrorOf(dir.Write("dump.csv", "PAR1 not really"), csv),
              HasSubstr("Parquet is not supported"));
}

TEST(ReviewReader, EmptyFileHasNoRecords) {
  TempDir dir;
  auto result = ReadAll(dir.Write("r.jsonl", ""));
  EXPECT_TRUE(result.reviews.empty());
  EXPECT_TRUE(result.rejects.empty());
}

TEST(ReviewReader, ReportsCompressedBytesReadAndTheFileSize) {
  TempDir dir;
  std::string json;
  for (int i = 0; i < 5000; ++i) json += "{\"text\": \"same words again and again\"}\n";
  const std::string gz = Gzip(json);
  const std::string path = dir.Write("r.jsonl.gz", gz);
  auto reader = ReviewReader::Open(path, {});
  EXPECT_EQ(reader->total_bytes(), gz.size());
  Record record;
  size_t n = 0;
  while (reader->Next(&record)) ++n;
  EXPECT_EQ(n, 5000u);
  EXPECT_EQ(reader->bytes_read(), gz.size());  // compressed bytes, not the 190 KB of JSON
}

// A dump of about 3 MB in `format` whose i-th record ends at ends[i] (file offsets); kJsonl with
// `array` is one JSON array (its elements end after their comma).
std::string ProgressDump(Format format, std::vector<uint64_t>* ends, bool array = false) {
  std::string dump = format == Format::kCsv ? "review,rating\n" : array ? "[\n" : "";
  for (int i = 0; dump.size() < (3u << 20); ++i) {
    const std::string text = "review " + std::to_string(i) + std::string(i % 300, 'x');
    if (format == Format::kJsonl) dump += "{\"text\": \"" + text + (array ? "\"},\n" : "\"}\n");
    if (format == Format::kCsv) dump += "\"" + text + "\nsecond line\",4\n";
    if (format == Format::kText) dump += text + "\n";
    ends->push_back(array ? dump.size() - 1 : dump.size());
  }
  if (array) dump += "{\"text\": \"last\"}]";
  if (array) ends->push_back(dump.size());
  return dump;
}

TEST(ReviewReader, BytesReadFollowsTheRecordsReturned) {
  TempDir dir;
  for (auto [format, array] : {std::pair{Format::kJsonl, false}, std::pair{Format::kJsonl, true},
                               std::pair{Format::kCsv, false}, std::pair{Format::kText, false}}) {
    SCOPED_TRACE(std::string(FormatName(format)) + (array ? " array" : ""));
    std::vector<uint64_t> ends;
    const std::string dump = ProgressDump(format, &ends, array);
    ReadOptions options;
    options.format = array ? Format::kJson : format;
    auto reader = ReviewReader::Open(dir.Write(array ? "r.json" : "r", dump), options);
    Record record;
    size_t i = 0;
    while (reader->Next(&record)) {
      ASSERT_TRUE(record.review.has_value());
      ASSERT_LT(i, ends.size());
      // Never behind the record just returned, never more than 64 KiB ahead of it.
      ASSERT_GE(reader->bytes_read(), ends[i]) << i;
      ASSERT_LE(reader->bytes_read(), ends[i] + (64 << 10)) << i;
      ++i;
    }
    EXPECT_EQ(i, ends.size());
    EXPECT_EQ(reader->bytes_read(), dump.size());
  }
}

TEST(ReviewReader, GzipBytesReadAdvancesSteadilyWithTheRecords) {
  TempDir dir;
  std::vector<uint64_t> ends;
  const std::string gz = Gzip(ProgressDump(Format::kJsonl, &ends));
  auto reader = ReviewReader::Open(dir.Write("r.jsonl.gz", gz), {});
  Record record;
  uint64_t last = 0;
  size_t i = 0;
  while (reader->Next(&record)) {
    const uint64_t now = reader->bytes_read();
    ASSERT_GE(now, last) << i;
    // Compressed progress tracks the decoded position: within 64 KiB of its share of the file.
    const double share = static_cast<double>(ends[i]) / static_cast<double>(ends.back());
    ASSERT_NEAR(static_cast<double>(now), share * static_cast<double>(gz.size()), 64 << 10) << i;
    last = now;
    ++i;
  }
  EXPECT_EQ(reader->bytes_read(), gz.size());
}

TEST(ReviewReader, ReadsStandardInputSniffingGzipAndFormat) {
  TempDir dir;
  const std::string path = dir.Write("in", Gzip("review,rating\nfrom stdin,2\n"));
  int saved = ::dup(0);
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ::dup2(fd, 0);
  ::close(fd);
  auto result = ReadAll("-");
  ::dup2(saved, 0);
  ::close(saved);
  EXPECT_TRUE(result.gzip);
  EXPECT_EQ(result.format, Format::kCsv);
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].source, "-");
  EXPECT_EQ(result.reviews[0].text, "from stdin");
}

TEST(ReviewReader, PipeHasNoKnownSize) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = "{\"text\": \"piped\"}\n";
  ASSERT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  int saved = ::dup(0);
  ::dup2(fds[0], 0);
  ::close(fds[0]);
  auto result = ReadAll("-");
  ::dup2(saved, 0);
  ::close(saved);
  EXPECT_EQ(result.total_bytes, 0u);
  EXPECT_EQ(result.bytes_read, text.size());
  ASSERT_EQ(result.reviews.size(), 1u);
  EXPECT_EQ(result.reviews[0].text, "piped");
}

TEST(ReviewReader, ExplicitJsonlFormatReadsLinesOnStdinAndUnnamedFilesAsForTheirJsonlName) {
  TempDir dir;
  const std::string dump = "[{\"text\": \"a\"}, {\"text\": \"b\"}]\n{\"text\": \"c\"}\n";
  ReadOptions options;
  options.format = Format::kJsonl;
  for (const char* name : {"x.jsonl", "x"}) {
    auto reader = ReviewReader::Open(dir.Write(name, dump), options);
    Record record;
    std::vector<bool> reviews;
    while (reader->Next(&record)) reviews.push_back(record.review.has_value());
    EXPECT_EQ(reviews, (std::vector<bool>{false, true})) << name << ": one line each";
  }
}

}  // namespace
}  // namespace revsum
