#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include "revsum/text.h"
#include "utf.h"

namespace revsum {

bool IsCjk(char32_t c) {
  if (c < 0x1100) return false;  // nothing below Hangul Jamo is CJK
  UErrorCode status = U_ZERO_ERROR;
  switch (uscript_getScript(static_cast<UChar32>(c), &status)) {
    case USCRIPT_HAN:
    case USCRIPT_HIRAGANA:
    case USCRIPT_KATAKANA:
    case USCRIPT_HANGUL:
    case USCRIPT_BOPOMOFO:
      return U_SUCCESS(status);
    default:
      return false;
  }
}

double CjkFraction(std::string_view text) {
  size_t words = 0, cjk = 0;
  for (char32_t c : text_internal::DecodeUtf8(text)) {
    if (!(U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK))) continue;
    ++words;
    if (IsCjk(c)) ++cjk;
  }
  return words == 0 ? 0.0 : static_cast<double>(cjk) / static_cast<double>(words);
}

}  // namespace revsum
