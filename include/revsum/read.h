// Streaming readers for review dumps: JSON Lines, CSV/TSV (RFC 4180) and plain text, each
// optionally gzip-compressed. A reader is pull-based: Next() yields one Record at a time, and
// memory stays bounded, whatever the dump's size, by one read chunk plus at most about twice
// ReadOptions::max_record_bytes (a few MB for ordinary dumps; ~36 MB peak RSS measured while
// rejecting a 50 MB line with the 16 MiB default).
//
//   revsum::ReadOptions options;
//   options.fields.product = "cat";
//   auto reader = revsum::ReviewReader::Open("reviews.csv.gz", options);
//   revsum::Record record;
//   while (reader->Next(&record)) {
//     if (record.review) Use(*record.review); else Keep(*record.reject);
//   }
//
// Nothing is dropped silently: every record that cannot become a Review comes back as a Reject
// naming the source, the line where the record starts and the reason. Blank lines are not records.
//
// What is rejected (Reject::reason starts with the quoted text):
//   - "cannot open ..."               missing/unreadable file or a directory (line 0, then end)
//   - "record too long: N bytes"      a record larger than max_record_bytes; reading resumes at the
//                                     next line (only the first max_raw_bytes are kept as raw)
//   - "invalid UTF-8 at byte N"       N is the 0-based offset of the first bad byte in the record
//   - "binary data: NUL byte at byte N"
//   - "malformed JSON: ..."           with simdjson's own error message
//   - "JSON value is not an object"   e.g. an array or a number on its own line
//   - "missing text field ..." / "empty text field ..." (a text of only whitespace is empty)
//   - "text field ... is not a string"
//   - "rating is not a number: ..."   DECISION: a rating that is present but not numeric rejects
//                                     the record, so a wrong --rating-field is noticed at once.
//                                     Numbers written as strings ("5.0") are accepted; null or ""
//                                     mean "no rating".
//   - "time is not a number: ..."     likewise for the time field
//   - "row has N fields, header has M" (CSV/TSV)
//   - "unterminated quoted field at end of file" (CSV/TSV)
//   - "no text column ..." / "no column ..." (CSV/TSV header; the rest of the file is not read)
//   - "truncated gzip stream ..." / "corrupt gzip data ..." (the file ends there)
//   - "read error ..."                an I/O error (the file ends there)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "revsum/review.h"

namespace revsum {

enum class Format {
  kAuto,   // from the extension (.jsonl/.json/.ndjson, .csv, .tsv, .txt; optionally + .gz), else
           // sniffed from the first bytes ('{' -> JSONL, a tab in line 1 -> TSV, a comma -> CSV)
  kJsonl,  // one JSON object per line (.json is read as JSON Lines too, not as one JSON array)
  kCsv,    // RFC 4180, comma-separated, first row is the header
  kTsv,    // RFC 4180 quoting, tab-separated, first row is the header
  kText,   // one review per line, or per blank-line-separated paragraph
};

// "auto", "jsonl", "csv", "tsv", "text".
std::string_view FormatName(Format format);

// Parses a FormatName() (also "json", "ndjson", "txt"); nullopt for anything else.
std::optional<Format> ParseFormat(std::string_view name);

// The format implied by a path's extension, ignoring a trailing ".gz"; kAuto when there is none.
Format FormatFromPath(std::string_view path);

// Names of the fields (JSON keys or CSV/TSV header names) to read. An empty name means
// auto-detection, per JSON record or once per CSV header, from these candidates in order:
//   text:    reviewText, text, review, content, comment, body
//   product: parent_asin, asin, product, product_id, cat, category
//   id:      review_id, reviewId, id; if none, "<user_id>:<timestamp>" (Amazon 2023) or
//            "<reviewerID>:<unixReviewTime>" (Amazon 2018) from the raw values, when both are
//            present
//   rating:  rating, overall, stars, score, label
//   title:   title, summary
//   time:    timestamp, unixReviewTime, unix_time
// CSV/TSV header names match exactly first, then ignoring ASCII case. A name given here that is
// missing from a CSV/TSV header is an error (one Reject for the header); in JSON it only means the
// record has no such value (except for text, which every record needs).
struct FieldMap {
  std::string text;     // the review body (required in every record)
  std::string product;  // product key
  std::string id;       // the dump's review id
  std::string rating;   // star rating or label, a number
  std::string title;    // title / summary line
  std::string time;     // unix time; values of magnitude >= 1e11 are milliseconds, else seconds
};

struct ReadOptions {
  // The dump's format; kAuto decides from the extension or, failing that (and for stdin "-"),
  // from the first bytes. Gzip is always recognised by its magic bytes, whatever the name.
  Format format = Format::kAuto;

  // Field names; empty members are auto-detected (see FieldMap).
  FieldMap fields;

  // kText only: false = one review per non-blank line; true = reviews are paragraphs separated by
  // blank lines (a paragraph's lines are joined with "\n").
  bool blank_line_separated = false;

  // A record (a line, a CSV record spanning lines, or a text paragraph) longer than this is
  // rejected with "record too long" without being buffered whole.
  size_t max_record_bytes = 16 << 20;

  // At most this many bytes of a bad record are kept in Reject::raw.
  size_t max_raw_bytes = 64 << 10;

  // Bytes read from the file per read() call (uncompressed bytes per step for gzip); at least 4096.
  size_t chunk_bytes = 1 << 20;
};

// One record out of a dump: exactly one of review / reject is set.
struct Record {
  std::optional<Review> review;
  std::optional<Reject> reject;
};

// Reads one dump. Not thread-safe: use one reader per thread (a reader per file is cheap).
class ReviewReader {
 public:
  // Opens `path` ("-" = standard input). Never returns null: a file that cannot be opened yields
  // one Reject (line 0) from Next() and then the end.
  static std::unique_ptr<ReviewReader> Open(const std::string& path, const ReadOptions& options);

  virtual ~ReviewReader();

  // Sets *out to the next record and returns true, or returns false at the end of the input.
  // REQUIRES: out != nullptr.
  virtual bool Next(Record* out) = 0;

  // Bytes consumed from the file so far (compressed bytes for gzip), for progress reports.
  virtual uint64_t bytes_read() const = 0;

  // The file's size in bytes when known (a regular file), 0 for standard input and pipes.
  virtual uint64_t total_bytes() const = 0;

  // The format being read (never kAuto once Open() returned; kText if nothing could be read).
  virtual Format format() const = 0;

  // True when the input is gzip-compressed.
  virtual bool gzip() const = 0;

 protected:
  ReviewReader() = default;
};

}  // namespace revsum
