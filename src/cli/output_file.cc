#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <streambuf>
#include <vector>

#include "revsum/error.h"

namespace revsum::cli {
namespace {

// An output stream buffer over a file descriptor; remembers the first write error.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  ~FdBuf() override { Flush(); }
  // 0 on success, else the errno of the first failed write.
  int error() const { return error_; }
  bool Flush() {
    const char* p = pbase();
    size_t n = static_cast<size_t>(pptr() - pbase());
    while (n > 0 && error_ == 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        error_ = errno;
        break;
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return error_ == 0;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!Flush()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return Flush() ? 0 : -1; }

 private:
  int fd_;
  std::vector<char> buf_;
  int error_ = 0;
};

revsum::Error Failure(const std::string& what, const std::string& step, int err) {
  return revsum::Error(what + ": " + step + ": " + std::strerror(err));
}

// Runs `write` into `fd`; throws on a write error.
void WriteTo(int fd, const std::string& what, const std::function<void(std::ostream&)>& write) {
  FdBuf buf(fd);
  std::ostream out(&buf);
  write(out);
  out.flush();
  if (!buf.Flush() || !out) throw Failure(what, "cannot write", buf.error() ? buf.error() : EIO);
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // Closes now, reporting the error (a full disk can show only here).
  int Close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

// A missing path or a singly linked regular file: a temporary beside it, renamed over it.
void ReplaceAtomically(const std::string& path, const struct stat* old, const std::string& what,
                       const std::function<void(std::ostream&)>& write) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw Failure(what, "cannot write a new file in " + dir.string(), errno);
  Fd file(fd);
  try {
    WriteTo(file.get(), what, write);
    mode_t mode;
    if (old) {
      mode = old->st_mode & 07777;
      // Keeps the owner when allowed (root writing over a user's file); else the writer owns it.
      [[maybe_unused]] const int owned = ::fchown(file.get(), old->st_uid, old->st_gid);
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    if (::fchmod(file.get(), mode) != 0) throw Failure(what, "cannot set the mode", errno);
    if (::fsync(file.get()) != 0) throw Failure(what, "cannot write", errno);
    if (const int err = file.Close(); err != 0) throw Failure(what, "cannot write", err);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
      throw Failure(what, "cannot replace it", errno);
    }
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

}  // namespace

void WriteOutputFile(const std::string& path, const std::string& what,
                     const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw revsum::Error(what + ": cannot write to standard output");
    return;
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) throw Failure(what, "cannot inspect it", errno);
    ReplaceAtomically(path, nullptr, what, write);
    return;
  }
  if (S_ISDIR(st.st_mode)) throw revsum::Error(what + ": is a directory");
  if (S_ISREG(st.st_mode) && st.st_nlink == 1) {
    ReplaceAtomically(path, &st, what, write);
    return;
  }
  // A FIFO, device, symlink or hard-linked file: written into, never replaced.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw Failure(what, "cannot open it", errno);
  Fd file(fd);
  struct stat opened {};
  if (::fstat(file.get(), &opened) == 0 && S_ISDIR(opened.st_mode)) {
    throw revsum::Error(what + ": is a directory");
  }
  if (S_ISREG(opened.st_mode) && ::ftruncate(file.get(), 0) != 0) {
    throw Failure(what, "cannot truncate it", errno);
  }
  WriteTo(file.get(), what, write);
  if (const int err = file.Close(); err != 0) throw Failure(what, "cannot write", err);
}

}  // namespace revsum::cli
