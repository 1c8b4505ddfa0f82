#include "revsum/json.h"

#include <simdjson.h>

#include <stdexcept>

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

namespace revsum {
namespace {

// `v` written back as JSON, strings through AppendJsonString (so the escaping contract holds).
void AppendJsonValue(std::string& out, simdjson::dom::element v) {
  switch (v.type()) {
    case simdjson::dom::element_type::OBJECT: {
      out += '{';
      bool first = true;
      for (auto [key, value] : simdjson::dom::object(v)) {
        if (!first) out += ',';
        first = false;
        AppendJsonString(out, key);
        out += ':';
        AppendJsonValue(out, value);
      }
      out += '}';
      break;
    }
    case simdjson::dom::element_type::ARRAY: {
      out += '[';
      bool first = true;
      for (simdjson::dom::element item : simdjson::dom::array(v)) {
        if (!first) out += ',';
        first = false;
        AppendJsonValue(out, item);
      }
      out += ']';
      break;
    }
    case simdjson::dom::element_type::STRING:
      AppendJsonString(out, std::string_view(v));
      break;
    default:  // numbers, true, false, null
      out += simdjson::minify(v);
      break;
  }
}

}  // namespace

std::string JsonSelectFields(std::string_view object, const std::vector<std::string>& fields) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object parsed;
  if (parser.parse(object.data(), object.size()).get(parsed) != simdjson::SUCCESS) {
    throw std::invalid_argument("--fields: the output is not a JSON object");
  }
  std::string out = "{";
  for (const std::string& field : fields) {
    simdjson::dom::element value;
    if (parsed[field].get(value) != simdjson::SUCCESS) {
      std::string known;
      for (auto [key, unused] : parsed) known += (known.empty() ? "" : ", ") + std::string(key);
      throw std::invalid_argument("--fields: no field '" + field + "' (fields: " + known + ")");
    }
    if (out.size() > 1) out += ',';
    AppendJsonString(out, field);
    out += ':';
    AppendJsonValue(out, value);
  }
  return out + "}";
}

std::vector<std::string> ParseFieldList(std::string_view list) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view f = list.substr(start, end - start);
    while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
    while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
    if (f.empty())
      throw std::invalid_argument("--fields: an empty field name in '" + std::string(list) +
                                  "' (e.g. --fields product,points)");
    fields.emplace_back(f);
    start = end + 1;
  }
  return fields;
}

}  // namespace revsum
