#include "revsum/json.h"

namespace revsum {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendEscape(std::string& out, unsigned code) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
}

// The code point of a 2- or 3-byte UTF-8 sequence at s[i] that JSON writers escape although JSON
// allows them raw: DEL and C1 controls, the line and paragraph separators (a JSONL reader that
// splits lines on them breaks a record apart; JavaScript before ES2019 refused them), bidi
// embeddings, overrides and isolates and the zero-width and directional marks (they reorder or
// hide text where a JSON file is shown), and U+FEFF. 0 for anything else; *length its bytes.
unsigned EscapedCodePoint(std::string_view s, size_t i, size_t* length) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (b(0) == 0x7F) {
    *length = 1;
    return 0x7F;
  }
  if (b(0) == 0xC2 && i + 1 < s.size() && b(1) >= 0x80 && b(1) <= 0x9F) {
    *length = 2;
    return b(1);
  }
  if (b(0) == 0xD8 && i + 1 < s.size() && b(1) == 0x9C) {  // U+061C arabic letter mark
    *length = 2;
    return 0x061C;
  }
  if (i + 2 >= s.size() || (b(0) != 0xE2 && b(0) != 0xEF)) return 0;
  const unsigned code = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
  if ((b(1) & 0xC0) != 0x80 || (b(2) & 0xC0) != 0x80) return 0;
  const bool escaped = (code >= 0x200B && code <= 0x200F) || (code >= 0x2028 && code <= 0x202E) ||
                       (code >= 0x2066 && code <= 0x2069) || code == 0xFEFF;
  if (!escaped) return 0;
  *length = 3;
  return code;
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view utf8) {
  out += '"';
  for (size_t i = 0; i < utf8.size(); ++i) {
    const char ch = utf8[i];
    const auto c = static_cast<unsigned char>(ch);
    size_t length = 0;
    if (c >= 0x7F) {
      if (const unsigned code = EscapedCodePoint(utf8, i, &length)) {
        AppendEscape(out, code);
        i += length - 1;
        continue;
      }
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          AppendEscape(out, c);
        } else {
          out += ch;  // UTF-8 bytes pass through
        }
    }
  }
  out += '"';
}

std::string JsonQuote(std::string_view utf8) {
  std::string out;
  AppendJsonString(out, utf8);
  return out;
}

}  // namespace revsum
