// CSV and TSV per RFC 4180: fields separated by ',' (or '\t'), optionally enclosed in double
// quotes; a quoted field may hold separators, line breaks and doubled quotes (""). The first record
// is the header; columns are mapped to Review fields by header name.
//
// Leniency, as in Python's csv module: a quote inside an unquoted field is kept as a character, and
// characters after a closing quote are appended to the field. Strict failures are a wrong number of
// fields and an unterminated quoted field at the end of the input.
#include <cctype>
#include <span>
#include <vector>

#include "field_names.h"
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
      : LineBasedReader(std::move(source), std::move(lines), options), separator_(separator) {
    lines_->set_overflow_scanner(
        [this](std::string_view bytes) { scan_state_ = ParseLine(bytes, scan_state_, false); });
  }

  Format format() const override { return separator_ == '\t' ? Format::kTsv : Format::kCsv; }

  bool Next(Record* out) override {
    out->review.reset();
    out->reject.reset();
    while (!done_) {
      RecordStatus status = ReadRecord(out);
      if (status == RecordStatus::kEnd) {
        NoticeTimesKeptOut();
        return false;
      }
      if (status == RecordStatus::kRejected) return true;
      if (!have_header_) {
        SetHeader();
        continue;
      }
      return MakeRecord(out);
    }
    NoticeTimesKeptOut();
    return false;
  }

 private:
  enum class RecordStatus { kFields, kRejected, kEnd };
  enum class State { kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted };

  // Reads the next non-empty record into fields_, or sets a Reject in *out. A record that grows
  // beyond max_record_bytes is followed to its real end (its quotes tracked, its bytes dropped),
  // then rejected once, so reading resumes at the next record rather than inside the quotes.
  RecordStatus ReadRecord(Record* out) {
    fields_.clear();
    field_.clear();
    raw_.clear();
    problem_.clear();
    uint64_t record_bytes = 0;
    uint64_t start_line = 0;
    bool too_long = false;
    State state = State::kFieldStart;
    Line line;
    while (true) {
      scan_state_ = state;  // where the overflow scanner starts, should this line overflow
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
      AppendRaw(line.bytes);
      if (!too_long && (line.overflow || record_bytes + line.size > options_.max_record_bytes)) {
        too_long = true;
        fields_.clear();
        field_.clear();
        field_.shrink_to_fit();
      }
      if (too_long) {
        state = line.overflow ? scan_state_ : ParseLine(line.bytes, state, /*keep=*/false);
      } else {
        if (problem_.empty()) problem_ = CheckText(line.bytes, record_bytes);
        state = ParseLine(line.bytes, state, /*keep=*/true);
      }
      record_bytes += line.size;
      if (state == State::kQuoted) {
        // A line break inside a quoted field, kept as written ("\n", "\r\n" or a lone "\r").
        if (!too_long) field_.append(line.terminator);
        AppendRaw(line.terminator);
        record_bytes += line.terminator.size();
        continue;
      }
      record_line_ = start_line;
      if (too_long) {
        RejectTooLong(out, start_line, record_bytes, raw_);
        return RecordStatus::kRejected;
      }
      fields_.push_back(std::move(field_));
      field_.clear();
      if (!problem_.empty()) {
        MakeReject(out, start_line, problem_, raw_);
        return RecordStatus::kRejected;
      }
      return RecordStatus::kFields;
    }
  }

  // Runs the RFC 4180 state machine over one line, filling fields_ and field_ when `keep`, else
  // only following the state (for records too long to keep).
  State ParseLine(std::string_view s, State state, bool keep) {
    const char sep = separator_;
    size_t i = 0;
    auto end_field = [&] {
      if (keep) fields_.push_back(std::move(field_));
      field_.clear();
      state = State::kFieldStart;
      ++i;
    };
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
          size_t j = s.find(sep, i);
          if (j == std::string_view::npos) j = s.size();
          if (keep) field_.append(s.data() + i, j - i);
          i = j;
          if (i < s.size()) end_field();  // at a separator
          break;
        }
        case State::kQuoted: {
          size_t j = s.find('"', i);
          if (j == std::string_view::npos) j = s.size();
          if (keep) field_.append(s.data() + i, j - i);
          i = j;
          if (i < s.size()) {
            state = State::kQuoteInQuoted;
            ++i;
          }
          break;
        }
        case State::kQuoteInQuoted:
          if (s[i] == '"') {
            if (keep) field_ += '"';
            state = State::kQuoted;
            ++i;
          } else if (s[i] == sep) {
            end_field();
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

  // Maps header names to columns. Throws ReadError when a named column or the text column is
  // missing (no row of the file could be read as meant).
  void SetHeader() {
    header_ = fields_;
    have_header_ = true;
    const FieldMap& f = options_.fields;
    std::string joined;
    for (const std::string& name : header_) {
      joined += (joined.empty() ? "" : ",") + std::string(Utf8Prefix(name, 100));
    }
    joined = std::string(Utf8Prefix(joined, 2000));
    auto fail = [&](const std::string& problem) {
      done_ = true;
      throw ReadError(source_ + ":" + std::to_string(record_line_) + ": " + problem);
    };
    auto column = [&](const std::string& override_name,
                      std::span<const std::string_view> candidates, std::string_view what) {
      if (!override_name.empty()) {
        const int index = FindColumn(header_, override_name);
        if (index < 0) {
          fail(Concat({"no column \"", Utf8Prefix(override_name, 100), "\" for the ", what,
                       " in the header (", joined, ")"}));
        }
        return index;
      }
      for (std::string_view name : candidates) {
        if (const int index = FindColumn(header_, name); index >= 0) return index;
      }
      return -1;
    };
    text_col_ = column(f.text, kCsvTextColumns, "text");
    product_col_ = column(f.product, kCsvProductColumns, "product");
    id_col_ = column(f.id, kIdFields, "id");
    rating_col_ = column(f.rating, kCsvRatingColumns, "rating");
    title_col_ = column(f.title, kTitleFields, "title");
    time_col_ = column(f.time, kTimeFields, "time");
    user_col_ = -1;
    if (id_col_ < 0 && f.id.empty()) user_col_ = column("", kUserFields, "user");
    if (text_col_ < 0) {
      fail("no text column in the header (" + joined + "); expected one of " +
           JoinNames(kCsvTextColumns) + ", or name one with --text-field");
    }
    if (product_col_ < 0 && options_.on_notice) {
      options_.on_notice(source_ + ": no product column (looked for " +
                         JoinNames(kCsvProductColumns) +
                         "); all reviews go under product ''; name one with --product-field");
    }
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
    if (id_col_ >= 0) {
      review.external_id = fields_[id_col_];
    } else if (user_col_ >= 0 && !IsBlank(fields_[user_col_])) {
      review.external_id = fields_[user_col_];  // see FieldMap: user id, with the time if any
      if (time_col_ >= 0 && !IsBlank(fields_[time_col_])) {
        review.external_id += ":" + fields_[time_col_];
      }
    }
    if (title_col_ >= 0) review.title = fields_[title_col_];
    if (rating_col_ >= 0 && !IsBlank(fields_[rating_col_])) {
      review.rating = ParseNumber(fields_[rating_col_]);
      if (!review.rating) {
        return MakeReject(out, record_line_,
                          Concat({"rating is not a number: \"", header_[rating_col_], "\" is \"",
                                  Utf8Prefix(fields_[rating_col_], 40), "\""}),
                          raw_);
      }
      std::string range = RatingRangeProblem(*review.rating, header_[rating_col_]);
      if (!range.empty()) return MakeReject(out, record_line_, std::move(range), raw_);
    }
    if (time_col_ >= 0 && !IsBlank(fields_[time_col_])) {
      review.time = ParseTime(fields_[time_col_]);
      if (!review.time) {
        const std::string problem = Concat(
            {"\"", header_[time_col_], "\" is \"", Utf8Prefix(fields_[time_col_], 40), "\""});
        if (!options_.fields.time.empty()) {
          return MakeReject(out, record_line_, Concat({kBadTime, problem}), raw_);
        }
        KeepWithoutTime(problem, record_line_);  // a usual name's unusual value: the review stays
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
      time_col_ = -1, user_col_ = -1;

  State scan_state_ = State::kFieldStart;  // the overflow scanner's state

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
