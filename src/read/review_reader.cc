// ReviewReader::Open: picks the format and hands the byte stream to the matching reader.
#include <algorithm>
#include <cctype>

#include "format_readers.h"
#include "record_checks.h"
#include "revsum/read.h"

namespace revsum {

namespace {

using read_internal::LineReader;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Guesses the format from the first decoded bytes: a JSON object, a header with tabs or commas,
// or else plain text.
Format Sniff(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  if (i < head.size() && head[i] == '{') return Format::kJsonl;
  if (i < head.size() && head[i] == '[') return Format::kJson;
  std::string_view first = head.substr(i);
  first = first.substr(0, first.find('\n'));
  if (first.find('\t') != std::string_view::npos) return Format::kTsv;
  if (first.find(',') != std::string_view::npos) return Format::kCsv;
  return Format::kText;
}

// True when the first non-space byte after an optional UTF-8 BOM is '[': a JSON array.
bool StartsWithArray(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  return i < head.size() && head[i] == '[';
}

}  // namespace

std::string_view FormatName(Format format) {
  switch (format) {
    case Format::kAuto:
      return "auto";
    case Format::kJsonl:
      return "jsonl";
    case Format::kJson:
      return "json";
    case Format::kCsv:
      return "csv";
    case Format::kTsv:
      return "tsv";
    case Format::kText:
      return "text";
  }
  return "auto";
}

std::optional<Format> ParseFormat(std::string_view name) {
  const std::string n = Lower(name);
  if (n == "auto") return Format::kAuto;
  if (n == "jsonl" || n == "ndjson") return Format::kJsonl;
  if (n == "json") return Format::kJson;
  if (n == "csv") return Format::kCsv;
  if (n == "tsv") return Format::kTsv;
  if (n == "text" || n == "txt") return Format::kText;
  return std::nullopt;
}

Format FormatFromPath(std::string_view path) {
  std::string p = Lower(path);
  if (EndsWith(p, ".gz")) p.resize(p.size() - 3);
  if (EndsWith(p, ".jsonl") || EndsWith(p, ".ndjson")) return Format::kJsonl;
  if (EndsWith(p, ".json")) return Format::kJson;
  if (EndsWith(p, ".csv")) return Format::kCsv;
  if (EndsWith(p, ".tsv")) return Format::kTsv;
  if (EndsWith(p, ".txt")) return Format::kText;
  return Format::kAuto;
}

ReviewReader::~ReviewReader() = default;

std::unique_ptr<ReviewReader> ReviewReader::Open(const std::string& path,
                                                 const ReadOptions& options) {
  Format format = options.format;
  if (format == Format::kAuto && path != "-") format = FormatFromPath(path);

  LineReader::Options line_options;
  line_options.chunk_bytes = std::max<size_t>(options.chunk_bytes, 4096);
  line_options.max_line_bytes = options.max_record_bytes;
  line_options.keep_bytes = options.max_raw_bytes;
  std::string error;
  std::unique_ptr<LineReader> lines = LineReader::Open(path, line_options, &error);
  if (lines == nullptr) throw ReadError(path + ": " + error);
  const std::string_view head = lines->Peek(64 << 10);
  if (!lines->gzip() && head.substr(0, 4) == "PAR1") {
    throw ReadError(path +
                    ": Parquet is not supported; convert it to JSON Lines first, e.g. with duckdb "
                    "-c \"COPY (SELECT * FROM 'f.parquet') TO 'f.jsonl'\" or python -c 'import "
                    "pandas; pandas.read_parquet(\"f.parquet\").to_json(\"f.jsonl\", "
                    "orient=\"records\", lines=True, force_ascii=False)'");
  }
  if (format == Format::kAuto) format = Sniff(head);

  switch (format) {
    case Format::kJson:
      // JSON: one array of objects when it starts with '[', else JSON Lines.
      if (StartsWithArray(head)) {
        return read_internal::NewJsonArrayReader(path, std::move(lines), options);
      }
      [[fallthrough]];
    case Format::kJsonl:
      return read_internal::NewJsonlReader(path, std::move(lines), options);
    case Format::kCsv:
      return read_internal::NewDelimitedReader(path, std::move(lines), options, ',');
    case Format::kTsv:
      return read_internal::NewDelimitedReader(path, std::move(lines), options, '\t');
    case Format::kAuto:
    case Format::kText:
      break;
  }
  return read_internal::NewTextReader(path, std::move(lines), options);
}

namespace read_internal {

bool LineBasedReader::MakeReject(Record* out, uint64_t line, std::string reason,
                                 std::string_view raw) const {
  out->review.reset();
  Reject reject;
  reject.source = source_;
  reject.line = line;
  reject.reason = std::move(reason);
  reject.raw = BoundedRaw(raw, options_.max_raw_bytes);
  out->reject = std::move(reject);
  return true;
}

bool LineBasedReader::RejectTooLong(Record* out, uint64_t line, uint64_t size,
                                    std::string_view raw) const {
  return MakeReject(out, line,
                    "record too long: " + std::to_string(size) + " bytes (limit " +
                        std::to_string(options_.max_record_bytes) + ")",
                    raw);
}

void LineBasedReader::KeepWithoutTime(const std::string& problem, uint64_t line) {
  if (times_kept_out_++ == 0)
    first_time_kept_out_ = "line " + std::to_string(line) + ": " + problem;
}

void LineBasedReader::NoticeTimesKeptOut() {
  if (times_noticed_ || times_kept_out_ == 0 || !options_.on_notice) return;
  times_noticed_ = true;
  options_.on_notice(source_ + ": " + std::to_string(times_kept_out_) +
                     (times_kept_out_ == 1 ? " review" : " reviews") +
                     " kept without a time: not a time revsum reads (first at " +
                     first_time_kept_out_ +
                     "); name the field with --time-field to reject such records instead");
}

Review LineBasedReader::NewReview(uint64_t line) const {
  Review review;
  review.source = source_;
  review.line = line;
  return review;
}

}  // namespace read_internal
}  // namespace revsum
