#include "pretokenizer.h"

#include "revsum/utf8.h"

#include <atomic>
#include <utility>

#include <unicode/regex.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utext.h>

namespace revsum::tokens_internal {

namespace {

// JavaScript's \s (ECMA-262 WhiteSpace and LineTerminator), as ICU set items.
constexpr std::string_view kJsSpaceItems =
    R"(\t\n\x{0B}\f\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF})";

std::atomic<uint64_t> next_pretokenizer_id{1};

// Decodes one well-formed UTF-8 sequence at s[i] (Unicode 15.0, table 3-7: no overlongs, no
// surrogates, nothing above U+10FFFF). Returns its length, or 0 when s[i] does not begin one (the
// caller handles the invalid bytes itself). NextCodePoint (utf8.h) is the decoder.
inline size_t DecodeUtf8(std::string_view s, size_t i, char32_t* cp) {
  size_t next = i;
  const int32_t c = NextCodePoint(s, &next);
  if (c < 0) return 0;
  *cp = static_cast<char32_t>(c);
  return next - i;
}

// The UTF-8 length of the code point whose UTF-16 form starts with unit u.
inline size_t Utf8LengthOfUnit(char16_t u) {
  if (u < 0x80) return 1;
  if (u < 0x800) return 2;
  if (u >= 0xD800 && u <= 0xDBFF) return 4;  // a high surrogate; its low surrogate adds nothing
  if (u >= 0xDC00 && u <= 0xDFFF) return 0;
  return 3;
}

struct ThreadMatcher {
  uint64_t owner = 0;
  std::unique_ptr<icu::RegexMatcher> matcher;
};

}  // namespace

bool JsPatternToIcu(std::string_view js, std::string* icu_pattern, std::string* error) {
  std::string out;
  bool in_class = false;
  for (size_t i = 0; i < js.size(); ++i) {
    char c = js[i];
    if (c == '\\' && i + 1 < js.size()) {
      char next = js[++i];
      if (next == 's') {
        out += in_class ? std::string(kJsSpaceItems) : "[" + std::string(kJsSpaceItems) + "]";
      } else if (next == 'S') {
        if (in_class) {
          *error = "pattern: \\S inside a character class is not supported (offset " +
                   std::to_string(i - 1) + ")";
          return false;
        }
        out += "[^" + std::string(kJsSpaceItems) + "]";
      } else {
        out += c;
        out += next;
      }
      continue;
    }
    if (c == '[' && !in_class)
      in_class = true;
    else if (c == ']' && in_class)
      in_class = false;
    out += c;
  }
  *icu_pattern = std::move(out);
  return true;
}

std::unique_ptr<Pretokenizer> Pretokenizer::Create(std::string_view js_pattern, std::string* error,
                                                   Engine engine) {
  std::string icu_pattern;
  if (!JsPatternToIcu(js_pattern, &icu_pattern, error)) return nullptr;
  UErrorCode status = U_ZERO_ERROR;
  UParseError parse{};
  std::unique_ptr<icu::RegexPattern> compiled(
      icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(icu_pattern), 0, parse, status));
  if (U_FAILURE(status)) {
    *error = "pattern does not compile with ICU (" + std::string(u_errorName(status)) +
             " at offset " + std::to_string(parse.offset) + "): " + icu_pattern;
    return nullptr;
  }
  Fast fast = Fast::kNone;
  if (engine == Engine::kFastest && js_pattern == kO200kPattern) fast = Fast::kO200k;
  if (engine == Engine::kFastest && js_pattern == kCl100kPattern) fast = Fast::kCl100k;
  return std::unique_ptr<Pretokenizer>(
      new Pretokenizer(std::move(icu_pattern), next_pretokenizer_id.fetch_add(1), fast));
}

void Pretokenizer::Split(std::string_view text, std::vector<std::string_view>* pieces) const {
  if (fast_ != Fast::kNone) {
    SplitFast(text, pieces);
  } else {
    SplitWithIcu(text, pieces);
  }
}

namespace {

// Character classes of the two patterns, as bit flags.
enum : uint8_t {
  kL = 1,       // \p{L}
  kN = 2,       // \p{N}
  kUpper = 4,   // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
  kLower = 8,   // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
  kSpace = 16,  // JavaScript's \s
  kCrLf = 32,   // [\r\n]
};

uint8_t Classify(char32_t c) {
  uint8_t f = 0;
  switch (u_charType(static_cast<UChar32>(c))) {
    case U_UPPERCASE_LETTER:
    case U_TITLECASE_LETTER:
      f = kL | kUpper;
      break;
    case U_LOWERCASE_LETTER:
      f = kL | kLower;
      break;
    case U_MODIFIER_LETTER:
    case U_OTHER_LETTER:
      f = kL | kUpper | kLower;
      break;
    case U_NON_SPACING_MARK:
    case U_ENCLOSING_MARK:
    case U_COMBINING_SPACING_MARK:
      f = kUpper | kLower;
      break;
    case U_DECIMAL_DIGIT_NUMBER:
    case U_LETTER_NUMBER:
    case U_OTHER_NUMBER:
      f = kN;
      break;
    default:
      break;
  }
  switch (c) {
    case '\t':
    case '\v':
    case '\f':
    case ' ':
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF:
      f |= kSpace;
      break;
    case '\n':
    case '\r':
      f |= kSpace | kCrLf;
      break;
    default:
      if (c >= 0x2000 && c <= 0x200A) f |= kSpace;
  }
  return f;
}

struct AsciiFlags {
  uint8_t flags[128];
  AsciiFlags() {
    for (char32_t c = 0; c < 128; ++c) flags[c] = Classify(c);
  }
};

// The text of one valid UTF-8 run as code points, their classes and byte offsets.
// Buffers above this many code points are freed after the text, not kept for the thread's next
// one: a product's whole text (4 MB in the TripAdvisor dump's largest hotel) would otherwise stay
// held at 9 bytes a character by each worker thread that counted it.
constexpr size_t kKeptCodePoints = size_t{1} << 16;

struct Run {
  std::vector<char32_t> cp;
  std::vector<uint8_t> f;
  std::vector<uint32_t> off;  // off[i] = byte offset of cp[i]; off[n] = end
  size_t n = 0;

  void ReleaseIfLarge() {
    if (cp.capacity() <= kKeptCodePoints) return;
    *this = Run();
  }

  bool Has(size_t i, uint8_t flag) const { return i < n && (f[i] & flag); }
  // [^\r\n\p{L}\p{N}]: the optional one-character prefix of letter pieces.
  bool Prefix(size_t i) const { return i < n && !(f[i] & (kCrLf | kL | kN)); }
  // [^\s\p{L}\p{N}]: punctuation and symbols.
  bool Punct(size_t i) const { return i < n && !(f[i] & (kSpace | kL | kN)); }
  size_t RunOf(size_t i, uint8_t flag) const {
    while (i < n && (f[i] & flag)) ++i;
    return i;
  }
  // ('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D) at i: its end, or i.
  size_t Contraction(size_t i) const {
    if (i + 1 >= n || cp[i] != '\'') return i;
    char32_t a = cp[i + 1] | 0x20;  // ASCII lower case (only compared with ASCII letters)
    if (a == 's' || a == 't' || a == 'm' || a == 'd') {
      if (cp[i + 1] < 0x80) return i + 2;
    }
    if (i + 2 < n && cp[i + 1] < 0x80 && cp[i + 2] < 0x80) {
      char32_t b = cp[i + 2] | 0x20;
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return i + 3;
    }
    return i;
  }
  // \s*[\r\n]+ | \s+(?!\S) | \s+ at i (the three white-space alternatives, in order).
  size_t Spaces(size_t i) const {
    size_t k = RunOf(i, kSpace);
    for (size_t e = k; e > i; --e) {  // \s* backtracks from its longest run to a [\r\n]
      if (f[e - 1] & kCrLf) return RunOf(e - 1, kCrLf);
    }
    if (k == i) return i;
    if (k == n) return k;         // \s+(?!\S) at the end of the text
    if (k - 1 > i) return k - 1;  // \s+(?!\S): leave the last space to the next piece
    return k;                     // \s+
  }
  // \p{N}{1,3}
  size_t Digits(size_t i) const {
    size_t k = i;
    while (k < n && k < i + 3 && (f[k] & kN)) ++k;
    return k;
  }
  // ' ?[^\s\p{L}\p{N}]+' followed by [\r\n]* (cl100k) or [\r\n/]* (o200k).
  size_t Punctuation(size_t i, bool slash) const {
    size_t p = (i < n && cp[i] == ' ') ? i + 1 : i;
    if (!Punct(p)) return i;
    size_t k = p;
    while (Punct(k)) ++k;
    while (k < n && ((f[k] & kCrLf) || (slash && cp[k] == '/'))) ++k;
    return k;
  }

  // The end of the o200k_base match at i, or i when no alternative matches.
  size_t MatchO200k(size_t i) const {
    // [^\r\n\p{L}\p{N}]?[U]*[Lw]+(contraction)?  — with the prefix first, then without.
    for (size_t p : {Prefix(i) ? i + 1 : SIZE_MAX, i}) {
      if (p == SIZE_MAX) continue;
      size_t k = RunOf(p, kUpper);
      for (size_t e = k + 1; e-- > p;) {  // [U]* backtracks until [Lw] can start
        if (Has(e, kLower)) return Contraction(RunOf(e, kLower));
      }
    }
    // [^\r\n\p{L}\p{N}]?[U]+[Lw]*(contraction)?
    for (size_t p : {Prefix(i) ? i + 1 : SIZE_MAX, i}) {
      if (p == SIZE_MAX || !Has(p, kUpper)) continue;
      return Contraction(RunOf(RunOf(p, kUpper), kLower));
    }
    if (size_t k = Digits(i); k > i) return k;
    if (size_t k = Punctuation(i, /*slash=*/true); k > i) return k;
    return Spaces(i);
  }

  // The end of the cl100k_base match at i, or i when no alternative matches.
  size_t MatchCl100k(size_t i) const {
    if (size_t k = Contraction(i); k > i) return k;
    for (size_t p : {Prefix(i) ? i + 1 : SIZE_MAX, i}) {  // [^\r\n\p{L}\p{N}]?\p{L}+
      if (p == SIZE_MAX || !Has(p, kL)) continue;
      return RunOf(p, kL);
    }
    if (size_t k = Digits(i); k > i) return k;
    if (size_t k = Punctuation(i, /*slash=*/false); k > i) return k;
    return Spaces(i);
  }
};

}  // namespace

void Pretokenizer::SplitFast(std::string_view text, std::vector<std::string_view>* pieces) const {
  static const AsciiFlags ascii;
  thread_local Run run;
  size_t pos = 0;
  while (pos < text.size()) {
    // Decode the maximal valid UTF-8 run at pos.
    run.cp.clear();
    run.f.clear();
    run.off.clear();
    size_t run_end = pos;
    char32_t cp = 0;
    while (run_end < text.size()) {
      auto b = static_cast<uint8_t>(text[run_end]);
      size_t len = 1;
      if (b < 0x80) {
        cp = b;
        run.f.push_back(ascii.flags[b]);
      } else {
        len = DecodeUtf8(text, run_end, &cp);
        if (len == 0) break;
        run.f.push_back(Classify(cp));
      }
      run.cp.push_back(cp);
      run.off.push_back(static_cast<uint32_t>(run_end));
      run_end += len;
    }
    run.off.push_back(static_cast<uint32_t>(run_end));
    run.n = run.cp.size();
    for (size_t i = 0; i < run.n;) {
      size_t j = fast_ == Fast::kO200k ? run.MatchO200k(i) : run.MatchCl100k(i);
      if (j == i) {
        ++i;  // no alternative matches here (cannot happen for these patterns): skip, as find()
        continue;
      }
      pieces->push_back(text.substr(run.off[i], run.off[j] - run.off[i]));
      i = j;
    }
    if (run_end < text.size()) {
      pieces->push_back(text.substr(run_end, 1));  // a byte that begins no valid sequence
      ++run_end;
    }
    pos = run_end;
  }
  run.ReleaseIfLarge();
}

void Pretokenizer::SplitWithIcu(std::string_view text,
                                std::vector<std::string_view>* pieces) const {
  // Per-thread state: a matcher per pretokenizer (few exist: one per loaded encoding) and the
  // UTF-16 buffer the matcher reads.
  thread_local std::vector<ThreadMatcher> matchers;
  thread_local std::u16string utf16;
  icu::RegexMatcher* matcher = nullptr;
  for (ThreadMatcher& m : matchers) {
    if (m.owner == id_) matcher = m.matcher.get();
  }
  if (matcher == nullptr) {
    UErrorCode status = U_ZERO_ERROR;
    auto made =
        std::make_unique<icu::RegexMatcher>(icu::UnicodeString::fromUTF8(icu_pattern_), 0, status);
    if (U_FAILURE(status)) std::abort();  // compiled fine in Create; cannot fail here
    if (matchers.size() >= 8) matchers.erase(matchers.begin());
    matchers.push_back({id_, std::move(made)});
    matcher = matchers.back().matcher.get();
  }

  size_t pos = 0;
  while (pos < text.size()) {
    // The maximal valid UTF-8 run at pos, converted to UTF-16.
    utf16.clear();
    size_t run_end = pos;
    char32_t cp = 0;
    while (run_end < text.size()) {
      size_t len = DecodeUtf8(text, run_end, &cp);
      if (len == 0) break;
      if (cp < 0x10000) {
        utf16.push_back(static_cast<char16_t>(cp));
      } else {
        utf16.push_back(static_cast<char16_t>(0xD7C0 + (cp >> 10)));
        utf16.push_back(static_cast<char16_t>(0xDC00 | (cp & 0x3FF)));
      }
      run_end += len;
    }
    if (run_end > pos) {
      UErrorCode status = U_ZERO_ERROR;
      UText local = UTEXT_INITIALIZER;
      UText* ut =
          utext_openUChars(&local, utf16.data(), static_cast<int64_t>(utf16.size()), &status);
      matcher->reset(ut);
      size_t at8 = pos;  // UTF-8 offset of UTF-16 index at16
      int64_t at16 = 0;
      auto advance_to = [&](int64_t target16) {
        for (; at16 < target16; ++at16) at8 += Utf8LengthOfUnit(utf16[at16]);
      };
      while (matcher->find(status) && U_SUCCESS(status)) {
        int64_t begin16 = matcher->start64(status);
        int64_t end16 = matcher->end64(status);
        if (end16 == begin16) continue;
        advance_to(begin16);  // text between matches (none for tiktoken patterns) is skipped
        size_t begin8 = at8;
        advance_to(end16);
        pieces->push_back(text.substr(begin8, at8 - begin8));
      }
      utext_close(ut);
    }
    if (run_end < text.size()) {
      pieces->push_back(text.substr(run_end, 1));  // a byte that begins no valid sequence
      ++run_end;
    }
    pos = run_end;
  }
}

}  // namespace revsum::tokens_internal
