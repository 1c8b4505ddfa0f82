// Byte-level input shared by the format readers: opens a file or standard input, inflates gzip
// (recognised by its magic bytes, concatenated members included), reads fixed-size chunks and
// splits them into lines, or hands out the decoded bytes as they come (Available/Consume). The
// format readers never touch file descriptors or zlib.
//
// A line ends at "\n" or "\r\n". A file whose first line ends with a lone "\r" (a classic Mac OS
// export) is read with "\r" as a line end too; elsewhere a lone "\r" is an ordinary byte, so
// line numbers agree with editors and sed for LF and CRLF files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <zlib.h>

namespace revsum::read_internal {

// One line of input, without its terminator.
struct Line {
  std::string_view bytes;  // the line; only its first keep_bytes when `overflow`. Valid until the
                           // next call to LineReader::Next().
  uint64_t number = 0;     // 1-based line number
  uint64_t size = 0;       // the line's full length in bytes (without the terminator)
  bool overflow = false;   // size > max_line_bytes: `bytes` holds a prefix only
  std::string_view terminator;  // "\n", "\r\n", "\r", or "" for the last line without one
};

class LineReader {
 public:
  struct Options {
    size_t chunk_bytes = 1 << 20;      // bytes per read() / decoded bytes per inflate step
    size_t max_line_bytes = 16 << 20;  // longer lines are reported with `overflow`
    size_t keep_bytes = 64 << 10;      // bytes of an overflowing line kept in Line::bytes
  };

  enum class Status {
    kLine,   // *line is set
    kEnd,    // the input ended cleanly (or after an error was reported)
    kError,  // an I/O or gzip error: error() says what; *line holds the line reached and the
             // partial bytes read for it. The next call returns kEnd.
  };

  // Opens `path` ("-" = standard input). Returns null and sets *error (e.g. "cannot open: No such
  // file or directory", "is a directory, not a file") when it cannot be opened.
  static std::unique_ptr<LineReader> Open(const std::string& path, const Options& options,
                                          std::string* error);
  ~LineReader();

  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // REQUIRES: line != nullptr.
  Status Next(Line* line);

  // Up to `n` decoded bytes from the start of the input, without consuming them (for sniffing).
  // REQUIRES: Next() was not called yet; n <= Options::chunk_bytes.
  std::string_view Peek(size_t n);

  // Byte access for readers that do not work in lines (a JSON array may be one multi-GB line).
  // kLine: *bytes holds the decoded bytes not consumed yet (reading more when none are buffered);
  // they stay valid until Consume() or Next(). kEnd / kError as for Next() (*bytes is empty).
  // Line numbers are not counted in this mode.
  Status Available(std::string_view* bytes);
  // Marks the first `n` bytes of the last Available() as consumed. REQUIRES: n <= its size.
  void Consume(size_t n) { pos_ += n; }

  // Called, while Next() reads a line longer than max_line_bytes, with every byte of that line
  // in order (the bytes kept so far when it overflows, then each further piece), so a reader can
  // follow the syntax of bytes it does not get to see (the CSV reader tracks its quotes).
  void set_overflow_scanner(std::function<void(std::string_view)> scanner) {
    overflow_scanner_ = std::move(scanner);
  }

  const std::string& error() const { return error_; }

  // Decoded bytes consumed so far (by Next() or Consume()).
  uint64_t consumed() const { return base_ + pos_; }

  // Progress through the file, in file bytes: the decoded bytes consumed so far; for gzip an
  // estimate of the compressed bytes behind them (exact at chunk boundaries and at the end),
  // which advances with every consumed line rather than jumping by the compressed read-ahead.
  uint64_t bytes_read() const;
  uint64_t total_bytes() const { return total_bytes_; }
  bool gzip() const { return gzip_; }

 private:
  enum class Fill { kData, kEof, kError };

  LineReader(int fd, bool owns_fd, uint64_t total_bytes, const Options& options);
  bool Start(std::string* error);  // reads the first bytes and detects gzip
  Fill Refill();                   // appends decoded bytes at buf_[len_..]
  Fill ReadRaw(char* dst, size_t cap, size_t* got);
  Fill Inflate();
  void Append(const char* p, size_t n);
  Status Finish(Line* line, std::string_view bytes, std::string_view terminator);

  const Options options_;
  const int fd_;
  const bool owns_fd_;
  const uint64_t total_bytes_;
  uint64_t bytes_read_ = 0;  // raw bytes read from the file descriptor

  bool gzip_ = false;
  z_stream zs_{};
  bool zs_ready_ = false;
  bool member_ended_ = false;  // a gzip member ended; another may follow
  bool raw_eof_ = false;
  std::vector<char> in_;  // compressed input (gzip only)

  std::vector<char> buf_;  // decoded bytes; [pos_, len_) not yet consumed
  size_t pos_ = 0;
  size_t len_ = 0;
  uint64_t base_ = 0;  // decoded offset of buf_[0]
  // gzip progress: decoded offsets [d0, d1) of the last inflated chunk map linearly onto
  // compressed offsets [c0, c1).
  uint64_t progress_d0_ = 0, progress_d1_ = 0, progress_c0_ = 0, progress_c1_ = 0;
  bool eof_ = false;
  bool done_ = false;
  std::string pending_error_;  // an error met while data was still buffered
  std::string error_;

  std::string line_;  // a line spanning chunks
  uint64_t line_size_ = 0;
  bool line_overflow_ = false;
  uint64_t line_number_ = 0;
  enum class Eol { kUnknown, kLf, kAny };  // decided by the first line end (see the top)
  Eol eol_ = Eol::kUnknown;
  bool pending_cr_ = false;  // the line ended at a "\r" that was the last buffered byte
  std::function<void(std::string_view)> overflow_scanner_;
};

}  // namespace revsum::read_internal
