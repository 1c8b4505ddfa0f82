// CSV and TSV per RFC 4180: fields separated by ',' (or '\t'), optionally enclosed in double
// quotes; a quoted field may hold separators, line breaks and doubled quotes (""). The first record
// is the header; columns are mapped to Review fields by header name.
//
// Leniency, as in Python's csv module: a quote inside an unquoted field is kept as a character, and
// characters after a closing quote are appended to the field. Strict failures are a wrong number of
// fields and an unterminated quoted field at the end of the input.
#include <cctype>
#include <initializer_list>
#include <vector>

#include "format_readers.h"
#include "record_checks.h"

namespace revsum::read_internal {

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The index of `name` in `header` (exact match first, then ignoring ASCII case), or -1.
int FindColumn(const std::vector<std::string>& header, std::string_view name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  for (size_t i = 0; i < header.size(); ++i) {
    if (EqualsIgnoreCase(header[i], name)) return static_cast<int>(i);
  }
  return -1;
}

class DelimitedReader : public LineBasedReader {
 public:
  DelimitedReader(std::string source, std::unique_ptr<LineReader> lines, const ReadOptions& options,
                  char separator)
      : LineBasedReader(std::move(source), std::move(lines), options), separator_(separator) {}

  Format format() const override { return separator_ == '\t' ? Format::kTsv : Format::kCsv; }

  bool Next(Record* out) override {
    out->review.reset();
    out->reject.reset();
    while (!done_) {
      RecordStatus status = ReadRecord(out);
      if (status == RecordStatus::kEnd) return false;
      if (status == RecordStatus::kRejected) return true;
      if (!have_header_) {
        if (!SetHeader(out)) return true;  // a header Reject; the file ends here
        continue;
      }
      return MakeRecord(out);
    }
    return false;
  }

 private:
  enum class RecordStatus { kFields, kRejected, kEnd };
  enum class State { kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted };

  // Reads the next non-empty record into fields_, or sets a Reject in *out.
  RecordStatus ReadRecord(Record* out) {
    fields_.clear();
    field_.clear();
    raw_.clear();
    problem_.clear();
    uint64_t record_bytes = 0;
    uint64_t start_line = 0;
    State state = State::kFieldStart;
    Line line;
    while (true) {
      LineReader::Status status = lines_->Next(&line);
      if (status == LineReader::Status::kError) {
        done_ = true;
        AppendRaw(line.bytes);
        MakeReject(out, line.number, lines_->error(), raw_);
        return RecordStatus::kRejected;
      }
      if (status == LineReader::Status::kEnd) {
        done_ = true;
        if (start_line == 0) return RecordStatus::kEnd;
        // Only a quoted field can carry a record past its last line.
        MakeReject(out, start_line, "unterminated quoted field at end of file", raw_);
        return RecordStatus::kRejected;
      }
      if (start_line == 0) {
        if (line.size == 0) continue;  // empty lines between records are not records
        start_line = line.number;
      }
      if (line.overflow || record_bytes + line.size > options_.max_record_bytes) {
        // Resynchronise at the next line, outside any quotes.
        AppendRaw(line.bytes);
        RejectTooLong(out, start_line, record_bytes + line.size, raw_);
        return RecordStatus::kRejected;
      }
      if (problem_.empty()) problem_ = CheckText(line.bytes, record_bytes);
      record_bytes += line.size + (line.crlf ? 2 : 1);
      AppendRaw(line.bytes);
      state = ParseLine(line.bytes, state);
      if (state == State::kQuoted) {
        field_ += line.crlf ? "\r\n" : "\n";  // a line break inside a quoted field
        AppendRaw("\n");
        continue;
      }
      fields_.push_back(std::move(field_));
      field_.clear();
      record_line_ = start_line;
      if (!problem_.empty()) {
        MakeReject(out, start_line, problem_, raw_);
        return RecordStatus::kRejected;
      }
      return RecordStatus::kFields;
    }
  }

  // Runs the RFC 4180 state machine over one line, filling fields_ and field_.
  State ParseLine(std::string_view s, State state) {
    const char sep = separator_;
    size_t i = 0;
    while (i < s.size()) {
      switch (state) {
        case State::kFieldStart:
          if (s[i] == '"') {
            state = State::kQuoted;
            ++i;
            break;
          }
          state = State::kUnquoted;
          [[fallthrough]];
        case State::kUnquoted: {
          size_t j = i;
          while (j < s.size() && s[j] != sep) ++j;
          field_.append(s.data() + i, j - i);
          i = j;
          if (i < s.size()) {  // at a separator
            fields_.push_back(std::move(field_));
            field_.clear();
            state = State::kFieldStart;
            ++i;
          }
          break;
        }
        case State::kQuoted: {
          size_t j = s.find('"', i);
          if (j == std::string_view::npos) j = s.size();
          field_.append(s.data() + i, j - i);
          i = j;
          if (i < s.size()) {
            state = State::kQuoteInQuoted;
            ++i;
          }
          break;
        }
        case State::kQuoteInQuoted:
          if (s[i] == '"') {
            field_ += '"';
            state = State::kQuoted;
            ++i;
          } else if (s[i] == sep) {
            fields_.push_back(std::move(field_));
            field_.clear();
            state = State::kFieldStart;
            ++i;
          } else {
            state = State::kUnquoted;  // lenient: text after the closing quote joins the field
          }
          break;
      }
    }
    return state;
  }

  void AppendRaw(std::string_view bytes) {
    if (raw_.size() < options_.max_raw_bytes) {
      raw_.append(bytes.substr(0, options_.max_raw_bytes - raw_.size()));
    }
  }

  // Maps header names to columns. Returns false (with a Reject) when a needed column is missing.
  bool SetHeader(Record* out) {
    header_ = fields_;
    have_header_ = true;
    const FieldMap& f = options_.fields;
    std::string joined;
    for (const std::string& name : header_) joined += (joined.empty() ? "" : ",") + name;

    auto column = [&](const std::string& override_name,
                      std::initializer_list<std::string_view> candidates, int* index,
                      std::string_view what) {
      *index = -1;
      if (!override_name.empty()) {
        *index = FindColumn(header_, override_name);
        if (*index < 0) {
          done_ = true;
          MakeReject(out, record_line_,
                     "no column \"" + override_name + "\" for the " + std::string(what) +
                         " in the header (" + joined + ")",
                     raw_);
          return false;
        }
        return true;
      }
      for (std::string_view name : candidates) {
        if ((*index = FindColumn(header_, name)) >= 0) return true;
      }
      return true;
    };
    if (!column(f.text, {"review", "text", "reviewText", "content", "comment", "body"}, &text_col_,
                "text") ||
        !column(f.product, {"product", "parent_asin", "asin", "product_id", "cat", "category"},
                &product_col_, "product") ||
        !column(f.id, {"review_id", "reviewId", "id"}, &id_col_, "id") ||
        !column(f.rating, {"rating", "overall", "label", "stars", "score"}, &rating_col_,
                "rating") ||
        !column(f.title, {"title", "summary"}, &title_col_, "title") ||
        !column(f.time, {"timestamp", "unixReviewTime", "unix_time"}, &time_col_, "time")) {
      return false;
    }
    if (text_col_ < 0) {
      done_ = true;
      MakeReject(out, record_line_,
                 "no text column in the header (" + joined +
                     "); expected one of review, text, reviewText, content, comment, body, or "
                     "set the text field",
                 raw_);
      return false;
    }
    return true;
  }

  bool MakeRecord(Record* out) {
    if (fields_.size() != header_.size()) {
      return MakeReject(out, record_line_,
                        "row has " + std::to_string(fields_.size()) + " fields, header has " +
                            std::to_string(header_.size()),
                        raw_);
    }
    Review review = NewReview(record_line_);
    const std::string& text = fields_[text_col_];
    if (IsBlank(text)) {
      return MakeReject(out, record_line_, "empty text field \"" + header_[text_col_] + "\"", raw_);
    }
    review.text = text;
    if (product_col_ >= 0) review.product = fields_[product_col_];
    if (id_col_ >= 0) review.external_id = fields_[id_col_];
    if (title_col_ >= 0) review.title = fields_[title_col_];
    if (rating_col_ >= 0 && !IsBlank(fields_[rating_col_])) {
      review.rating = ParseNumber(fields_[rating_col_]);
      if (!review.rating) {
        return MakeReject(out, record_line_,
                          Concat({"rating is not a number: \"", header_[rating_col_], "\" is \"",
                                  Utf8Prefix(fields_[rating_col_], 40), "\""}),
                          raw_);
      }
    }
    if (time_col_ >= 0 && !IsBlank(fields_[time_col_])) {
      std::optional<double> value = ParseNumber(fields_[time_col_]);
      if (value) review.time = UnixSeconds(*value);
      if (!review.time) {
        return MakeReject(out, record_line_,
                          Concat({"time is not a number: \"", header_[time_col_], "\" is \"",
                                  Utf8Prefix(fields_[time_col_], 40), "\""}),
                          raw_);
      }
    }
    out->review = std::move(review);
    return true;
  }

  const char separator_;
  bool done_ = false;
  bool have_header_ = false;
  std::vector<std::string> header_;
  int text_col_ = -1, product_col_ = -1, id_col_ = -1, rating_col_ = -1, title_col_ = -1,
      time_col_ = -1;

  // The record being read.
  std::vector<std::string> fields_;
  std::string field_;
  std::string raw_;      // its first max_raw_bytes, for rejects
  std::string problem_;  // the first encoding problem found in it
  uint64_t record_line_ = 0;
};

}  // namespace

std::unique_ptr<ReviewReader> NewDelimitedReader(std::string source,
                                                 std::unique_ptr<LineReader> lines,
                                                 const ReadOptions& options, char separator) {
  return std::make_unique<DelimitedReader>(std::move(source), std::move(lines), options, separator);
}

}  // namespace revsum::read_internal
