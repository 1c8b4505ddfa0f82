#include "record_checks.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace revsum::read_internal {

std::string CheckText(std::string_view bytes, uint64_t offset) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  auto at = [&](size_t k) { return std::to_string(offset + k); };
  while (i < n) {
    // Fast path: eight ASCII bytes without NUL at a time.
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      const bool ascii = (w & 0x8080808080808080ULL) == 0;
      const bool has_zero = ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
      if (ascii && !has_zero) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = s[i];
    if (c == 0) return "binary data: NUL byte at byte " + at(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    // RFC 3629: reject overlong forms, surrogates and code points above U+10FFFF.
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return "invalid UTF-8 at byte " + at(i);
    }
    if (i + len > n) return "invalid UTF-8 at byte " + at(i);
    if (s[i + 1] < lo || s[i + 1] > hi) return "invalid UTF-8 at byte " + at(i);
    for (size_t k = 2; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return "invalid UTF-8 at byte " + at(i);
    }
    i += len;
  }
  return "";
}

bool IsBlank(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (text.substr(i, 2) == "\xC2\xA0") {
      i += 2;
    } else if (text.substr(i, 3) == "\xE3\x80\x80" || text.substr(i, 3) == "\xEF\xBB\xBF") {
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

std::optional<double> ParseNumber(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<int64_t> UnixSeconds(double value) {
  if (std::fabs(value) >= 1e11) value /= 1000.0;
  if (std::fabs(value) > 1e13) return std::nullopt;
  return static_cast<int64_t>(std::floor(value));
}

std::string_view Utf8Prefix(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t n = limit;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

std::string Concat(std::initializer_list<std::string_view> parts) {
  size_t n = 0;
  for (std::string_view part : parts) n += part.size();
  std::string out;
  out.reserve(n);
  for (std::string_view part : parts) out.append(part);
  return out;
}

std::string BoundedRaw(std::string_view raw, size_t limit) {
  return std::string(raw.substr(0, limit));
}

}  // namespace revsum::read_internal
