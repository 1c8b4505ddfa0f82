// One JSON array of objects (`jq -s` output, pandas to_json(orient="records"), Hugging Face
// exports), possibly one multi-GB line or pretty-printed over many lines. The array is streamed:
// a small state machine (inside a string or not, after a backslash, nesting depth) finds each
// element's end, a comma or the closing bracket at depth 0, and only the element is held and
// parsed. A record's line is the line where its element starts.
#include <cstdint>
#include <cstring>
#include <string>

#include "format_readers.h"
#include "json_record_reader.h"
#include "record_checks.h"

namespace revsum::read_internal {

namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The offset of the first '"', '\\', '\n' or '\r' in p[0, n), or n: the bytes that end a JSON
// string, escape, or a line. Eight bytes at a time (SWAR zero-byte test).
size_t FindStringSpecial(const char* p, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  auto has_zero = [](uint64_t v) { return ((v - kOnes) & ~v & kHighs) != 0; };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (has_zero(w ^ (kOnes * '"')) || has_zero(w ^ (kOnes * '\\')) ||
        has_zero(w ^ (kOnes * '\n')) || has_zero(w ^ (kOnes * '\r'))) {
      break;
    }
  }
  for (; i < n; ++i) {
    const char c = p[i];
    if (c == '"' || c == '\\' || c == '\n' || c == '\r') return i;
  }
  return n;
}

class JsonArrayReader : public JsonRecordReader {
 public:
  Format format() const override { return Format::kJson; }
  JsonArrayReader(std::string source, std::unique_ptr<LineReader> lines, const ReadOptions& options)
      : JsonRecordReader(std::move(source), std::move(lines), options) {}

 private:
  enum class Phase {
    kBeforeArray,
    kInArray,
    kAfterArray,
    kTrailing,  // collecting the start of unexpected content for its Reject
    kDone,
  };
  static constexpr size_t kTrailingRaw = 200;  // bytes of unexpected content kept

  bool ReadRecord(Record* out) override {
    out->review.reset();
    out->reject.reset();
    while (phase_ != Phase::kDone) {
      std::string_view chunk;
      switch (lines_->Available(&chunk)) {
        case LineReader::Status::kError:
          phase_ = Phase::kDone;
          return MakeReject(out, started_ ? start_line_ : line_, lines_->error(), element_);
        case LineReader::Status::kEnd: {
          const Phase phase = phase_;
          phase_ = Phase::kDone;
          if (phase == Phase::kInArray) {
            return MakeReject(out, started_ ? start_line_ : line_,
                              "unterminated JSON array at end of file", element_);
          }
          if (phase == Phase::kTrailing) return RejectTrailing(out);
          return false;
        }
        case LineReader::Status::kLine:
          break;
      }
      if (Scan(chunk, out)) return true;
    }
    return false;
  }

  // Starts collecting unexpected content at the current byte (chunk-size independent).
  void StartTrailing(std::string reason) {
    phase_ = Phase::kTrailing;
    trailing_reason_ = std::move(reason);
    trailing_line_ = line_;
    element_.clear();
  }

  bool RejectTrailing(Record* out) {
    phase_ = Phase::kDone;
    return MakeReject(out, trailing_line_, trailing_reason_, element_);
  }

  // Scans `chunk`, consuming what it looked at. Returns true when *out holds a record.
  bool Scan(std::string_view chunk, Record* out) {
    size_t i = 0;
    size_t run = 0;  // start of the element's bytes not yet appended
    auto flush = [&](size_t end) {
      if (started_ && end > run) AddElementBytes(chunk.substr(run, end - run));
      run = end;
    };
    for (; i < chunk.size(); ++i) {
      if (in_string_ && !escaped_ && !prev_cr_) {
        // Most bytes are inside strings: skip to the next one that matters.
        i += FindStringSpecial(chunk.data() + i, chunk.size() - i);
        if (i == chunk.size()) break;
      }
      const char c = chunk[i];
      CountLine(c);
      switch (phase_) {
        case Phase::kBeforeArray:
          if (c == '[') {
            phase_ = Phase::kInArray;
          } else if (!IsJsonSpace(c) && !IsBomByte(c)) {
            StartTrailing("not a JSON array");
            element_ += c;
          }
          continue;
        case Phase::kAfterArray:
          if (!IsJsonSpace(c)) {
            StartTrailing("content after the end of the JSON array");
            element_ += c;
          }
          continue;
        case Phase::kTrailing:
          if (c == '\n' || c == '\r' || element_.size() >= kTrailingRaw) {
            lines_->Consume(i);
            return RejectTrailing(out);
          }
          element_ += c;
          continue;
        case Phase::kDone:
          lines_->Consume(i);
          return false;
        case Phase::kInArray:
          break;
      }
      if (!started_) {
        if (IsJsonSpace(c)) continue;
        if (c == ',' || c == ']') {  // an empty array, or an empty element ("[1,,2]", "[1,]")
          if (c == ']') phase_ = Phase::kAfterArray;
          continue;
        }
        started_ = true;
        start_line_ = line_;
        run = i;
      }
      if (in_string_) {
        if (escaped_) {
          escaped_ = false;
        } else if (c == '\\') {
          escaped_ = true;
        } else if (c == '"') {
          in_string_ = false;
        }
        continue;
      }
      switch (c) {
        case '"':
          in_string_ = true;
          break;
        case '{':
        case '[':
          ++depth_;
          break;
        case '}':
          if (depth_ > 0) --depth_;  // a stray '}' at depth 0 stays in the (malformed) element
          break;
        case ']':
          if (depth_ > 0) {
            --depth_;
            break;
          }
          [[fallthrough]];
        case ',':
          if (depth_ == 0) {
            flush(i);
            if (c == ']') phase_ = Phase::kAfterArray;
            lines_->Consume(i + 1);
            EmitElement(out);
            return true;
          }
          break;
        default:
          break;
      }
    }
    flush(i);
    lines_->Consume(chunk.size());
    return false;
  }

  // Lines are counted as LineReader splits them: "\n" and "\r\n" end a line, and so does a lone
  // "\r" when the first line ends with one.
  void CountLine(char c) {
    if (prev_cr_ && eol_ == Eol::kUnknown) eol_ = c == '\n' ? Eol::kLf : Eol::kAny;
    if (c == '\n') {
      if (!cr_counted_) ++line_;  // a "\r\n" is one line end
      if (eol_ == Eol::kUnknown) eol_ = Eol::kLf;
      cr_counted_ = false;
    } else if (c == '\r') {
      cr_counted_ = eol_ != Eol::kLf;  // counted when the first line end may be a lone "\r"
      if (cr_counted_) ++line_;
    } else {
      cr_counted_ = false;
    }
    prev_cr_ = c == '\r';
  }

  static bool IsBomByte(char c) { return c == '\xEF' || c == '\xBB' || c == '\xBF'; }

  // Keeps the element's bytes up to max_record_bytes; beyond that only the first max_raw_bytes
  // (for the Reject) and the count.
  void AddElementBytes(std::string_view bytes) {
    size_ += bytes.size();
    if (!too_long_ && size_ > options_.max_record_bytes) {
      too_long_ = true;
      if (element_.size() > options_.max_raw_bytes) element_.resize(options_.max_raw_bytes);
      element_.shrink_to_fit();
    }
    if (too_long_) {
      if (element_.size() < options_.max_raw_bytes) {
        element_.append(bytes.substr(0, options_.max_raw_bytes - element_.size()));
      }
    } else {
      element_.append(bytes);
    }
  }

  void EmitElement(Record* out) {
    std::string_view element = element_;
    uint64_t size = size_;
    while (!element.empty() && IsJsonSpace(element.back())) {
      element.remove_suffix(1);
      if (!too_long_) --size;
    }
    if (too_long_) {
      RejectTooLong(out, start_line_, size, element);
    } else {
      ParseRecord(element, start_line_, out);
    }
    element_.clear();
    size_ = 0;
    too_long_ = false;
    started_ = false;
    in_string_ = escaped_ = false;
    depth_ = 0;
  }

  Phase phase_ = Phase::kBeforeArray;
  std::string trailing_reason_;
  uint64_t trailing_line_ = 0;
  uint64_t line_ = 1;
  bool prev_cr_ = false;
  enum class Eol { kUnknown, kLf, kAny };
  Eol eol_ = Eol::kUnknown;  // as LineReader: decided by the first line end
  bool cr_counted_ = false;  // the previous byte was a "\r" counted as a line end

  // The element being read.
  bool started_ = false;
  uint64_t start_line_ = 0;
  std::string element_;
  uint64_t size_ = 0;
  bool too_long_ = false;
  bool in_string_ = false;
  bool escaped_ = false;
  uint64_t depth_ = 0;
};

}  // namespace

std::unique_ptr<ReviewReader> NewJsonArrayReader(std::string source,
                                                 std::unique_ptr<LineReader> lines,
                                                 const ReadOptions& options) {
  return std::make_unique<JsonArrayReader>(std::move(source), std::move(lines), options);
}

}  // namespace revsum::read_internal
