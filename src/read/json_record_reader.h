// What the JSON Lines and JSON array readers share: turning one JSON text (a line, or an element
// of an array) into a Record, and the look-ahead over the first records that checks the FieldMap
// against the dump before any record is returned.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "format_readers.h"

namespace revsum::read_internal {

class JsonRecordReader : public LineBasedReader {
 public:
  // The look-ahead: before returning the first record, up to this many records, or the records
  // within this many decoded bytes, whichever ends first, are read and held. A field named in the
  // FieldMap (other than text) that none of them has is a ReadError; a dump where none of them has
  // a product field gets one ReadOptions::on_notice.
  static constexpr size_t kLookAheadRecords = 1000;
  static constexpr uint64_t kLookAheadBytes = 8 << 20;

  Format format() const override { return Format::kJsonl; }
  bool Next(Record* out) final;
  // The progress of the records returned so far, not of the look-ahead.
  uint64_t bytes_read() const override { return reported_bytes_; }

 protected:
  using LineBasedReader::LineBasedReader;

  // Sets *out to the next record of the input and returns true, or returns false at its end.
  virtual bool ReadRecord(Record* out) = 0;

  // Parses `bytes` (one JSON text starting at `line`) into *out: a Review, or a Reject naming
  // the problem. Returns true.
  bool ParseRecord(std::string_view bytes, uint64_t line, Record* out);

 private:
  struct Held {
    Record record;
    uint64_t bytes_read = 0;
  };

  void LookAhead();  // fills held_, then checks the FieldMap (may throw ReadError)
  bool FromObject(const simdjson::dom::object& obj, std::string_view bytes, uint64_t line,
                  Record* out);
  void NoteKeys(const simdjson::dom::object& obj);  // during the look-ahead

  simdjson::dom::parser parser_;
  std::vector<char> padded_;

  bool started_ = false;
  bool ended_ = false;
  uint64_t reported_bytes_ = 0;
  std::deque<Held> held_;

  // What the look-ahead saw.
  bool looking_ahead_ = false;
  size_t objects_ = 0;                   // records that were JSON objects
  std::vector<std::string> first_keys_;  // the keys of the first one
  bool named_seen_[6] = {};    // product, id, rating, title, time, text: named key present
  bool product_seen_ = false;  // some product candidate present (auto-detection)
};

}  // namespace revsum::read_internal
