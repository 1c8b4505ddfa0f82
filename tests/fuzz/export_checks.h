// Checks shared by the export fuzz targets (fuzz_export: flat, fuzz_export_structured: points):
// the shape of the output's lines, no raw controls, and markdown inline text that opens nothing.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"

namespace revsum::fuzz {

// The lines of `s`, which must end with a newline; `what` names the output in a failure.
inline std::vector<std::string> Lines(const std::string& s, std::string_view what = "output") {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    const size_t end = s.find('\n', start);
    FUZZ_CHECK(end != std::string::npos,
               std::string(what) + ": output does not end with a newline: " + Escape(s));
    lines.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

inline bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}
inline bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// Valid UTF-8 with no raw control, C1, bidi or line/paragraph separator character but '\n'.
inline void CheckNoControls(const std::string& out, const char* format) {
  FUZZ_CHECK(IsValidUtf8(out), std::string(format) + ": invalid UTF-8");
  for (char32_t c : DecodeUtf8(out)) {
    const bool bad = (c < 0x20 && c != '\n') || (c >= 0x7F && c <= 0x9F) ||
                     (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 ||
                     c == 0x2029 || c == 0x200E || c == 0x200F || c == 0x061C;
    FUZZ_CHECK(!bad,
               std::string(format) + ": raw control U+" + std::to_string(c) + " in " + Escape(out));
  }
}

// `s` is markdown inline content that opens nothing: no leading/trailing space, no list item,
// underline or ordered-list start, every markdown metacharacter backslash-escaped, and no
// character reference but &lt; &gt; &amp;.
inline void CheckMarkdownInline(std::string_view s, const std::string& what) {
  FUZZ_CHECK(s.empty() || (s.front() != ' ' && s.back() != ' '),
             what + ": leading or trailing space: " + Escape(s));
  if (!s.empty()) {
    FUZZ_CHECK(s.front() != '-' && s.front() != '+' && s.front() != '=',
               what + ": starts a list item or underline: " + Escape(s));
  }
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits > 0 && digits < s.size()) {
    FUZZ_CHECK(s[digits] != '.' && s[digits] != ')', what + ": ordered list item: " + Escape(s));
  }
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\') {
      FUZZ_CHECK(i + 1 < s.size(), what + ": trailing backslash: " + Escape(s));
      ++i;  // an escaped character is literal
      continue;
    }
    FUZZ_CHECK(std::string_view("`*_[]<>|~#").find(c) == std::string_view::npos,
               what + ": unescaped '" + std::string(1, c) + "' at " + std::to_string(i) + ": " +
                   Escape(s));
    if (c == '&') {
      size_t j = i + 1;
      if (j < s.size() && s[j] == '#') ++j;
      while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i + 1 && j < s.size() && s[j] == ';') {
        const std::string_view ref = s.substr(i, j + 1 - i);
        FUZZ_CHECK(ref == "&lt;" || ref == "&gt;" || ref == "&amp;",
                   what + ": character reference " + std::string(ref) + ": " + Escape(s));
      }
    }
  }
}

}  // namespace revsum::fuzz
