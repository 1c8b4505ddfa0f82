// Plain text: one review per non-blank line, or (blank_line_separated) one review per paragraph.
// Text dumps carry no product, id, rating, title or time.
#include "format_readers.h"
#include "record_checks.h"

namespace revsum::read_internal {

namespace {

class TextReader : public LineBasedReader {
 public:
  TextReader(std::string source, std::unique_ptr<LineReader> lines, const ReadOptions& options)
      : LineBasedReader(std::move(source), std::move(lines), options) {}

  Format format() const override { return Format::kText; }

  bool Next(Record* out) override {
    out->review.reset();
    out->reject.reset();
    return options_.blank_line_separated ? NextParagraph(out) : NextLine(out);
  }

 private:
  bool NextLine(Record* out) {
    Line line;
    switch (NextContentLine(&line, out)) {
      case LineStep::kEnd:
        return false;
      case LineStep::kRejected:
        return true;
      case LineStep::kLine:
        break;
    }
    if (std::string problem = CheckText(line.bytes); !problem.empty()) {
      return MakeReject(out, line.number, std::move(problem), line.bytes);
    }
    Review review = NewReview(line.number);
    review.text = std::string(line.bytes);
    out->review = std::move(review);
    return true;
  }

  // A paragraph ends at a blank line or the end of the input. A paragraph that grows beyond
  // max_record_bytes is consumed to its end without being stored, then rejected.
  bool NextParagraph(Record* out) {
    std::string text;
    std::string problem;
    uint64_t start = 0;
    uint64_t size = 0;
    bool too_long = false;
    Line line;
    while (true) {
      LineReader::Status status = lines_->Next(&line);
      if (status == LineReader::Status::kError) return RejectReadError(out, line);
      const bool end = status == LineReader::Status::kEnd;
      if (end || (!line.overflow && IsBlank(line.bytes))) {
        if (start == 0) {
          if (end) return false;
          continue;  // blank lines before a paragraph
        }
        if (too_long) return RejectTooLong(out, start, size, text);
        if (!problem.empty()) return MakeReject(out, start, std::move(problem), text);
        Review review = NewReview(start);
        review.text = std::move(text);
        out->review = std::move(review);
        return true;
      }
      if (start == 0) start = line.number;
      const uint64_t added = line.size + (size > 0 ? 1 : 0);
      if (too_long || line.overflow || size + added > options_.max_record_bytes) {
        if (!too_long) text.resize(std::min(text.size(), options_.max_raw_bytes));
        too_long = true;
        size += added;
        continue;
      }
      if (problem.empty()) problem = CheckText(line.bytes, size + (size > 0 ? 1 : 0));
      if (size > 0) text += '\n';
      text.append(line.bytes);
      size += added;
    }
  }
};

}  // namespace

std::unique_ptr<ReviewReader> NewTextReader(std::string source, std::unique_ptr<LineReader> lines,
                                            const ReadOptions& options) {
  return std::make_unique<TextReader>(std::move(source), std::move(lines), options);
}

}  // namespace revsum::read_internal
