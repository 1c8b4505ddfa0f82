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

// What removed markup turns into: a line break (block elements), a space (cells, embedded media,
// elements whose content is dropped), or nothing (inline elements, comments, unknown elements).
enum class TagKind { kBlock, kSpace, kInline };

struct TagName {
  std::string_view name;
  TagKind kind;
};

// Elements whose effect on the text is more than vanishing. Every other element name (a, b, span,
// svg, form, my-widget, ...) is removed too and becomes nothing; see ParseMarkup.
constexpr std::array kTags = {
    TagName{"br", TagKind::kBlock},         TagName{"p", TagKind::kBlock},
    TagName{"div", TagKind::kBlock},        TagName{"li", TagKind::kBlock},
    TagName{"ul", TagKind::kBlock},         TagName{"ol", TagKind::kBlock},
    TagName{"hr", TagKind::kBlock},         TagName{"h1", TagKind::kBlock},
    TagName{"h2", TagKind::kBlock},         TagName{"h3", TagKind::kBlock},
    TagName{"h4", TagKind::kBlock},         TagName{"h5", TagKind::kBlock},
    TagName{"h6", TagKind::kBlock},         TagName{"tr", TagKind::kBlock},
    TagName{"table", TagKind::kBlock},      TagName{"blockquote", TagKind::kBlock},
    TagName{"pre", TagKind::kBlock},        TagName{"dl", TagKind::kBlock},
    TagName{"dt", TagKind::kBlock},         TagName{"dd", TagKind::kBlock},
    TagName{"section", TagKind::kBlock},    TagName{"article", TagKind::kBlock},
    TagName{"header", TagKind::kBlock},     TagName{"footer", TagKind::kBlock},
    TagName{"nav", TagKind::kBlock},        TagName{"main", TagKind::kBlock},
    TagName{"aside", TagKind::kBlock},      TagName{"figure", TagKind::kBlock},
    TagName{"figcaption", TagKind::kBlock}, TagName{"address", TagKind::kBlock},
    TagName{"caption", TagKind::kBlock},    TagName{"details", TagKind::kBlock},
    TagName{"summary", TagKind::kBlock},    TagName{"form", TagKind::kBlock},
    TagName{"fieldset", TagKind::kBlock},   TagName{"legend", TagKind::kBlock},
    TagName{"td", TagKind::kSpace},         TagName{"th", TagKind::kSpace},
    TagName{"img", TagKind::kSpace},        TagName{"iframe", TagKind::kSpace},
    TagName{"video", TagKind::kSpace},      TagName{"audio", TagKind::kSpace},
    TagName{"embed", TagKind::kSpace},      TagName{"object", TagKind::kSpace},
    TagName{"canvas", TagKind::kSpace},     TagName{"svg", TagKind::kSpace},
    TagName{"math", TagKind::kSpace},       TagName{"input", TagKind::kSpace},
    TagName{"button", TagKind::kSpace},     TagName{"select", TagKind::kSpace},
    TagName{"option", TagKind::kSpace},     TagName{"textarea", TagKind::kSpace},
    TagName{"label", TagKind::kSpace},
};

// Elements whose content is not text a reader sees (code, styles, inert templates, fallbacks):
// the element is removed with everything up to its end tag; the removal becomes one space. Without
// an end tag only the start tag is removed: a browser would hide the rest of the text, but a review
// that says "I love the <style> of it" should not lose its remaining sentences.
constexpr std::array<std::string_view, 8> kDroppedContent = {
    "script", "style", "template", "noscript", "iframe", "noembed", "noframes", "xmp"};

// Attribute names that stand alone without a value. A start tag with any other bare word and no
// "name=value" is read as text: "a<b and c>d" is prose, "<input disabled>" is a tag.
constexpr std::array<std::string_view, 27> kBooleanAttributes = {
    "allowfullscreen", "async",    "autofocus",  "autoplay", "checked",
    "controls",        "default",  "defer",      "disabled", "hidden",
    "inert",           "ismap",    "itemscope",  "loop",     "multiple",
    "muted",           "nomodule", "novalidate", "open",     "playsinline",
    "readonly",        "required", "reversed",   "selected", "formnovalidate",
    "nowrap",          "compact"};
struct Entity {
  std::string_view name;
  char32_t value;
};

// Named character references (HTML5) that occur in review dumps. Matched case-sensitively, then
// lower-cased (dumps contain "&QUOT;" and "&Amp;").
constexpr std::array kEntities = {
    Entity{"quot", U'"'},     Entity{"amp", U'&'},     Entity{"apos", U'\''},
    Entity{"lt", U'<'},       Entity{"gt", U'>'},      Entity{"nbsp", 0xA0},
    Entity{"ensp", 0x2002},   Entity{"emsp", 0x2003},  Entity{"thinsp", 0x2009},
    Entity{"shy", 0xAD},      Entity{"zwj", 0x200D},   Entity{"zwnj", 0x200C},
    Entity{"hellip", 0x2026}, Entity{"mdash", 0x2014}, Entity{"ndash", 0x2013},
    Entity{"lsquo", 0x2018},  Entity{"rsquo", 0x2019}, Entity{"sbquo", 0x201A},
    Entity{"ldquo", 0x201C},  Entity{"rdquo", 0x201D}, Entity{"bdquo", 0x201E},
    Entity{"laquo", 0xAB},    Entity{"raquo", 0xBB},   Entity{"middot", 0xB7},
    Entity{"bull", 0x2022},   Entity{"copy", 0xA9},    Entity{"reg", 0xAE},
    Entity{"trade", 0x2122},  Entity{"deg", 0xB0},     Entity{"times", 0xD7},
    Entity{"divide", 0xF7},   Entity{"plusmn", 0xB1},  Entity{"micro", 0xB5},
    Entity{"frac12", 0xBD},   Entity{"frac14", 0xBC},  Entity{"frac34", 0xBE},
    Entity{"euro", 0x20AC},   Entity{"pound", 0xA3},   Entity{"yen", 0xA5},
    Entity{"cent", 0xA2},     Entity{"sect", 0xA7},    Entity{"para", 0xB6},
    Entity{"iexcl", 0xA1},    Entity{"iquest", 0xBF},  Entity{"hearts", 0x2665},
    Entity{"star", 0x2606},   Entity{"rarr", 0x2192},  Entity{"larr", 0x2190},
    Entity{"szlig", 0xDF},    Entity{"aacute", 0xE1},  Entity{"agrave", 0xE0},
    Entity{"acirc", 0xE2},    Entity{"auml", 0xE4},    Entity{"atilde", 0xE3},
    Entity{"aring", 0xE5},    Entity{"aelig", 0xE6},   Entity{"ccedil", 0xE7},
    Entity{"eacute", 0xE9},   Entity{"egrave", 0xE8},  Entity{"ecirc", 0xEA},
    Entity{"euml", 0xEB},     Entity{"iacute", 0xED},  Entity{"igrave", 0xEC},
    Entity{"icirc", 0xEE},    Entity{"iuml", 0xEF},    Entity{"ntilde", 0xF1},
    Entity{"oacute", 0xF3},   Entity{"ograve", 0xF2},  Entity{"ocirc", 0xF4},
    Entity{"ouml", 0xF6},     Entity{"otilde", 0xF5},  Entity{"oslash", 0xF8},
    Entity{"uacute", 0xFA},   Entity{"ugrave", 0xF9},  Entity{"ucirc", 0xFB},
    Entity{"uuml", 0xFC},     Entity{"yuml", 0xFF},    Entity{"Auml", 0xC4},
    Entity{"Ouml", 0xD6},     Entity{"Uuml", 0xDC},    Entity{"Eacute", 0xC9},
    Entity{"Aacute", 0xC1},   Entity{"Ntilde", 0xD1},  Entity{"Ccedil", 0xC7},
};

// HTML5 reads numeric references 0x80..0x9F as windows-1252 (dumps encode ’ as &#146;).
constexpr std::array<char32_t, 32> kWindows1252 = {
    0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x8D,   0x017D, 0x8F,   0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};

bool IsAsciiAlpha(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool IsAsciiSpace(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
char32_t AsciiLower(char32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

// Longest markup construct recognised; a longer "tag" is text with a stray '<'. Comments and
// dropped-content elements may be longer (kMaxSection).
constexpr size_t kMaxTag = 1024;
constexpr size_t kMaxSection = 1 << 20;

bool StartsWithIgnoringAsciiCase(std::u32string_view s, size_t i, std::string_view lower) {
  if (i + lower.size() > s.size()) return false;
  for (size_t k = 0; k < lower.size(); ++k) {
    if (AsciiLower(s[i + k]) != static_cast<unsigned char>(lower[k])) return false;
  }
  return true;
}

bool IsTagNameChar(char32_t c) {
  return IsAsciiAlpha(c) || IsAsciiDigit(c) || c == '-' || c == '_' || c == ':' || c == '.';
}

// The end of `terminator` searched from s[from], as an index one past it, or npos.
size_t FindEnd(std::u32string_view s, size_t from, std::u32string_view terminator, size_t limit) {
  const size_t at = s.find(terminator, from);
  if (at == std::u32string_view::npos || at + terminator.size() - from > limit) {
    return std::u32string_view::npos;
  }
  return at + terminator.size();
}

// Scans attributes of a start or end tag from s[j] to its '>', honouring quoted values. Returns
// the index one past '>', or npos when this is not a tag (no '>', a '<' first, too long, or, for a
// start tag, bare words that are not boolean attributes and no attribute with a value).
size_t ScanAttributes(std::u32string_view s, size_t i, size_t j, bool end_tag) {
  char32_t quote = 0;
  bool has_value = false, unknown_bare_word = false;
  std::string word;
  auto end_word = [&] {
    if (word.empty()) return;
    if (std::find(kBooleanAttributes.begin(), kBooleanAttributes.end(), word) ==
            kBooleanAttributes.end() &&
        word.rfind("data-", 0) != 0 && word.rfind("aria-", 0) != 0) {
      unknown_bare_word = true;
    }
    word.clear();
  };
  for (; j < s.size() && j - i < kMaxTag; ++j) {
    const char32_t c = s[j];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '=') {
      has_value = true;
      word.clear();  // a named value, not a bare word
    } else if (c == '>') {
      end_word();
      if (!end_tag && unknown_bare_word && !has_value) return std::u32string_view::npos;
      return j + 1;
    } else if (c == '<') {
      return std::u32string_view::npos;
    } else if (IsAsciiSpace(c) || c == '/') {
      end_word();
    } else {
      word.push_back(c < 0x80 ? static_cast<char>(AsciiLower(c)) : '?');
    }
  }
  return std::u32string_view::npos;
}

// Recognises markup starting at s[i] == '<' as the HTML tokenizer would: a start or end tag of any
// element name (ASCII letter first), a comment <!-- -->, a CDATA section <![CDATA[ ]]>, a doctype
// or other <!...> declaration, or a processing instruction <?...>. A start tag of a
// kDroppedContent element extends to the end of its element. On success sets *length (code points)
// and *kind. Text such as "I <3 it", "5 < 6 and 7 > 3" and "a<b and c>d" is not markup.
bool ParseMarkup(std::u32string_view s, size_t i, size_t* length, TagKind* kind) {
  constexpr size_t npos = std::u32string_view::npos;
  size_t j = i + 1;
  if (j >= s.size()) return false;
  size_t end = npos;
  *kind = TagKind::kInline;
  if (s.substr(j, 3) == U"!--") {
    end = FindEnd(s, j + 3, U"-->", kMaxSection);
  } else if (s.substr(j, 8) == U"![CDATA[") {
    end = FindEnd(s, j + 8, U"]]>", kMaxSection);
  } else if (s[j] == '!' || s[j] == '?') {
    end = FindEnd(s, j + 1, U">", kMaxTag);
  } else {
    const bool end_tag = s[j] == '/';
    if (end_tag) ++j;
    if (j >= s.size() || !IsAsciiAlpha(s[j])) return false;
    std::string name;
    while (j < s.size() && name.size() <= 64 && IsTagNameChar(s[j])) {
      name.push_back(static_cast<char>(AsciiLower(s[j])));
      ++j;
    }
    if (j >= s.size() || !(s[j] == '>' || s[j] == '/' || IsAsciiSpace(s[j]))) return false;
    end = ScanAttributes(s, i, j, end_tag);
    if (end == npos) return false;
    const auto tag =
        std::find_if(kTags.begin(), kTags.end(), [&](const TagName& t) { return t.name == name; });
    if (tag != kTags.end()) *kind = tag->kind;
    if (!end_tag &&
        std::find(kDroppedContent.begin(), kDroppedContent.end(), name) != kDroppedContent.end()) {
      *kind = TagKind::kSpace;
      // The content runs to the first "</name" followed by a tag-name terminator, then its '>'.
      size_t k = end;
      while ((k = s.find(U"</", k)) != npos && k - i <= kMaxSection) {
        const size_t after = k + 2 + name.size();
        if (StartsWithIgnoringAsciiCase(s, k + 2, name) && after < s.size() &&
            (s[after] == '>' || s[after] == '/' || IsAsciiSpace(s[after]))) {
          const size_t close = s.find(U'>', after);
          if (close != npos) end = close + 1;
          break;
        }
        k += 2;
      }
    }
  }
  if (end == npos) return false;
  *length = end - i;
  return true;
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
      if (IsAsciiDigit(c))
        d = static_cast<int>(c - '0');
      else if (hex && c >= 'a' && c <= 'f')
        d = static_cast<int>(c - 'a' + 10);
      else if (hex && c >= 'A' && c <= 'F')
        d = static_cast<int>(c - 'A' + 10);
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

// Step 1: markup removed (block tags -> '\n'; see ParseMarkup), character references decoded
// when `decode_references`. `s` is the original text (`from` null) or the text of an earlier step,
// whose spans `from` holds: the output's spans are always into the original.
Spans RemoveMarkup(std::u32string_view s, bool decode_references, const Spans* from = nullptr) {
  const auto begin_of = [&](size_t i) { return from ? from->begin[i] : static_cast<int32_t>(i); };
  const auto end_of = [&](size_t i) { return from ? from->end[i] : static_cast<int32_t>(i + 1); };
  Spans out;
  out.Reserve(s.size());
  const bool maybe_markup = s.find_first_of(U"<&") != std::u32string_view::npos;
  for (size_t i = 0; i < s.size();) {
    const char32_t c = s[i];
    const int32_t at = begin_of(i);
    size_t length = 0;
    if (maybe_markup && c == '<') {
      TagKind kind;
      if (ParseMarkup(s, i, &length, &kind)) {
        const int32_t to = end_of(i + length - 1);
        if (kind == TagKind::kBlock) out.Push('\n', at, to);
        if (kind == TagKind::kSpace) out.Push(' ', at, to);
        i += length;
        continue;
      }
    } else if (maybe_markup && decode_references && c == '&') {
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
        out.Push(value, at, end_of(i + length - 1));
        i += length;
        continue;
      }
    }
    out.Push(c, at, end_of(i));
    ++i;
  }
  return out;
}

const icu::Normalizer2& Nfkc() {
  static const icu::Normalizer2* instance = [] {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCInstance(status);
    if (U_FAILURE(status)) {
      throw TextError(std::string("revsum text: cannot load ICU NFKC data: ") +
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
  const bool ascii =
      std::all_of(in.text.begin(), in.text.end(), [](char32_t c) { return c < 0x80; });
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
        throw TextError(std::string("revsum text: NFKC normalisation failed: ") +
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

// True when some '<' in `s` starts markup.
bool HasMarkup(std::u32string_view s) {
  size_t length;
  TagKind kind;
  for (size_t i = s.find(U'<'); i != std::u32string_view::npos; i = s.find(U'<', i + 1)) {
    if (ParseMarkup(s, i, &length, &kind)) return true;
  }
  return false;
}

// Step 5, after all passes (CleanWithOffsets): whatever still starts markup (only a crafted
// nesting deeper than the passes makes any) is made inert: its '<' becomes U+FFFD, from the last
// to the first, so no replacement lets an earlier '<' start a tag. Text without such a '<' is
// untouched.
constexpr int kMarkupPasses = 3;
void MakeMarkupInert(std::u32string& text) {
  if (!HasMarkup(text)) return;
  size_t length;
  TagKind kind;
  for (size_t i = text.rfind(U'<'); i != std::u32string::npos;
       i = i == 0 ? std::u32string::npos : text.rfind(U'<', i - 1)) {
    if (ParseMarkup(text, i, &length, &kind)) text[i] = 0xFFFD;
  }
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
  MappedText cleaned = CollapseWhitespace(NormalizeNfkc(RemoveMarkup(decoded, true)));
  // Step 4: the steps can make new markup: "&lt;img onerror=...&gt;" decodes to a tag, so do
  // "\uFF1Cimg ...\uFF1E" under NFKC, "<<b>img ...>" once "<b>" is gone, and "<\u200Bimg ...>"
  // once the format character is dropped. It is removed as raw markup is, by the same steps again
  // (references are decoded once), in up to kMarkupPasses passes.
  for (int pass = 0; pass < kMarkupPasses && HasMarkup(cleaned.text); ++pass) {
    Spans s{std::move(cleaned.text), std::move(cleaned.begin), std::move(cleaned.end)};
    cleaned = CollapseWhitespace(NormalizeNfkc(RemoveMarkup(s.text, false, &s)));
  }
  MakeMarkupInert(cleaned.text);
  return cleaned;
}

std::string CleanText(std::string_view original) {
  const MappedText cleaned = CleanWithOffsets(original);
  std::string out;
  out.reserve(cleaned.text.size());
  for (char32_t c : cleaned.text) AppendUtf8(c == '\n' ? U' ' : c, &out);
  return out;
}

}  // namespace revsum
