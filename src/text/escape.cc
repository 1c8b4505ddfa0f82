#include "revsum/escape.h"

#include <cstdint>

#include <unicode/uchar.h>

#include "revsum/utf8.h"
#include "utf.h"

namespace revsum {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendByteEscape(uint8_t b, std::string& out) {
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xF];
}

void AppendCodePointEscape(char32_t c, std::string& out) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0xF];
}

// Code points that reorder or break a displayed line although they are not C0/C1 controls.
bool IsBidiOrLineSeparator(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

bool IsControl(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

// Calls on_valid(code point, bytes) or on_invalid(bytes of one maximal invalid subpart) in order.
template <typename Valid, typename Invalid>
void ForEachCodePoint(std::string_view s, Valid on_valid, Invalid on_invalid) {
  size_t i = 0;
  while (i < s.size()) {
    const size_t start = i;
    const int32_t c =
        NextCodePoint(s, &i);  // c < 0 on error; i is past the maximal invalid subpart
    const std::string_view bytes = s.substr(start, i - start);
    if (c < 0) {
      on_invalid(bytes);
    } else {
      on_valid(static_cast<char32_t>(c), bytes);
    }
  }
}

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiAlnum(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// True when s[i] == '&' starts something a renderer decodes as a character reference:
// &name; &#digits; &#xhex;
bool StartsCharacterReference(std::string_view s, size_t i) {
  size_t j = i + 1;
  if (j < s.size() && s[j] == '#') {
    ++j;
    if (j < s.size() && (s[j] == 'x' || s[j] == 'X')) ++j;
  }
  const size_t name = j;
  while (j < s.size() && IsAsciiAlnum(s[j])) ++j;
  return j > name && j < s.size() && s[j] == ';';
}

bool IsWordChar(char c) { return IsAsciiAlnum(c) || static_cast<uint8_t>(c) >= 0x80; }

bool StartsWwwAutolink(std::string_view s, size_t i) {
  if (i + 4 > s.size()) return false;
  if (i > 0 && IsWordChar(s[i - 1])) return false;
  for (size_t k = 0; k < 3; ++k) {
    if (s[i + k] != 'w' && s[i + k] != 'W') return false;
  }
  return s[i + 3] == '.';
}

}  // namespace

std::string ShowInvisibles(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  ForEachCodePoint(
      s,
      [&](char32_t c, std::string_view bytes) {
        const auto u = static_cast<UChar32>(c);
        if (c >= 0x80 &&
            (u_hasBinaryProperty(u, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) || u_isUWhiteSpace(u))) {
          if (c > 0xFFFF) {
            out += "\\U";
            for (int shift = 28; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0xF];
          } else {
            AppendCodePointEscape(c, out);
          }
        } else {
          out += bytes;
        }
      },
      [&](std::string_view bytes) { out += bytes; });
  return out;
}

std::string KeyForMessage(std::string_view key) {
  constexpr size_t kShownBytes = 200;
  if (key.size() <= kShownBytes) return TerminalSafe(ShowInvisibles(key));
  size_t cut = kShownBytes;
  while (cut > 0 && (static_cast<uint8_t>(key[cut]) & 0xC0) == 0x80) --cut;  // not mid-character
  return TerminalSafe(ShowInvisibles(key.substr(0, cut))) + "... (" + std::to_string(key.size()) +
         " bytes)";
}

std::string TerminalSafe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  ForEachCodePoint(
      s,
      [&](char32_t c, std::string_view bytes) {
        if (c == '\n') {
          out += "\\n";
        } else if (c == '\r') {
          out += "\\r";
        } else if (c == '\t') {
          out += "\\t";
        } else if (c < 0x20 || c == 0x7F) {
          AppendByteEscape(static_cast<uint8_t>(c), out);
        } else if (IsControl(c) || IsBidiOrLineSeparator(c)) {
          AppendCodePointEscape(c, out);
        } else {
          out += bytes;
        }
      },
      [&](std::string_view bytes) {
        for (char b : bytes) AppendByteEscape(static_cast<uint8_t>(b), out);
      });
  return out;
}

std::string MarkdownInline(std::string_view s) {
  // First pass: one line of valid UTF-8 without controls, trimmed.
  std::string line;
  line.reserve(s.size());
  ForEachCodePoint(
      s,
      [&](char32_t c, std::string_view bytes) {
        if (IsControl(c) || IsBidiOrLineSeparator(c)) {
          line += ' ';
        } else {
          line += bytes;
        }
      },
      [&](std::string_view) { text_internal::AppendUtf8(0xFFFD, &line); });
  const size_t first = line.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  const size_t last = line.find_last_not_of(' ');
  const std::string_view t = std::string_view(line).substr(first, last - first + 1);

  // Second pass: markup.
  size_t leading_digits = 0;
  while (leading_digits < t.size() && IsAsciiDigit(t[leading_digits])) ++leading_digits;
  std::string out;
  out.reserve(t.size() + t.size() / 8 + 8);
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
      case '#':
      case '@':  // GFM autolinks "a@b.com", "mailto:a@b.com" and "xmpp:a@b.com"
        out += '\\';
        out += c;
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += StartsCharacterReference(t, i) ? "&amp;" : "&";
        break;
      case '!':
        if (i + 1 < t.size() && t[i + 1] == '[') out += '\\';
        out += c;
        break;
      case ':':
        if (t.substr(i + 1, 2) == "//") out += '\\';
        out += c;
        break;
      case '-':
      case '+':
      case '=':
        if (i == 0) out += '\\';
        out += c;
        break;
      case '.':
      case ')':
        if (leading_digits > 0 && i == leading_digits) out += '\\';
        out += c;
        break;
      case 'w':
      case 'W':
        if (StartsWwwAutolink(t, i)) {
          out += t.substr(i, 3);
          out += "\\.";
          i += 3;
        } else {
          out += c;
        }
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string HtmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  ForEachCodePoint(
      s, [&](char32_t, std::string_view bytes) { out += bytes; },
      [&](std::string_view) { out += "\xEF\xBF\xBD"; });
  return out;
}

}  // namespace revsum
