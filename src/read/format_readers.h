// The ReviewReader implementations, one per format, over a shared LineReader.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "line_reader.h"
#include "record_checks.h"
#include "revsum/read.h"

namespace revsum::read_internal {

// What the three format readers share: the source name, the LineReader and the progress getters.
class LineBasedReader : public ReviewReader {
 public:
  uint64_t bytes_read() const override { return lines_->bytes_read(); }
  uint64_t total_bytes() const override { return lines_->total_bytes(); }
  bool gzip() const override { return lines_->gzip(); }

 protected:
  LineBasedReader(std::string source, std::unique_ptr<LineReader> lines, const ReadOptions& options)
      : source_(std::move(source)), lines_(std::move(lines)), options_(options) {}

  // Sets *out to a Reject and returns true (so parsers can `return Reject(...)`).
  bool MakeReject(Record* out, uint64_t line, std::string reason, std::string_view raw) const;

  // Turns a LineReader::Status::kError into a Reject.
  bool RejectReadError(Record* out, const Line& line) const {
    return MakeReject(out, line.number, lines_->error(), line.bytes);
  }

  // The "record too long" Reject for a record of `size` bytes starting at `line`.
  bool RejectTooLong(Record* out, uint64_t line, uint64_t size, std::string_view raw) const;

  // What NextContentLine found.
  enum class LineStep { kLine, kRejected, kEnd };

  // Reads on to the next line that is not blank. kLine: *line holds it. kRejected: the input
  // could not be read or the line was too long, and *out holds the Reject. kEnd: no more input.
  LineStep NextContentLine(Line* line, Record* out) {
    while (true) {
      switch (lines_->Next(line)) {
        case LineReader::Status::kEnd:
          return LineStep::kEnd;
        case LineReader::Status::kError:
          RejectReadError(out, *line);
          return LineStep::kRejected;
        case LineReader::Status::kLine:
          break;
      }
      if (line->overflow) {
        RejectTooLong(out, line->number, line->size, line->bytes);
        return LineStep::kRejected;
      }
      if (!IsBlank(line->bytes)) return LineStep::kLine;
    }
  }

  // A fresh Review with source and line set.
  Review NewReview(uint64_t line) const;

  // A time field found by its usual name (not named by --time-field) whose value is not a time:
  // the review is kept without a time, and counted; `problem` ("\"date\" is \"soon\"") of the
  // first is remembered for the notice. (A field named by --time-field rejects the record.)
  void KeepWithoutTime(const std::string& problem, uint64_t line);
  // At the end of the input, once: ReadOptions::on_notice with how many reviews kept no time.
  void NoticeTimesKeptOut();

  const std::string source_;
  const std::unique_ptr<LineReader> lines_;
  const ReadOptions options_;

 private:
  uint64_t times_kept_out_ = 0;
  std::string first_time_kept_out_;
  bool times_noticed_ = false;
};

std::unique_ptr<ReviewReader> NewJsonlReader(std::string source, std::unique_ptr<LineReader> lines,
                                             const ReadOptions& options);
// A file holding one JSON array of objects; `lines` is positioned at its start.
std::unique_ptr<ReviewReader> NewJsonArrayReader(std::string source,
                                                 std::unique_ptr<LineReader> lines,
                                                 const ReadOptions& options);
// `separator` is ',' for CSV and '\t' for TSV.
std::unique_ptr<ReviewReader> NewDelimitedReader(std::string source,
                                                 std::unique_ptr<LineReader> lines,
                                                 const ReadOptions& options, char separator);
std::unique_ptr<ReviewReader> NewTextReader(std::string source, std::unique_ptr<LineReader> lines,
                                            const ReadOptions& options);

}  // namespace revsum::read_internal
