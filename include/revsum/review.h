// The plain value types that flow through revsum's pipeline, one stage to the next:
//
//   read ──▶ Review / Reject ──text──▶ Sentence[] ──embed──▶ Eigen::MatrixXf ──score──▶ Weights
//        ──select──▶ Summary ──store──▶ SQLite
//
// No stage reaches back into an earlier one; every type here is a copyable value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace revsum {

// One customer review as read from a dump. Text fields are valid UTF-8 (readers reject
// anything else). Offsets elsewhere in revsum refer to `text` exactly as stored here.
struct Review {
  std::string source;            // the dump's path as given on the command line ("-" for stdin)
  uint64_t line = 0;             // 1-based line in the dump where the record starts
  std::string external_id;       // the dump's own review id; empty when the dump has none
  std::string product;           // product key (asin, parent_asin, category...); empty if unknown
  std::optional<double> rating;  // star rating or label, when the dump has one
  std::string title;             // review title/summary line; may be empty
  std::string text;              // the review body, original (un-normalised) UTF-8
  std::optional<int64_t> time;   // unix time in seconds, when known
};

// A record that could not be turned into a Review. Nothing is dropped silently: rejects are stored
// with the raw bytes so the user can inspect or repair them.
struct Reject {
  std::string source;  // the dump's path as given
  uint64_t line = 0;   // 1-based line where the record starts (0 when the file could not be read)
  std::string reason;  // a human-readable reason, e.g. "invalid UTF-8 at byte 17"
  std::string raw;     // the record's raw bytes (truncated to a bounded size for huge records)
};

// One sentence of a review. Offsets are in Unicode code points (not bytes) into Review::text, so
// SQLite's substr(text, begin + 1, end - begin) returns the original span.
struct Sentence {
  int32_t index = 0;    // 0-based position within its review
  int32_t begin = 0;    // first code point, inclusive
  int32_t end = 0;      // one past the last code point
  std::string text;     // the cleaned sentence (NFKC, HTML removed, whitespace collapsed)
  int32_t tokens = -1;  // LLM tokens of `text` in o200k_base (tokens.h); -1 when not counted
};

}  // namespace revsum
