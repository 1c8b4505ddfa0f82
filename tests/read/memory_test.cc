// Memory stays bounded by ReadOptions::max_record_bytes, however many oversized records a dump
// holds: 120 records of 12 MB in a .gz (1.4 GB decoded), each rejected as too long.
#include <sys/resource.h>

#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "read_test_support.h"
#include "revsum/read.h"

namespace revsum {
namespace {

using ::testing::StartsWith;
using testing::TempDir;

// Peak resident set size of this process so far, in bytes.
uint64_t PeakRss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

// Current resident set size, in bytes.
uint64_t CurrentRss() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

// Writes `records` records made by `record(i, body)` to a gzip file, streaming (the 1.4 GB is
// never held), and returns its path.
template <typename MakeRecord>
std::string WriteGzip(const TempDir& dir, const std::string& name, int records, MakeRecord record) {
  const std::string path = (dir.path() / name).string();
  gzFile out = gzopen(path.c_str(), "wb1");
  EXPECT_NE(out, nullptr);
  const std::string body(1 << 20, 'x');
  for (int i = 0; i < records; ++i) record(i, body, out);
  gzclose(out);
  return path;
}

void Put(gzFile out, std::string_view bytes) {
  ASSERT_EQ(gzwrite(out, bytes.data(), static_cast<unsigned>(bytes.size())),
            static_cast<int>(bytes.size()));
}

// AddressSanitizer keeps freed blocks in a quarantine (256 MB by default) before reusing them, so
// under it RSS grows by what was freed too; the reader's own bound is checked in the release build.
// (GCC says so with __SANITIZE_ADDRESS__, clang with __has_feature.)
#if defined(__SANITIZE_ADDRESS__)
#define REVSUM_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REVSUM_UNDER_ASAN 1
#endif
#endif
#if defined(REVSUM_UNDER_ASAN)
constexpr uint64_t kRssGrowthBound = 600ull << 20;
#else
constexpr uint64_t kRssGrowthBound = 200ull << 20;
#endif

void ExpectEveryRecordRejectedInBoundedMemory(const std::string& path, int records,
                                              const ReadOptions& options) {
  const uint64_t peak_before = PeakRss();
  const uint64_t rss_before = CurrentRss();
  uint64_t rss_max = rss_before;
  auto reader = ReviewReader::Open(path, options);
  Record record;
  int rejects = 0, reviews = 0;
  while (reader->Next(&record)) {
    if (record.reject) {
      ++rejects;
      EXPECT_THAT(record.reject->reason, StartsWith("record too long: "));
    } else {
      ++reviews;
    }
    rss_max = std::max(rss_max, CurrentRss());
  }
  EXPECT_EQ(rejects, records);
  EXPECT_EQ(reviews, 1);  // the short last record
  EXPECT_LT(rss_max - rss_before, kRssGrowthBound);
  EXPECT_LT(PeakRss() - peak_before, kRssGrowthBound);
}

TEST(Memory, OversizedJsonLinesInGzipAreRejectedInBoundedMemory) {
  TempDir dir;
  const int kRecords = 120;
  const std::string path =
      WriteGzip(dir, "big.jsonl.gz", kRecords, [](int i, const std::string& body, gzFile out) {
        Put(out, "{\"text\": \"");
        for (int mb = 0; mb < 12; ++mb) Put(out, body);
        Put(out, "\"}\n");
        if (i == kRecords - 1) Put(out, "{\"text\": \"short\"}\n");
      });
  ReadOptions options;
  options.max_record_bytes = 8 << 20;
  ExpectEveryRecordRejectedInBoundedMemory(path, kRecords, options);
}

TEST(Memory, OversizedQuotedCsvFieldsInGzipAreRejectedInBoundedMemory) {
  TempDir dir;
  const int kRecords = 120;
  const std::string path =
      WriteGzip(dir, "big.csv.gz", kRecords, [](int i, const std::string& body, gzFile out) {
        if (i == 0) Put(out, "text,rating\n");
        Put(out, "\"");
        for (int mb = 0; mb < 12; ++mb) {
          Put(out, body);
          Put(out, mb % 2 ? "\n" : ",\"\",");  // line breaks, commas and quotes inside the field
        }
        Put(out, "\",5\n");
        if (i == kRecords - 1) Put(out, "short,4\n");
      });
  ReadOptions options;
  options.max_record_bytes = 8 << 20;
  ExpectEveryRecordRejectedInBoundedMemory(path, kRecords, options);
}

}  // namespace
}  // namespace revsum
