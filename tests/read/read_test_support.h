// Helpers for the read stage's tests: a temporary directory, files written from the test, gzip
// made with zlib, and "read everything" into reviews and rejects.
#pragma once

#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "revsum/read.h"

namespace revsum::testing {

// A fresh directory under the system temp dir, removed with its contents at destruction.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("revsum_read_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

  // Writes `bytes` to `name` in the directory and returns its path.
  std::string Write(const std::string& name, std::string_view bytes) const {
    const std::filesystem::path p = path_ / name;
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

// One gzip member (RFC 1952) holding `bytes`, compressed with zlib.
inline std::string Gzip(std::string_view bytes) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, bytes.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

struct ReadResult {
  std::vector<Review> reviews;
  std::vector<Reject> rejects;
  Format format = Format::kAuto;
  bool gzip = false;
  uint64_t bytes_read = 0;
  uint64_t total_bytes = 0;
};

// Reads all of `path`, checking that every Record holds exactly one of review / reject.
inline ReadResult ReadAll(const std::string& path, const ReadOptions& options = {}) {
  ReadResult result;
  auto reader = ReviewReader::Open(path, options);
  EXPECT_NE(reader, nullptr);
  Record record;
  while (reader->Next(&record)) {
    EXPECT_NE(record.review.has_value(), record.reject.has_value());
    if (record.review) result.reviews.push_back(*record.review);
    if (record.reject) result.rejects.push_back(*record.reject);
  }
  result.format = reader->format();
  result.gzip = reader->gzip();
  result.bytes_read = reader->bytes_read();
  result.total_bytes = reader->total_bytes();
  return result;
}

// The message of the ReadError that opening and reading all of `path` throws, or "" if none is.
inline std::string ReadErrorOf(const std::string& path, const ReadOptions& options = {}) {
  try {
    ReadAll(path, options);
  } catch (const ReadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace revsum::testing
