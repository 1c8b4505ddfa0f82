// Fuzzes the review readers (revsum/read.h) with arbitrary dump bytes, in every format.
//
// Input layout: byte 0 selects the ReadOptions (see Options below); the rest is the dump. The dump
// is written to a memfd and read through /proc/self/fd/N, once per format (auto, jsonl, csv, tsv,
// text), twice each:
//   - the reference read: the plain bytes in one 64 KiB chunk;
//   - the variant read: the same bytes with the smallest chunk (4096 bytes, so records straddle
//     chunk boundaries), gzip-compressed when byte 0 asks for it (one or two gzip members).
// Both must yield the same records (except when the dump itself starts with the gzip magic bytes,
// in which case only the invariants are checked). Invariants of every record:
//   - exactly one of review / reject is set, and the source is the path given to Open;
//   - a Review has a 1-based line within the dump, non-blank valid UTF-8 text, valid UTF-8 title,
//     product and id without NUL bytes, and a finite rating;
//   - a Reject has a reason, a line within the dump and at most max_raw_bytes of raw bytes;
//   - records come in non-decreasing line order, there are no more of them than lines (+ a few
//     for header and stream errors), and Next() keeps returning false at the end.
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "revsum/read.h"

namespace {

using revsum::fuzz::Escape;
using revsum::fuzz::IsValidUtf8;

// A memfd holding one file's bytes; Open() reads it by path like any dump.
class MemFile {
 public:
  explicit MemFile(const char* name) {
    fd_ = memfd_create(name, MFD_CLOEXEC);
    FUZZ_CHECK(fd_ >= 0, "memfd_create failed");
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  void Set(std::string_view bytes) {
    FUZZ_CHECK(ftruncate(fd_, 0) == 0, "ftruncate failed");
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n =
          pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
      FUZZ_CHECK(n > 0, "pwrite failed");
      done += static_cast<size_t>(n);
    }
  }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// gzip-compresses `bytes` as one member, or as two members split in the middle.
std::string Gzip(std::string_view bytes, bool two_members) {
  auto member = [](std::string_view part, std::string* out) {
    z_stream zs{};
    FUZZ_CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK,
               "deflateInit2 failed");
    std::string buf(deflateBound(&zs, part.size()) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
    zs.avail_in = static_cast<uInt>(part.size());
    zs.next_out = reinterpret_cast<Bytef*>(buf.data());
    zs.avail_out = static_cast<uInt>(buf.size());
    FUZZ_CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END, "deflate did not finish");
    buf.resize(zs.total_out);
    deflateEnd(&zs);
    out->append(buf);
  };
  std::string out;
  if (two_members && bytes.size() >= 2) {
    member(bytes.substr(0, bytes.size() / 2), &out);
    member(bytes.substr(bytes.size() / 2), &out);
  } else {
    member(bytes, &out);
  }
  return out;
}

// What byte 0 of the input selects.
struct Options {
  revsum::ReadOptions read;
  bool gzip_variant = false;
  bool two_members = false;

  explicit Options(uint8_t b) {
    static constexpr size_t kMaxRecord[] = {16 << 20, 64, 300, 2000};
    read.max_record_bytes = kMaxRecord[b & 3];
    if (b & 4) read.max_raw_bytes = 16;
    read.blank_line_separated = (b & 8) != 0;
    gzip_variant = (b & 16) != 0;
    two_members = (b & 32) != 0;
    if (b & 64) {  // explicit field names instead of auto-detection
      read.fields.text = "text";
      read.fields.product = "product";
      read.fields.rating = "rating";
      read.fields.id = "id";
      read.fields.time = "time";
    }
  }
};

bool IsBlankText(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (s.substr(i, 2) == "\xC2\xA0") {
      i += 2;
    } else if (s.substr(i, 3) == "\xE3\x80\x80" || s.substr(i, 3) == "\xEF\xBB\xBF") {
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

std::string Describe(const revsum::Record& r) {
  if (r.review) {
    return "review line " + std::to_string(r.review->line) + " id '" +
           Escape(r.review->external_id) + "' product '" + Escape(r.review->product) + "' title '" +
           Escape(r.review->title) + "' text '" + Escape(r.review->text) + "'";
  }
  if (r.reject) {
    return "reject line " + std::to_string(r.reject->line) + " reason '" +
           Escape(r.reject->reason) + "' raw '" + Escape(r.reject->raw) + "'";
  }
  return "empty record";
}

bool SameRecord(const revsum::Record& a, const revsum::Record& b) {
  if (a.review.has_value() != b.review.has_value()) return false;
  if (a.review) {
    const revsum::Review& x = *a.review;
    const revsum::Review& y = *b.review;
    return x.line == y.line && x.external_id == y.external_id && x.product == y.product &&
           x.rating == y.rating && x.title == y.title && x.text == y.text && x.time == y.time;
  }
  const revsum::Reject& x = *a.reject;
  const revsum::Reject& y = *b.reject;
  return x.line == y.line && x.reason == y.reason && x.raw == y.raw;
}

// Reads every record of `path`, checking the per-record invariants.
std::vector<revsum::Record> ReadAll(const std::string& path, const revsum::ReadOptions& options,
                                    uint64_t max_line, uint64_t max_records, bool expect_gzip) {
  auto reader = revsum::ReviewReader::Open(path, options);
  FUZZ_CHECK(reader != nullptr, "Open returned null");
  FUZZ_CHECK(reader->format() != revsum::Format::kAuto, "format() is kAuto after Open");
  FUZZ_CHECK(reader->gzip() == expect_gzip, "gzip() does not match the magic bytes");
  if (options.format != revsum::Format::kAuto) {
    // JSON is an array or, when it does not start with '[', JSON Lines.
    FUZZ_CHECK(reader->format() == options.format || (options.format == revsum::Format::kJson &&
                                                      reader->format() == revsum::Format::kJsonl),
               "format() differs from the one asked for");
  }
  std::vector<revsum::Record> records;
  revsum::Record record;
  uint64_t previous_line = 0;
  while (reader->Next(&record)) {
    const std::string what = Describe(record);
    FUZZ_CHECK(record.review.has_value() != record.reject.has_value(),
               "exactly one of review/reject must be set: " + what);
    if (record.review) {
      const revsum::Review& r = *record.review;
      FUZZ_CHECK(r.source == path, "review source is not the path: " + what);
      FUZZ_CHECK(r.line >= 1 && r.line <= max_line, "review line out of range: " + what);
      FUZZ_CHECK(!r.text.empty() && !IsBlankText(r.text), "blank review text: " + what);
      for (const std::string* field : {&r.text, &r.title, &r.product, &r.external_id}) {
        FUZZ_CHECK(IsValidUtf8(*field), "invalid UTF-8 in a review field: " + what);
        FUZZ_CHECK(field->find('\0') == std::string::npos, "NUL in a review field: " + what);
      }
      if (r.rating) FUZZ_CHECK(std::isfinite(*r.rating), "rating not finite: " + what);
      FUZZ_CHECK(r.line >= previous_line, "records out of line order: " + what);
      previous_line = r.line;
    } else {
      const revsum::Reject& r = *record.reject;
      FUZZ_CHECK(r.source == path, "reject source is not the path: " + what);
      FUZZ_CHECK(!r.reason.empty(), "reject without a reason: " + what);
      FUZZ_CHECK(r.line >= 1 && r.line <= max_line, "reject line out of range: " + what);
      FUZZ_CHECK(r.raw.size() <= options.max_raw_bytes, "reject raw over max_raw_bytes: " + what);
      FUZZ_CHECK(r.line >= previous_line, "records out of line order: " + what);
      previous_line = r.line;
    }
    records.push_back(record);
    // One record per line, except that a JSON array holds a value per comma on a line: each bad
    // element of `[1, 2, {...}]` is a reject of its own.
    FUZZ_CHECK(records.size() <= max_records, "more records than lines and commas: " + what);
  }
  FUZZ_CHECK(!reader->Next(&record), "Next() returned true after returning false");
  FUZZ_CHECK(!record.review && !record.reject, "Next() left a record set at the end");
  return records;
}

}  // namespace

// The reference read's chunk: larger than any input (-max_len), so that it sees the whole dump at
// once, but smaller than the 1 MiB default, which would make every read allocate (and
// AddressSanitizer poison) megabytes and slow the target down 10x.
constexpr size_t kReferenceChunk = 64 << 10;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static MemFile plain("fuzz_read_plain");
  static MemFile variant("fuzz_read_variant");
  const Options options(data[0]);
  const std::string_view dump(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool magic = dump.size() >= 2 && static_cast<unsigned char>(dump[0]) == 0x1f &&
                     static_cast<unsigned char>(dump[1]) == 0x8b;
  // A dump with the gzip magic is decompressed by the reader: its lines are unknown here.
  const uint64_t max_line =
      magic ? UINT64_MAX / 4
            : 1 + static_cast<uint64_t>(std::count(dump.begin(), dump.end(), '\n') +
                                        std::count(dump.begin(), dump.end(), '\r'));
  const uint64_t max_records =
      magic ? UINT64_MAX / 4
            : max_line + 2 + static_cast<uint64_t>(std::count(dump.begin(), dump.end(), ','));
  plain.Set(dump);
  variant.Set(options.gzip_variant ? Gzip(dump, options.two_members) : std::string(dump));

  for (revsum::Format format :
       {revsum::Format::kAuto, revsum::Format::kJsonl, revsum::Format::kJson, revsum::Format::kCsv,
        revsum::Format::kTsv, revsum::Format::kText}) {
    revsum::ReadOptions read = options.read;
    read.format = format;
    read.chunk_bytes = kReferenceChunk;
    // A dump unreadable as asked (a Parquet magic, a CSV header without the named or a text
    // column, a named JSON field no record has) is a ReadError, for the plain and chunked reads
    // alike; a gzip variant may differ (Parquet is only recognised uncompressed).
    std::vector<revsum::Record> reference, other;
    bool reference_failed = false, other_failed = false;
    try {
      reference = ReadAll(plain.path(), read, max_line, max_records, magic);
    } catch (const revsum::ReadError&) {
      reference_failed = true;
    }
    read.chunk_bytes = 4096;
    try {
      other = ReadAll(variant.path(), read, max_line, max_records, magic || options.gzip_variant);
    } catch (const revsum::ReadError&) {
      other_failed = true;
    }
    if (magic && options.gzip_variant) continue;  // different bytes reach the parser
    if (reference_failed || other_failed) {
      FUZZ_CHECK(options.gzip_variant || reference_failed == other_failed,
                 "a ReadError for only one of the plain and chunked reads");
      continue;
    }
    const std::string where = " (format " + std::string(revsum::FormatName(format)) +
                              (options.gzip_variant ? ", gzip" : "") + ")";
    FUZZ_CHECK(reference.size() == other.size(),
               "chunked/gzip read gives " + std::to_string(other.size()) + " records, plain " +
                   std::to_string(reference.size()) + where);
    for (size_t i = 0; i < reference.size(); ++i) {
      FUZZ_CHECK(SameRecord(reference[i], other[i]),
                 "record " + std::to_string(i) + " differs" + where + ": plain " +
                     Describe(reference[i]) + " vs " + Describe(other[i]));
    }
  }
  return 0;
}
