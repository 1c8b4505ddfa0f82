// Streaming readers for review dumps: JSON Lines, one JSON array of objects, CSV/TSV (RFC 4180)
// and plain text, each optionally gzip-compressed. A reader is pull-based: Next() yields one
// Record at a time.
//
//   revsum::ReadOptions options;
//   options.fields.product = "cat";
//   auto reader = revsum::ReviewReader::Open("reviews.csv.gz", options);  // may throw ReadError
//   revsum::Record record;
//   while (reader->Next(&record)) {                                       // may throw ReadError
//     if (record.review) Use(*record.review); else Keep(*record.reject);
//   }
//
// Memory bound: one read chunk (chunk_bytes) plus, per record, at most about twice
// ReadOptions::max_record_bytes, whatever the dump's size; a record over max_record_bytes is
// followed to its end without being buffered (only max_raw_bytes of it are kept). JSON readers
// also hold the look-ahead (below): at most 1,000 records or 8 MiB of them. Measured: 120
// records of 12 MB in a .gz with an 8 MiB limit stay under 200 MB of RSS growth
// (tests/read/memory_test.cc); ~36 MB peak RSS rejecting a 50 MB line with the 16 MiB default.
//
// Formats and detection (Format::kAuto): the extension (.jsonl/.ndjson -> JSON Lines, .json ->
// JSON, .csv, .tsv, .txt, each optionally + .gz), else the first bytes ('{' -> JSON Lines, '[' ->
// JSON, a tab in line 1 -> TSV, a comma -> CSV, else text). Gzip is recognised by its magic bytes
// whatever the name. JSON (a .json name, --format json, or a leading '[') whose first non-space
// byte is '[' is read as one array of objects (jq -s, pandas to_json(orient="records"), Hugging
// Face exports), streamed element by element; otherwise as JSON Lines. JSON Lines (.jsonl,
// .ndjson, --format jsonl) is always read line by line, so the same bytes read the same from a
// file and from stdin with the format its name implies. Lines end at "\n" or "\r\n"; a file whose
// first line ends with a lone "\r" (classic Mac OS exports) has "\r" line ends too. A UTF-8 BOM
// is skipped.
//
// Look-ahead (JSON Lines and JSON arrays): before the first record is returned, the first 1,000
// records (or those in the first 8 MiB) are read and held, to check the FieldMap: a field named
// in it (text, product, id, rating, title, time) that none of them has is a ReadError; when none of
// them has any product candidate, ReadOptions::on_notice is told once (all reviews then go under
// product ""). A CSV/TSV header is checked the same way when it is read.
//
// Nothing is dropped silently: every record that cannot become a Review comes back as a Reject
// naming the source, the line where the record starts and the reason. Blank lines are not
// records. What is wrong with one record is a Reject and reading goes on; what makes the whole
// dump unreadable as asked is a ReadError (a std::runtime_error whose what() names the path).
//
// Thrown as ReadError, by Open():
//   - "PATH: cannot open: <strerror>"  a missing or unreadable file
//   - "PATH: is a directory, not a file"
//   - "PATH: Parquet is not supported; convert it to JSON Lines first, e.g. with duckdb ..."
//                                      (the file starts with the magic bytes "PAR1")
// and by Next(), before any record is returned:
//   - "PATH:LINE: no column "X" for the product in the header (...)"  (CSV/TSV; any named field)
//   - "PATH:LINE: no text column in the header (...); expected one of ..."  (CSV/TSV)
//   - "PATH: no record has the product field "X" (looked at the first N records); the first
//     record has the keys: ..."  (JSON; any named field but text)
//
// Rejected (Reject::reason starts with the quoted text):
//   - "record too long: N bytes (limit M)"  a record larger than max_record_bytes, N its full
//                                     size; reading resumes after its real end (for CSV/TSV the
//                                     end of a quoted field, for a JSON array the element's end)
//   - "invalid UTF-8 at byte N"       N is the 0-based offset of the first bad byte in the record
//   - "binary data: NUL byte at byte N"
//   - "malformed JSON: ..."           with simdjson's own error message
//   - "JSON value is not an object"   e.g. an array or a number on its own line or as an element
//   - "unterminated JSON array at end of file" / "content after the end of the JSON array"
//   - "missing text field ..." / "empty text field ..." (a text of only whitespace is empty)
//   - "text field ... is not a string"
//   - "rating is not a number: ..."   DECISION: a rating that is present but not numeric rejects
//                                     the record, so a wrong --rating-field is noticed at once.
//                                     Numbers written as strings ("5.0") are accepted; null or ""
//                                     mean "no rating".
//   - "rating out of range: "FIELD" is 1e+308 (accepted: -1000000 to 1000000)"  no rating scale
//                                     reaches it; one such value would overflow a product's mean
//                                     or stretch the dump's rating scale for every other review.
//   - "time is not a number or a date: "FIELD" is "VALUE""  for the field named by --time-field
//                                     (FieldMap::time) only. A time field found by its usual
//                                     name whose value is not a time keeps the review without a
//                                     time: an optional field in a form revsum does not read must
//                                     not sink the dump; ReadOptions::on_notice is told once, at
//                                     the end, how many reviews kept no time and the first value.
//   - "row has N fields, header has M" (CSV/TSV)
//   - "unterminated quoted field at end of file" (CSV/TSV)
//   - "truncated gzip stream ..." / "corrupt gzip data ..." (the file ends there)
//   - "read error ..."                an I/O error (the file ends there)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "revsum/error.h"
#include "revsum/review.h"

namespace revsum {

// A problem with the dump as a whole, not with one record: it cannot be opened, is a directory or
// a Parquet file, or its header or field names do not fit the FieldMap. what() names the path and
// the problem.
class ReadError : public Error {
 public:
  using Error::Error;
};

enum class Format {
  kAuto,   // from the extension (.jsonl/.ndjson, .json, .csv, .tsv, .txt; optionally + .gz), else
           // sniffed from the first bytes ('{' -> JSON Lines, '[' -> JSON, a tab in line 1 ->
           // TSV, a comma -> CSV, else text)
  kJsonl,  // one JSON object per line
  kJson,   // one JSON array of objects when it starts with '[', else JSON Lines (see the top);
           // format() reports kJson for an array, kJsonl for lines
  kCsv,    // RFC 4180, comma-separated, first row is the header
  kTsv,    // RFC 4180 quoting, tab-separated, first row is the header
  kText,   // one review per line, or per blank-line-separated paragraph
};

// "auto", "jsonl", "json", "csv", "tsv", "text".
std::string_view FormatName(Format format);

// Parses a FormatName() (also "ndjson", "txt"); nullopt for anything else.
std::optional<Format> ParseFormat(std::string_view name);

// The format implied by a path's extension, ignoring a trailing ".gz"; kAuto when there is none.
Format FormatFromPath(std::string_view path);

// Names of the fields (JSON keys or CSV/TSV header names) to read. An empty name means
// auto-detection, per JSON record or once per CSV header, from these candidates in order:
//   text:    reviewText, text, review, content, comment, body (CSV: review first)
//   product: parent_asin, asin, product, product_id, business_id, cat, category
//            (CSV: product first)
//   id:      review_id, reviewId, id; if none, the author: user_id (Amazon 2023, Yelp) or
//            reviewerID (Amazon 2018), as "<user>:<time>" with the time field's raw value when
//            the record has one (e.g. "AGKHL...:1588687728923"), else "<user>" alone, so two
//            authors' identical reviews of one product stay two reviews
//   rating:  rating, overall, stars, score, label (CSV: label before stars)
//   title:   title, summary
//   time:    timestamp, unixReviewTime, unix_time, date
// Known shapes: Amazon 2018 (reviewText, asin, overall, reviewerID, unixReviewTime), Amazon 2023
// (text, parent_asin, rating, user_id, timestamp in ms), Yelp (text, business_id, stars,
// review_id, date "2018-07-07 22:09:11").
// CSV/TSV header names match exactly first, then ignoring ASCII case. A name given here that no
// column or none of the look-ahead's JSON records has is a ReadError (see the top); a JSON record
// that lacks it just has no such value (except for text, which every record needs).
struct FieldMap {
  std::string text;     // the review body (required in every record)
  std::string product;  // product key
  std::string id;       // the dump's review id
  std::string rating;   // star rating or label, a number
  std::string title;    // title / summary line
  // The time: a number, unix seconds, or milliseconds when of magnitude >= 1e11; or a date
  // string: ISO 8601 ("2018-07-07", "2018-07-07T22:09:11Z", with ".250" fractions and
  // "+08:00"/"-0530" offsets), "YYYY-MM-DD HH:MM:SS" or "YYYY/MM/DD"; "Dec 23, 2008",
  // "23 Dec 2008", RFC 2822 ("Tue, 23 Dec 2008 14:30:00 +0100"), "12/23/2008" (month first
  // unless the first number is above 12) or "23.12.2008"; without an offset, UTC (ParseTime).
  // Review::time holds unix seconds.
  std::string time;
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

  // A record (a line, a CSV record spanning lines, a JSON array element, or a text paragraph)
  // longer than this is rejected with "record too long" without being buffered whole; this is
  // the per-record memory bound (see the top).
  size_t max_record_bytes = 16 << 20;

  // At most this many bytes of a bad record are kept in Reject::raw.
  size_t max_raw_bytes = 64 << 10;

  // Told about the dump as a whole, when it is not an error, before the first record is returned;
  // each kind of notice at most once per reader. Today one kind: "PATH: no product field (looked
  // for parent_asin, ...); all reviews go under product ''; name one with --product-field" (or
  // "no product column" for CSV/TSV). Text dumps never have products and get no notice. May be
  // empty. The reader never prints anything itself. Called on the thread calling Next().
  std::function<void(const std::string&)> on_notice;

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
  // Opens `path` ("-" = standard input). Never returns null. Throws ReadError when the file
  // cannot be opened, is a directory, or is a Parquet file.
  static std::unique_ptr<ReviewReader> Open(const std::string& path, const ReadOptions& options);

  virtual ~ReviewReader();

  // Sets *out to the next record and returns true, or returns false at the end of the input.
  // Throws ReadError, before returning any record, when the header or the look-ahead shows the
  // FieldMap does not fit the dump (see the top). REQUIRES: out != nullptr.
  virtual bool Next(Record* out) = 0;

  // Progress, in file bytes, for progress reports: the end of the last record returned (not of
  // the read-ahead or look-ahead). For gzip, an estimate of the compressed bytes behind it,
  // advancing with every record; exactly the file's size at the end.
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
