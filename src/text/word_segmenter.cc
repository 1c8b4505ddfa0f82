// Word segmentation with ICU's word BreakIterator (UAX #29 words; CJK through ICU's dictionary).

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include "revsum/text.h"
#include "utf.h"

namespace revsum {
namespace {

std::unique_ptr<icu::BreakIterator> CloneWordPrototype() {
  static std::mutex mutex;
  static std::unique_ptr<icu::BreakIterator> prototype;
  std::lock_guard<std::mutex> lock(mutex);
  if (!prototype) {
    UErrorCode status = U_ZERO_ERROR;
    prototype.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status) || !prototype) {
      throw TextError(std::string("revsum text: cannot create ICU word iterator: ") +
                      u_errorName(status) + " (is the ICU data library installed?)");
    }
  }
  return std::unique_ptr<icu::BreakIterator>(prototype->clone());
}

const icu::Normalizer2& NfkcCasefold() {
  static const icu::Normalizer2* instance = [] {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(status);
    if (U_FAILURE(status)) {
      throw TextError(std::string("revsum text: cannot load ICU NFKC_Casefold data: ") +
                      u_errorName(status));
    }
    return n;
  }();
  return *instance;
}

bool IsWordStatus(int32_t status) {
  // UBRK_WORD_NONE is [0, 100); numbers, letters, kana and ideographs are [100, 500).
  return status >= UBRK_WORD_NONE_LIMIT && status < UBRK_WORD_IDEO_LIMIT;
}

bool IsAsciiText(std::string_view text) {
  for (unsigned char c : text) {
    if (c >= 0x80) return false;
  }
  return true;
}

// ASCII character classes of ICU's root word rules (ICU's word.txt, UAX #29 tailored): ALetter
// (letters and, in ICU, '@'), Numeric, ExtendNumLet ('_'), MidNumLet ('.', and '\'' as
// Single_Quote) and MidNum (',', ';'). ICU takes ':' out of MidLetter, so it breaks like any other
// punctuation. No ASCII character is
// Extend, Format or ZWJ, so rule WB4 never applies.
enum : uint8_t {
  kOther = 0,
  kLetter = 1,
  kDigit = 2,
  kUnderscore = 4,
  kMidNumLet = 8,
  kMidNum = 16
};

constexpr std::array<uint8_t, 128> AsciiWordClasses() {
  std::array<uint8_t, 128> classes{};
  for (int c = 'a'; c <= 'z'; ++c) classes[c] = kLetter;
  for (int c = 'A'; c <= 'Z'; ++c) classes[c] = kLetter;
  classes['@'] = kLetter;  // ICU 72's root rules: "someone@example.org" and "@" alone are words
  for (int c = '0'; c <= '9'; ++c) classes[c] = kDigit;
  classes['_'] = kUnderscore;
  classes['.'] = kMidNumLet;
  classes['\''] = kMidNumLet;
  classes[','] = kMidNum;
  classes[';'] = kMidNum;
  return classes;
}
constexpr std::array<uint8_t, 128> kAsciiWordClass = AsciiWordClasses();
constexpr uint8_t kWordChar = kLetter | kDigit | kUnderscore;

// Words() for pure ASCII text, without ICU: NFKC_Casefold of ASCII only lower-cases A-Z, and the
// word rules reduce to: letters, digits and '_' always join (WB5, WB8-WB10, WB13a/b); a letter,
// one '.' or '\'', and a letter join (WB6/7); a digit, one of ". ' , ;" and a digit join
// (WB11/12); anything else breaks. A segment is a word (rule status number or letter) when it
// holds a letter ('@' included) or a digit, or is a run of two or more '_' (WB13a gives it status
// letter); a lone '_' has status none. WordSegmenterTest.AsciiScannerMatchesIcu checks this against
// ICU.
std::vector<std::string> AsciiWords(std::string_view text) {
  std::vector<std::string> words;
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    if (!(kAsciiWordClass[static_cast<unsigned char>(text[i])] & kWordChar)) {
      ++i;
      continue;
    }
    const size_t start = i;
    bool content = false;
    uint8_t last = 0;  // class of the last word character taken
    while (i < n) {
      const uint8_t c = kAsciiWordClass[static_cast<unsigned char>(text[i])];
      if (c & kWordChar) {
        content = content || (c & (kLetter | kDigit));
        last = c;
        ++i;
        continue;
      }
      if (i + 1 < n) {
        const uint8_t next = kAsciiWordClass[static_cast<unsigned char>(text[i + 1])];
        const bool letters = last == kLetter && next == kLetter && (c & kMidNumLet);
        const bool digits = last == kDigit && next == kDigit && (c & (kMidNumLet | kMidNum));
        if (letters || digits) {
          i += 2;
          continue;
        }
      }
      break;
    }
    if (content || i - start >= 2) {
      std::string word(text.substr(start, i - start));
      for (char& ch : word) {
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      }
      words.push_back(std::move(word));
    }
  }
  return words;
}

}  // namespace

WordSegmenter::WordSegmenter() : breaker_(CloneWordPrototype()) {}
WordSegmenter::~WordSegmenter() = default;
WordSegmenter::WordSegmenter(WordSegmenter&&) noexcept = default;
WordSegmenter& WordSegmenter::operator=(WordSegmenter&&) noexcept = default;

std::vector<std::string> WordSegmenter::Words(std::string_view text) {
  if (IsAsciiText(text)) return AsciiWords(text);
  return IcuWords(text);
}

std::vector<std::string> WordSegmenter::IcuWords(std::string_view text) {
  std::vector<std::string> words;
  if (text.empty()) return words;
  // fromUTF8 replaces invalid sequences with U+FFFD.
  const icu::UnicodeString input = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString folded = NfkcCasefold().normalize(input, status);
  if (U_FAILURE(status)) {
    throw TextError(std::string("revsum text: NFKC_Casefold failed: ") + u_errorName(status));
  }
  breaker_->setText(folded);
  int32_t start = breaker_->first();
  for (int32_t stop = breaker_->next(); stop != icu::BreakIterator::DONE;
       start = stop, stop = breaker_->next()) {
    if (!IsWordStatus(breaker_->getRuleStatus())) continue;
    std::string word;
    folded.tempSubString(start, stop - start).toUTF8String(word);
    words.push_back(std::move(word));
  }
  return words;
}

size_t WordSegmenter::CountWords(std::string_view text) {
  if (!IsAsciiText(text)) return UnicodeCountWords(text);
  // ASCII: the White_Space characters are \t \n \v \f \r and ' ', the letters and digits
  // [A-Za-z0-9], and nothing is CJK.
  size_t count = 0;
  bool content = false;
  for (unsigned char c : text) {
    if (c == ' ' || (c >= '\t' && c <= '\r')) {
      count += content;
      content = false;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      content = true;
    }
  }
  return count + content;
}

size_t WordSegmenter::UnicodeCountWords(std::string_view text) {
  const std::u32string cps = text_internal::DecodeUtf8(text);
  size_t count = 0;
  for (size_t i = 0; i < cps.size();) {
    while (i < cps.size() && u_isUWhiteSpace(static_cast<UChar32>(cps[i]))) ++i;
    const size_t start = i;
    bool content = false, cjk = false;
    for (; i < cps.size() && !u_isUWhiteSpace(static_cast<UChar32>(cps[i])); ++i) {
      const auto c = static_cast<UChar32>(cps[i]);
      content = content || (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK));
      cjk = cjk || IsCjk(cps[i]);
    }
    if (cjk) {
      count += Words(text_internal::EncodeUtf8(std::u32string_view(cps).substr(start, i - start)))
                   .size();
    } else if (content) {
      ++count;
    }
  }
  return count;
}

}  // namespace revsum
