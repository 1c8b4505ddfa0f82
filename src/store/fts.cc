// FTS5 text for mixed Chinese/English search. FTS5's unicode61 tokenizer keeps a run of ideographs
// as one token, so "电池" would never match inside "电池续航很好". We index each CJK character as
// its own token and turn CJK runs in a query into phrases ("电 池"): a phrase of consecutive
// characters matches exactly the texts that contain that substring.
#include <cctype>
#include <string>
#include <string_view>

#include "revsum/store.h"

namespace revsum {
namespace {

// Decodes one UTF-8 sequence at s[i]; returns its length (1 for an invalid byte, cp = U+FFFD).
size_t Decode(std::string_view s, size_t i, char32_t* cp) {
  auto b = static_cast<unsigned char>(s[i]);
  size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) {
    *cp = 0xFFFD;
    return 1;
  }
  char32_t c = len == 1 ? b : b & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    auto cb = static_cast<unsigned char>(s[i + k]);
    if ((cb & 0xC0) != 0x80) {
      *cp = 0xFFFD;
      return 1;
    }
    c = (c << 6) | (cb & 0x3F);
  }
  *cp = c;
  return len;
}

// Scripts written without spaces between words: Han, kana, hangul syllables.
bool IsSpacelessScript(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x2FA1F);
}

}  // namespace

std::string FtsIndexText(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3 / 2);
  for (size_t i = 0; i < text.size();) {
    char32_t cp;
    size_t n = Decode(text, i, &cp);
    if (IsSpacelessScript(cp)) {
      out += ' ';
      out.append(text.substr(i, n));
      out += ' ';
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string FtsQuery(std::string_view query) {
  std::string out;
  bool in_quotes = false;
  bool in_cjk_run = false;
  for (size_t i = 0; i < query.size();) {
    char32_t cp;
    size_t n = Decode(query, i, &cp);
    bool cjk = IsSpacelessScript(cp);
    if (cjk && !in_cjk_run) {
      if (!in_quotes) out += '"';
      in_cjk_run = true;
    } else if (!cjk && in_cjk_run) {
      if (!in_quotes) out += "\"";
      in_cjk_run = false;
    }
    if (cp == '"') in_quotes = !in_quotes;
    if (cjk) out += ' ';
    // ASCII punctuation touching CJK text ("苹果,新鲜") separates words, as the full-width forms
    // do; left alone FTS5 would read it as a syntax error. FTS5's own operators stay.
    char32_t next = 0;
    if (i + n < query.size()) Decode(query, i + n, &next);
    const bool touches_cjk = in_cjk_run || IsSpacelessScript(next);
    if (!in_quotes && touches_cjk && n == 1 && cp < 0x80 && std::ispunct(static_cast<int>(cp)) &&
        std::string_view("\"*()^+-:").find(static_cast<char>(cp)) == std::string_view::npos) {
      out += ' ';
    } else {
      out.append(query.substr(i, n));
    }
    i += n;
  }
  if (in_cjk_run && !in_quotes) out += '"';
  return out;
}

}  // namespace revsum
