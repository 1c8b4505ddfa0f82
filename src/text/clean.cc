// Cleaning with an offset map: markup (tags, entities) -> NFKC -> control characters -> whitespace.
//
// Every stage keeps, per output code point, the span of original code points it came from, so the
// final MappedText maps cleaned text back to the review as stored.

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "revsum/text.h"
#include "utf.h"

namespace revsum {
namespace {

using text_internal::AppendUtf8;
using text_internal::DecodeUtf8;

// What a recognised HTML tag turns into.
enum class TagKind { kBlock, kSpace, kInline };

struct TagName {
  std::string_view name;
  TagKind kind;
};

// Elements seen in review dumps. Block elements end a line of text; cells and embedded media
// separate words; everything else (a, b, i, span, ...) vanishes. Unknown names are not tags: "<3"
// or "a<b and c>d" stay text.
constexpr std::array kTags = {
    TagName{"br", TagKind::kBlock},       TagName{"p", TagKind::kBlock},
    TagName{"div", TagKind::kBlock},      TagName{"li", TagKind::kBlock},
    TagName{"ul", TagKind::kBlock},       TagName{"ol", TagKind::kBlock},
    TagName{"hr", TagKind::kBlock},       TagName{"h1", TagKind::kBlock},
    TagName{"h2", TagKind::kBlock},       TagName{"h3", TagKind::kBlock},
    TagName{"h4", TagKind::kBlock},       TagName{"h5", TagKind::kBlock},
    TagName{"h6", TagKind::kBlock},       TagName{"tr", TagKind::kBlock},
    TagName{"table", TagKind::kBlock},    TagName{"blockquote", TagKind::kBlock},
    TagName{"pre", TagKind::kBlock},      TagName{"dl", TagKind::kBlock},
    TagName{"dt", TagKind::kBlock},       TagName{"dd", TagKind::kBlock},
    TagName{"section", TagKind::kBlock},  TagName{"article", TagKind::kBlock},
    TagName{"td", TagKind::kSpace},       TagName{"th", TagKind::kSpace},
    TagName{"img", TagKind::kSpace},      TagName{"iframe", TagKind::kSpace},
    TagName{"video", TagKind::kSpace},    TagName{"a", TagKind::kInline},
    TagName{"b", TagKind::kInline},       TagName{"i", TagKind::kInline},
    TagName{"u", TagKind::kInline},       TagName{"s", TagKind::kInline},
    TagName{"em", TagKind::kInline},      TagName{"strong", TagKind::kInline},
    TagName{"span", TagKind::kInline},    TagName{"font", TagKind::kInline},
    TagName{"small", TagKind::kInline},   TagName{"big", TagKind::kInline},
    TagName{"sub", TagKind::kInline},     TagName{"sup", TagKind::kInline},
    TagName{"code", TagKind::kInline},    TagName{"center", TagKind::kInline},
    TagName{"strike", TagKind::kInline},  TagName{"del", TagKind::kInline},
    TagName{"ins", TagKind::kInline},     TagName{"mark", TagKind::kInline},
    TagName{"q", TagKind::kInline},       TagName{"cite", TagKind::kInline},
    TagName{"abbr", TagKind::kInline},    TagName{"wbr", TagKind::kInline},
    TagName{"tbody", TagKind::kInline},   TagName{"thead", TagKind::kInline},
};

struct Entity {
  std::string_view name;
  char32_t value;
};

// Named character references (HTML5) that occur in review dumps. Matched case-sensitively, then
// lower-cased (dumps contain "&QUOT;" and "&Amp;").
constexpr std::array kEntities = {
    Entity{"quot", U'"'},      Entity{"amp", U'&'},       Entity{"apos", U'\''},
    Entity{"lt", U'<'},        Entity{"gt", U'>'},        Entity{"nbsp", 0xA0},
    Entity{"ensp", 0x2002},    Entity{"emsp", 0x2003},    Entity{"thinsp", 0x2009},
    Entity{"shy", 0xAD},       Entity{"zwj", 0x200D},     Entity{"zwnj", 0x200C},
    Entity{"hellip", 0x2026},  Entity{"mdash", 0x2014},   Entity{"ndash", 0x2013},
    Entity{"lsquo", 0x2018},   Entity{"rsquo", 0x2019},   Entity{"sbquo", 0x201A},
    Entity{"ldquo", 0x201C},   Entity{"rdquo", 0x201D},   Entity{"bdquo", 0x201E},
    Entity{"laquo", 0xAB},     Entity{"raquo", 0xBB},     Entity{"middot", 0xB7},
    Entity{"bull", 0x2022},    Entity{"copy", 0xA9},      Entity{"reg", 0xAE},
    Entity{"trade", 0x2122},   Entity{"deg", 0xB0},       Entity{"times", 0xD7},
    Entity{"divide", 0xF7},    Entity{"plusmn", 0xB1},    Entity{"micro", 0xB5},
    Entity{"frac12", 0xBD},    Entity{"frac14", 0xBC},    Entity{"frac34", 0xBE},
    Entity{"euro", 0x20AC},    Entity{"pound", 0xA3},     Entity{"yen", 0xA5},
    Entity{"cent", 0xA2},      Entity{"sect", 0xA7},      Entity{"para", 0xB6},
    Entity{"iexcl", 0xA1},     Entity{"iquest", 0xBF},    Entity{"hearts", 0x2665},
    Entity{"star", 0x2606},    Entity{"rarr", 0x2192},    Entity{"larr", 0x2190},
    Entity{"szlig", 0xDF},     Entity{"aacute", 0xE1},    Entity{"agrave", 0xE0},
    Entity{"acirc", 0xE2},     Entity{"auml", 0xE4},      Entity{"atilde", 0xE3},
    Entity{"aring", 0xE5},     Entity{"aelig", 0xE6},     Entity{"ccedil", 0xE7},
    Entity{"eacute", 0xE9},    Entity{"egrave", 0xE8},    Entity{"ecirc", 0xEA},
    Entity{"euml", 0xEB},      Entity{"iacute", 0xED},    Entity{"igrave", 0xEC},
    Entity{"icirc", 0xEE},     Entity{"iuml", 0xEF},      Entity{"ntilde", 0xF1},
    Entity{"oacute", 0xF3},    Entity{"ograve", 0xF2},    Entity{"ocirc", 0xF4},
    Entity{"ouml", 0xF6},      Entity{"otilde", 0xF5},    Entity{"oslash", 0xF8},
    Entity{"uacute", 0xFA},    Entity{"ugrave", 0xF9},    Entity{"ucirc", 0xFB},
    Entity{"uuml", 0xFC},      Entity{"yuml", 0xFF},      Entity{"Auml", 0xC4},
    Entity{"Ouml", 0xD6},      Entity{"Uuml", 0xDC},      Entity{"Eacute", 0xC9},
    Entity{"Aacute", 0xC1},    Entity{"Ntilde", 0xD1},    Entity{"Ccedil", 0xC7},
};

// HTML5 reads numeric references 0x80..0x9F as windows-1252 (dumps encode ’ as &#146;).
constexpr std::array<char32_t, 32> kWindows1252 = {
    0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x8D,   0x017D, 0x8F,   0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};

bool IsAsciiAlpha(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool IsAsciiSpace(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char32_t AsciiLower(char32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

// Recognises an HTML tag or comment starting at s[i] == '<'. On success sets *length (code points,
// including '<' and '>') and *kind.
bool ParseTag(std::u32string_view s, size_t i, size_t* length, TagKind* kind) {
  constexpr size_t kMaxTag = 1024;  // longer "tags" are text with a stray '<'
  size_t j = i + 1;
  if (s.substr(j, 3) == U"!--") {  // comment: <!-- ... -->
    size_t close = s.find(U"-->", j + 3);
    if (close == std::u32string_view::npos || close - i > 4 * kMaxTag) return false;
    *length = close + 3 - i;
    *kind = TagKind::kInline;
    return true;
  }
  if (j < s.size() && s[j] == '/') ++j;
  std::string name;
  while (j < s.size() && name.size() <= 10 && (IsAsciiAlpha(s[j]) || IsAsciiDigit(s[j]))) {
    name.push_back(static_cast<char>(AsciiLower(s[j])));
    ++j;
  }
  if (name.empty() || !IsAsciiAlpha(static_cast<unsigned char>(name[0]))) return false;
  if (j >= s.size() || !(s[j] == '>' || s[j] == '/' || IsAsciiSpace(s[j]))) return false;
  const auto tag = std::find_if(kTags.begin(), kTags.end(),
                                [&](const TagName& t) { return t.name == name; });
  if (tag == kTags.end()) return false;
  // Scan to '>' honouring quoted attribute values; a '<' before the end means this was not a tag.
  // Attributes must have values ("<a href=...>"): "a<b and c>d" is text, not a <b> tag.
  char32_t quote = 0;
  bool bare_words = false, has_value = false;
  for (; j < s.size() && j - i < kMaxTag; ++j) {
    const char32_t c = s[j];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '=') {
      has_value = true;
    } else if (c == '>') {
      if (bare_words && !has_value) return false;
      *length = j + 1 - i;
      *kind = tag->kind;
      return true;
    } else if (!IsAsciiSpace(c) && c != '/') {
      bare_words = true;
    } else if (c == '<') {
      return false;
    }
  }
  return false;
}

// Recognises a character reference starting at s[i] == '&' ("&name;", "&#123;", "&#x1F600;").
// On success sets *length and *value.
bool ParseEntity(std::u32string_view s, size_t i, size_t* length, char32_t* value) {
  size_t j = i + 1;
  if (j < s.size() && s[j] == '#') {
    ++j;
    const bool hex = j < s.size() && (s[j] == 'x' || s[j] == 'X');
    if (hex) ++j;
    const size_t digits_begin = j;
    uint32_t v = 0;
    while (j < s.size() && j - digits_begin < 8) {
      const char32_t c = s[j];
      int d = -1;
      if (IsAsciiDigit(c)) d = static_cast<int>(c - '0');
      else if (hex && c >= 'a' && c <= 'f') d = static_cast<int>(c - 'a' + 10);
      else if (hex && c >= 'A' && c <= 'F') d = static_cast<int>(c - 'A' + 10);
      if (d < 0) break;
      v = v * (hex ? 16 : 10) + static_cast<uint32_t>(d);
      ++j;
    }
    if (j == digits_begin || j >= s.size() || s[j] != ';') return false;
    if (v >= 0x80 && v <= 0x9F) v = kWindows1252[v - 0x80];
    if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) v = 0xFFFD;
    *value = v;
    *length = j + 1 - i;
    return true;
  }
  std::string name;
  while (j < s.size() && name.size() <= 8 && (IsAsciiAlpha(s[j]) || IsAsciiDigit(s[j]))) {
    name.push_back(static_cast<char>(s[j]));
    ++j;
  }
  if (name.empty() || j >= s.size() || s[j] != ';') return false;
  auto lookup = [](std::string_view n) -> const Entity* {
    for (const Entity& e : kEntities)
      if (e.name == n) return &e;
    return nullptr;
  };
  const Entity* e = lookup(name);
  if (!e) {
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(AsciiLower(static_cast<unsigned char>(c)));
    e = lookup(lower);
  }
  if (!e) return false;
  *value = e->value;
  *length = j + 1 - i;
  return true;
}

// Output of one cleaning step: code points with their original spans.
struct Spans {
  std::u32string text;
  std::vector<int32_t> begin, end;
  void Push(char32_t c, int32_t b, int32_t e) {
    text.push_back(c);
    begin.push_back(b);
    end.push_back(e);
  }
  void Reserve(size_t n) {
    text.reserve(n);
    begin.reserve(n);
    end.reserve(n);
  }
};

// Step 1: tags removed (block tags -> '\n'), character references decoded.
Spans RemoveMarkup(std::u32string_view s) {
  Spans out;
  out.Reserve(s.size());
  const bool maybe_markup = s.find_first_of(U"<&") != std::u32string_view::npos;
  for (size_t i = 0; i < s.size();) {
    const char32_t c = s[i];
    const auto at = static_cast<int32_t>(i);
    size_t length = 0;
    if (maybe_markup && c == '<') {
      TagKind kind;
      if (ParseTag(s, i, &length, &kind)) {
        const auto to = static_cast<int32_t>(i + length);
        if (kind == TagKind::kBlock) out.Push('\n', at, to);
        if (kind == TagKind::kSpace) out.Push(' ', at, to);
        i += length;
        continue;
      }
    } else if (maybe_markup && c == '&') {
      char32_t value;
      if (ParseEntity(s, i, &length, &value)) {
        // Doubly escaped dumps write "&amp;quot;": decode the inner reference too.
        if (value == '&' && i + length < s.size()) {
          size_t inner_length = 0;
          char32_t inner;
          std::u32string probe = U"&";
          probe.append(s.substr(i + length, 16));
          if (ParseEntity(probe, 0, &inner_length, &inner)) {
            value = inner;
            length += inner_length - 1;
          }
        }
        out.Push(value, at, static_cast<int32_t>(i + length));
        i += length;
        continue;
      }
    }
    out.Push(c, at, at + 1);
    ++i;
  }
  return out;
}

const icu::Normalizer2& Nfkc() {
  static const icu::Normalizer2* instance = [] {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCInstance(status);
    if (U_FAILURE(status)) {
      throw std::runtime_error(std::string("revsum text: cannot load ICU NFKC data: ") +
                               u_errorName(status));
    }
    return n;
  }();
  return *instance;
}

// Step 2: NFKC, one normalisation chunk at a time. A chunk starts at a character with a
// normalisation boundary before it and runs to the next such character, so normalising chunks
// separately equals normalising the whole text, and each output code point maps to its chunk.
Spans NormalizeNfkc(const Spans& in) {
  const bool ascii = std::all_of(in.text.begin(), in.text.end(), [](char32_t c) { return c < 0x80; });
  if (ascii) return in;  // ASCII is NFKC-invariant
  const icu::Normalizer2& nfkc = Nfkc();
  Spans out;
  out.Reserve(in.text.size());
  const size_t n = in.text.size();
  icu::UnicodeString decomposition;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && !nfkc.hasBoundaryBefore(static_cast<UChar32>(in.text[j]))) ++j;
    const char32_t c = in.text[i];
    if (j == i + 1 &&
        (c < 0x80 || !nfkc.getDecomposition(static_cast<UChar32>(c), decomposition))) {
      out.Push(c, in.begin[i], in.end[i]);
    } else {
      icu::UnicodeString chunk;
      for (size_t k = i; k < j; ++k) chunk.append(static_cast<UChar32>(in.text[k]));
      UErrorCode status = U_ZERO_ERROR;
      const icu::UnicodeString normalized = nfkc.normalize(chunk, status);
      if (U_FAILURE(status)) {
        throw std::runtime_error(std::string("revsum text: NFKC normalisation failed: ") +
                                 u_errorName(status));
      }
      for (int32_t k = 0; k < normalized.length();) {
        const UChar32 d = normalized.char32At(k);
        out.Push(static_cast<char32_t>(d), in.begin[i], in.end[j - 1]);
        k += U16_LENGTH(d);
      }
    }
    i = j;
  }
  return out;
}

bool IsLineBreak(char32_t c) {
  return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x85 || c == 0x2028 ||
         c == 0x2029;
}

// Control and format characters that are dropped. ZWJ (emoji sequences) and tag characters
// (subdivision flags) are kept; so are U+FFFD and unassigned code points.
bool IsDropped(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c < 0xA0)) return !IsLineBreak(c) && c != '\t';
  if (c == 0x200D || (c >= 0xE0020 && c <= 0xE007F)) return false;
  return u_charType(static_cast<UChar32>(c)) == U_FORMAT_CHAR;
}

bool IsSpace(char32_t c) { return c == '\t' || u_isUWhiteSpace(static_cast<UChar32>(c)); }

// Step 3: control characters dropped, whitespace collapsed and trimmed.
MappedText CollapseWhitespace(const Spans& in) {
  MappedText out;
  out.text.reserve(in.text.size());
  out.begin.reserve(in.text.size());
  out.end.reserve(in.text.size());
  bool pending = false, pending_line = false;
  int32_t pending_begin = 0, pending_end = 0;
  for (size_t i = 0; i < in.text.size(); ++i) {
    const char32_t c = in.text[i];
    if (IsDropped(c)) continue;
    if (IsLineBreak(c) || IsSpace(c)) {
      if (!pending) {
        pending = true;
        pending_line = false;
        pending_begin = in.begin[i];
        pending_end = in.end[i];
      }
      if (IsLineBreak(c)) pending_line = true;
      continue;
    }
    if (pending && !out.text.empty()) {
      out.text.push_back(pending_line ? U'\n' : U' ');
      out.begin.push_back(pending_begin);
      out.end.push_back(pending_end);
    }
    pending = false;
    out.text.push_back(c);
    out.begin.push_back(in.begin[i]);
    out.end.push_back(in.end[i]);
  }
  return out;
}

}  // namespace

MappedText CleanWithOffsets(std::string_view original) {
  const std::u32string decoded = DecodeUtf8(original);
  return CollapseWhitespace(NormalizeNfkc(RemoveMarkup(decoded)));
}

std::string CleanText(std::string_view original) {
  const MappedText cleaned = CleanWithOffsets(original);
  std::string out;
  out.reserve(cleaned.text.size());
  for (char32_t c : cleaned.text) AppendUtf8(c == '\n' ? U' ' : c, &out);
  return out;
}

}  // namespace revsum
