// The one UTF-8 decoder of every stage (text, tokens, opinion, points): one code point at a time,
// strict (Unicode 15.0, table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), the
// way ICU's U8_NEXT reads it. Header-only: a stage needs ICU's headers, not its library.
#pragma once

#include <unicode/utf8.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace revsum {

// Decodes the code point that starts at s[*i] (REQUIRES: *i < s.size()) and moves *i past it.
// Returns the code point, or -1 when s[*i] does not start a well-formed sequence: then *i is past
// one maximal invalid subpart (the Unicode Standard, chapter 3, "U+FFFD substitution of maximal
// subparts"), at least one byte, so that a caller who writes U+FFFD for each -1 writes what ICU
// and the WHATWG encoding standard write. Callers decide what an invalid subpart becomes.
inline int32_t NextCodePoint(std::string_view s, size_t* i) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t length = s.size();
  size_t at = *i;
  UChar32 c;
  U8_NEXT(p, at, length, c);
  *i = at;
  return c;
}

}  // namespace revsum
