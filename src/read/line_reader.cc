#include "line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace revsum::read_internal {

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The offset of the first '\n' or '\r' in p[0, n), or n. Eight bytes at a time (SWAR zero-byte
// test on the bytes XOR each target), as line ends are rare.
size_t FindLineEnd(const char* p, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  auto has_zero = [](uint64_t v) { return ((v - kOnes) & ~v & kHighs) != 0; };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (has_zero(w ^ (kOnes * '\n')) || has_zero(w ^ (kOnes * '\r'))) break;
  }
  for (; i < n; ++i) {
    if (p[i] == '\n' || p[i] == '\r') return i;
  }
  return n;
}

}  // namespace

std::unique_ptr<LineReader> LineReader::Open(const std::string& path, const Options& options,
                                             std::string* error) {
  int fd = 0;
  bool owns_fd = false;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *error = std::string("cannot open: ") + std::strerror(errno);
      return nullptr;
    }
    owns_fd = true;
  }
  struct stat st {};
  uint64_t total = 0;
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (owns_fd) ::close(fd);
      *error = "is a directory, not a file";
      return nullptr;
    }
    if (S_ISREG(st.st_mode)) total = static_cast<uint64_t>(st.st_size);
  }
  std::unique_ptr<LineReader> reader(new LineReader(fd, owns_fd, total, options));
  if (!reader->Start(error)) return nullptr;
  return reader;
}

LineReader::LineReader(int fd, bool owns_fd, uint64_t total_bytes, const Options& options)
    : options_(options), fd_(fd), owns_fd_(owns_fd), total_bytes_(total_bytes) {
  buf_.resize(options_.chunk_bytes < 4096 ? 4096 : options_.chunk_bytes);
}

LineReader::~LineReader() {
  if (zs_ready_) inflateEnd(&zs_);
  if (owns_fd_) ::close(fd_);
}

LineReader::Fill LineReader::ReadRaw(char* dst, size_t cap, size_t* got) {
  *got = 0;
  while (true) {
    ssize_t n = ::read(fd_, dst, cap);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      pending_error_ = std::string("read error: ") + std::strerror(errno);
      return Fill::kError;
    }
    *got = static_cast<size_t>(n);
    bytes_read_ += *got;
    return n == 0 ? Fill::kEof : Fill::kData;
  }
}

bool LineReader::Start(std::string* error) {
  // Read until we have the two magic bytes or the input ends (a pipe may deliver one byte).
  size_t got = 0;
  while (len_ < 2) {
    Fill f = ReadRaw(buf_.data() + len_, buf_.size() - len_, &got);
    if (f == Fill::kError) {
      *error = pending_error_;
      return false;
    }
    if (f == Fill::kEof) {
      raw_eof_ = true;
      break;
    }
    len_ += got;
  }
  if (len_ >= 2 && static_cast<unsigned char>(buf_[0]) == 0x1f &&
      static_cast<unsigned char>(buf_[1]) == 0x8b) {
    gzip_ = true;
    // What we read is compressed input: move it to in_ and decode into buf_.
    in_.assign(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(len_));
    in_.resize(buf_.size());
    zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
    zs_.avail_in = static_cast<uInt>(len_);
    len_ = 0;
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) {
      *error = "cannot initialise zlib";
      return false;
    }
    zs_ready_ = true;
  } else if (raw_eof_) {
    eof_ = true;
  }
  return true;
}

uint64_t LineReader::bytes_read() const {
  const uint64_t consumed = base_ + pos_;
  if (!gzip_) return consumed;
  if (consumed >= progress_d1_ || progress_d1_ <= progress_d0_) return progress_c1_;
  if (consumed <= progress_d0_) return progress_c0_;
  const double f = static_cast<double>(consumed - progress_d0_) /
                   static_cast<double>(progress_d1_ - progress_d0_);
  return progress_c0_ + static_cast<uint64_t>(f * static_cast<double>(progress_c1_ - progress_c0_));
}

LineReader::Fill LineReader::Inflate() {
  const size_t start = len_;
  progress_c0_ = bytes_read();
  progress_d0_ = base_ + pos_;
  zs_.next_out = reinterpret_cast<Bytef*>(buf_.data() + len_);
  zs_.avail_out = static_cast<uInt>(buf_.size() - len_);
  while (zs_.avail_out > 0) {
    if (zs_.avail_in == 0 && !raw_eof_) {
      size_t got = 0;
      Fill f = ReadRaw(in_.data(), in_.size(), &got);
      if (f == Fill::kError) break;
      if (f == Fill::kEof) raw_eof_ = true;
      zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
      zs_.avail_in = static_cast<uInt>(got);
    }
    if (member_ended_) {
      if (zs_.avail_in == 0 && raw_eof_) {
        eof_ = true;  // the last member ended exactly at the end of the input
        break;
      }
      if (zs_.avail_in == 0) continue;
      inflateReset(&zs_);  // concatenated gzip members (RFC 1952 section 2.2)
      member_ended_ = false;
    }
    const uInt avail_in_before = zs_.avail_in;
    const uInt avail_out_before = zs_.avail_out;
    int rc = inflate(&zs_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      member_ended_ = true;
      continue;
    }
    if (rc == Z_OK || rc == Z_BUF_ERROR) {
      const bool progress = zs_.avail_in != avail_in_before || zs_.avail_out != avail_out_before;
      if (!progress && zs_.avail_in == 0 && raw_eof_) {
        pending_error_ = "truncated gzip stream (the file ends inside compressed data)";
        break;
      }
      if (!progress && zs_.avail_in > 0) {  // cannot happen with zlib; never spin
        pending_error_ = "corrupt gzip data (zlib made no progress)";
        break;
      }
      continue;
    }
    pending_error_ = std::string("corrupt gzip data (zlib: ") +
                     (zs_.msg != nullptr ? zs_.msg : "error " + std::to_string(rc)) + ")";
    break;
  }
  len_ = buf_.size() - zs_.avail_out;
  progress_d1_ = base_ + len_;
  progress_c1_ = std::max(progress_c0_, bytes_read_ - zs_.avail_in);
  if (len_ > start) return Fill::kData;
  if (!pending_error_.empty()) return Fill::kError;
  return Fill::kEof;
}

LineReader::Fill LineReader::Refill() {
  if (pos_ == len_) {
    base_ += len_;
    pos_ = len_ = 0;
  }
  if (!pending_error_.empty()) return Fill::kError;
  if (eof_) return Fill::kEof;
  if (len_ == buf_.size()) return Fill::kData;  // Peek() filled it; nothing to add
  if (gzip_) return Inflate();
  size_t got = 0;
  Fill f = ReadRaw(buf_.data() + len_, buf_.size() - len_, &got);
  if (f == Fill::kEof) eof_ = true;
  len_ += got;
  return f;
}

std::string_view LineReader::Peek(size_t n) {
  if (n > buf_.size()) n = buf_.size();
  while (len_ - pos_ < n) {
    if (Refill() != Fill::kData) break;
  }
  return std::string_view(buf_.data() + pos_, std::min(n, len_ - pos_));
}

void LineReader::Append(const char* p, size_t n) {
  line_size_ += n;
  if (!line_overflow_ && line_size_ > options_.max_line_bytes) {
    line_overflow_ = true;
    if (overflow_scanner_) {
      overflow_scanner_(line_);
      overflow_scanner_(std::string_view(p, n));
    }
    if (line_.size() > options_.keep_bytes) line_.resize(options_.keep_bytes);
    line_.shrink_to_fit();
  } else if (line_overflow_ && overflow_scanner_) {
    overflow_scanner_(std::string_view(p, n));
  }
  if (line_overflow_) {
    if (line_.size() < options_.keep_bytes) {
      line_.append(p, std::min(n, options_.keep_bytes - line_.size()));
    }
  } else {
    line_.append(p, n);
  }
}

LineReader::Status LineReader::Finish(Line* line, std::string_view bytes,
                                      std::string_view terminator) {
  line->number = ++line_number_;
  line->overflow = line_overflow_;
  line->terminator = terminator;
  line->size = line_size_;
  if (terminator == "\n" && !line_overflow_ && !bytes.empty() && bytes.back() == '\r') {
    bytes.remove_suffix(1);  // "\r\n" found by the "\n" search of Eol::kLf
    line->size -= 1;
    line->terminator = "\r\n";
  }
  if (line_number_ == 1 && bytes.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    bytes.remove_prefix(kUtf8Bom.size());
    line->size -= kUtf8Bom.size();
  }
  line->bytes = bytes;
  return Status::kLine;
}

LineReader::Status LineReader::Next(Line* line) {
  if (done_) return Status::kEnd;
  line_.clear();
  line_size_ = 0;
  line_overflow_ = false;
  bool spanning = false;  // the line started in an earlier chunk and lives in line_
  while (true) {
    if (pos_ == len_) {
      Fill f = Refill();
      if (f == Fill::kError) {
        done_ = true;
        error_ = pending_error_;
        line->number = line_number_ + 1;
        line->bytes = line_;
        line->size = line_size_;
        line->overflow = line_overflow_;
        line->terminator = {};
        return Status::kError;
      }
      if (f == Fill::kEof) {
        done_ = true;
        if (pending_cr_) {
          pending_cr_ = false;
          return Finish(line, line_, "\r");
        }
        if (!spanning) return Status::kEnd;
        return Finish(line, line_, "");  // the last line had no terminator
      }
    }
    if (pending_cr_) {  // a "\r" ended the last chunk: a "\n" may follow it in this one
      pending_cr_ = false;
      if (buf_[pos_] == '\n') {
        ++pos_;
        if (eol_ == Eol::kUnknown) eol_ = Eol::kLf;
        return Finish(line, line_, "\r\n");
      }
      if (eol_ == Eol::kUnknown) eol_ = Eol::kAny;
      return Finish(line, line_, "\r");
    }
    const char* begin = buf_.data() + pos_;
    const size_t avail = len_ - pos_;
    size_t n = avail;
    if (eol_ == Eol::kLf) {
      const void* nl = std::memchr(begin, '\n', avail);
      if (nl != nullptr) n = static_cast<size_t>(static_cast<const char*>(nl) - begin);
    } else {
      n = FindLineEnd(begin, avail);
    }
    if (n == avail) {
      Append(begin, avail);
      pos_ = len_;
      spanning = true;
      continue;
    }
    std::string_view terminator = "\n";
    if (begin[n] == '\r') {
      if (n + 1 == avail) {
        Append(begin, n);
        pos_ = len_;
        spanning = true;
        pending_cr_ = true;
        continue;
      }
      terminator = begin[n + 1] == '\n' ? "\r\n" : "\r";
    }
    if (eol_ == Eol::kUnknown) eol_ = terminator == "\r" ? Eol::kAny : Eol::kLf;
    pos_ += n + terminator.size();
    if (!spanning && n <= options_.max_line_bytes) {
      line_size_ = n;
      return Finish(line, std::string_view(begin, n), terminator);  // fast path: no copy
    }
    Append(begin, n);
    return Finish(line, line_, terminator);
  }
}

LineReader::Status LineReader::Available(std::string_view* bytes) {
  *bytes = {};
  if (done_) return Status::kEnd;
  if (pos_ == len_) {
    Fill f = Refill();
    if (f == Fill::kError) {
      done_ = true;
      error_ = pending_error_;
      return Status::kError;
    }
    if (f == Fill::kEof) {
      done_ = true;
      return Status::kEnd;
    }
  }
  *bytes = std::string_view(buf_.data() + pos_, len_ - pos_);
  return Status::kLine;
}

}  // namespace revsum::read_internal
