// A JSON string literal decoder (RFC 8259, section 7), for `revsum tokens --json` input lines.
#include <string>

#include "revsum/tokens.h"

namespace revsum {

namespace {

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool ReadHex4(std::string_view json, size_t at, char32_t* value) {
  if (at + 4 > json.size()) return false;
  *value = 0;
  for (size_t k = at; k < at + 4; ++k) {
    char c = json[k];
    int digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      digit = c - 'A' + 10;
    else
      return false;
    *value = (*value << 4) | static_cast<char32_t>(digit);
  }
  return true;
}

}  // namespace

bool ParseJsonString(std::string_view json, size_t* pos, std::string* out, std::string* error) {
  auto fail = [&](size_t at, const std::string& what) {
    *error = "JSON string: " + what + " at byte " + std::to_string(at);
    return false;
  };
  size_t i = *pos;
  if (i >= json.size() || json[i] != '"') return fail(i, "expected '\"'");
  ++i;
  out->clear();
  while (true) {
    if (i >= json.size()) return fail(i, "unterminated string");
    char c = json[i];
    if (c == '"') break;
    if (static_cast<unsigned char>(c) < 0x20) return fail(i, "unescaped control character");
    if (c != '\\') {
      out->push_back(c);
      ++i;
      continue;
    }
    if (i + 1 >= json.size()) return fail(i, "unterminated escape");
    char e = json[i + 1];
    i += 2;
    switch (e) {
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case '/':
        out->push_back('/');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        char32_t unit;
        if (!ReadHex4(json, i, &unit)) return fail(i - 2, "malformed \\u escape");
        i += 4;
        if (unit >= 0xDC00 && unit <= 0xDFFF) return fail(i - 6, "unpaired low surrogate");
        if (unit >= 0xD800 && unit <= 0xDBFF) {
          char32_t low;
          if (i + 6 > json.size() || json[i] != '\\' || json[i + 1] != 'u' ||
              !ReadHex4(json, i + 2, &low) || low < 0xDC00 || low > 0xDFFF) {
            return fail(i - 6, "unpaired high surrogate");
          }
          i += 6;
          unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
        }
        AppendUtf8(unit, out);
        break;
      }
      default:
        return fail(i - 2, std::string("unknown escape '\\") + e + "'");
    }
  }
  *pos = i + 1;
  return true;
}

bool DecodeJsonString(std::string_view json, std::string* out, std::string* error) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  size_t pos = 0;
  while (pos < json.size() && is_space(json[pos])) ++pos;
  if (!ParseJsonString(json, &pos, out, error)) return false;
  while (pos < json.size() && is_space(json[pos])) ++pos;
  if (pos != json.size()) {
    *error = "JSON string: unexpected text after the closing quote at byte " + std::to_string(pos);
    return false;
  }
  return true;
}

}  // namespace revsum
