// Byte-level input shared by the format readers: opens a file or standard input, inflates gzip
// (recognised by its magic bytes, concatenated members included), reads fixed-size chunks and
// splits them into lines. The format readers never touch file descriptors or zlib.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <zlib.h>

namespace revsum::read_internal {

// One line of input, without its "\n" or "\r\n".
struct Line {
  std::string_view bytes;  // the line; only its first keep_bytes when `overflow`. Valid until the
                           // next call to LineReader::Next().
  uint64_t number = 0;     // 1-based line number
  uint64_t size = 0;       // the line's full length in bytes (without the terminator)
  bool overflow = false;   // size > max_line_bytes: `bytes` holds a prefix only
  bool crlf = false;       // the line ended with "\r\n" (the "\r" is not part of `bytes`)
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

  // Opens `path` ("-" = standard input). Returns null and sets *error when it cannot be opened.
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

  const std::string& error() const { return error_; }
  uint64_t bytes_read() const { return bytes_read_; }
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
  Status Finish(Line* line, std::string_view bytes);

  const Options options_;
  const int fd_;
  const bool owns_fd_;
  const uint64_t total_bytes_;
  uint64_t bytes_read_ = 0;

  bool gzip_ = false;
  z_stream zs_{};
  bool zs_ready_ = false;
  bool member_ended_ = false;  // a gzip member ended; another may follow
  bool raw_eof_ = false;
  std::vector<char> in_;  // compressed input (gzip only)

  std::vector<char> buf_;  // decoded bytes; [pos_, len_) not yet consumed
  size_t pos_ = 0;
  size_t len_ = 0;
  bool eof_ = false;
  bool done_ = false;
  std::string pending_error_;  // an error met while data was still buffered
  std::string error_;

  std::string line_;  // a line spanning chunks
  uint64_t line_size_ = 0;
  bool line_overflow_ = false;
  uint64_t line_number_ = 0;
};

}  // namespace revsum::read_internal
