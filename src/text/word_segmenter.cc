// Word segmentation with ICU's word BreakIterator (UAX #29 words; CJK through ICU's dictionary).

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

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
      throw std::runtime_error(std::string("revsum text: cannot create ICU word iterator: ") +
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
      throw std::runtime_error(std::string("revsum text: cannot load ICU NFKC_Casefold data: ") +
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

}  // namespace

WordSegmenter::WordSegmenter() : breaker_(CloneWordPrototype()) {}
WordSegmenter::~WordSegmenter() = default;
WordSegmenter::WordSegmenter(WordSegmenter&&) noexcept = default;
WordSegmenter& WordSegmenter::operator=(WordSegmenter&&) noexcept = default;

std::vector<std::string> WordSegmenter::Words(std::string_view text) {
  std::vector<std::string> words;
  if (text.empty()) return words;
  // fromUTF8 replaces invalid sequences with U+FFFD.
  const icu::UnicodeString input = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString folded = NfkcCasefold().normalize(input, status);
  if (U_FAILURE(status)) {
    throw std::runtime_error(std::string("revsum text: NFKC_Casefold failed: ") +
                             u_errorName(status));
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
      count += Words(text_internal::EncodeUtf8(
                         std::u32string_view(cps).substr(start, i - start)))
                   .size();
    } else if (content) {
      ++count;
    }
  }
  return count;
}

}  // namespace revsum
