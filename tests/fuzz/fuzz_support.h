// Helpers shared by the fuzz targets: a check that aborts with a message (libFuzzer then saves the
// input as a crash), and reference UTF-8 routines written independently of the library's own, so a
// target can check the library against them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// Aborts with `message` when `condition` is false. Active in every build type (no NDEBUG).
#define FUZZ_CHECK(condition, message)                                                           \
  do {                                                                                           \
    if (!(condition)) {                                                                          \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", __FILE__, __LINE__, #condition, \
                   std::string(message).c_str());                                                \
      std::abort();                                                                              \
    }                                                                                            \
  } while (0)

namespace revsum::fuzz {

// The length of the well-formed UTF-8 sequence at s[i] (Unicode 15, table 3-7), or of the maximal
// subpart of an ill-formed one (at least 1) with *valid = false.
inline size_t Utf8Unit(std::string_view s, size_t i, bool* valid) {
  const auto b = static_cast<unsigned char>(s[i]);
  *valid = true;
  if (b < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    *valid = false;
    return 1;
  }
  size_t k = 1;
  for (; k < len && i + k < s.size(); ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    const bool ok = k == 1 ? (c >= lo && c <= hi) : (c & 0xC0) == 0x80;
    if (!ok) break;
  }
  if (k < len) *valid = false;
  return k;
}

// True when `s` is well-formed UTF-8 (no surrogates, overlongs or values above U+10FFFF).
inline bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    bool valid = false;
    i += Utf8Unit(s, i, &valid);
    if (!valid) return false;
  }
  return true;
}

// Byte offsets where each code point of `s` starts, plus s.size() at the end; every maximal
// ill-formed subpart counts as one code point (it decodes to one U+FFFD).
inline std::vector<size_t> CodePointStarts(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size();) {
    starts.push_back(i);
    bool valid = false;
    i += Utf8Unit(s, i, &valid);
  }
  starts.push_back(s.size());
  return starts;
}

// Code points of `s`, decoded with maximal-subpart U+FFFD substitution.
inline std::u32string DecodeUtf8(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    bool valid = false;
    const size_t n = Utf8Unit(s, i, &valid);
    if (!valid) {
      out.push_back(0xFFFD);
    } else {
      const auto b = static_cast<unsigned char>(s[i]);
      char32_t c = n == 1 ? b : b & (0x7F >> n);
      for (size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      out.push_back(c);
    }
    i += n;
  }
  return out;
}

inline std::string EncodeUtf8(std::u32string_view text) {
  std::string out;
  for (char32_t c : text) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// A printable rendering of bytes for failure messages (non-ASCII and controls as \xNN).
inline std::string Escape(std::string_view s, size_t limit = 400) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  if (s.size() > limit) out += "...";
  return out;
}

// A target's scratch directory (set once, on its first input) and its removal at exit
// (std::atexit(RemoveTempDir)).
inline std::filesystem::path& TempDir() {
  static std::filesystem::path dir;
  return dir;
}
inline void RemoveTempDir() {
  std::error_code ignored;
  if (!TempDir().empty()) std::filesystem::remove_all(TempDir(), ignored);
}

}  // namespace revsum::fuzz
