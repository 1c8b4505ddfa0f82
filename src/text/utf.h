// UTF-8 <-> code point helpers shared by the text stage (internal; not part of the public API).
// DecodeUtf8 decodes with NextCodePoint (revsum/utf8.h), the one decoder of every stage.
#pragma once

#include <string>
#include <string_view>

namespace revsum::text_internal {

// Decodes UTF-8 into code points. Each maximal invalid subsequence (as defined by the Unicode
// Standard, chapter 3, "U+FFFD substitution of maximal subparts") becomes one U+FFFD.
std::u32string DecodeUtf8(std::string_view bytes);

// Appends the UTF-8 encoding of `c` to `out`. REQUIRES: c is a scalar value (not a surrogate).
void AppendUtf8(char32_t c, std::string* out);

// Encodes `text` as UTF-8.  REQUIRES: every element is a scalar value.
std::string EncodeUtf8(std::u32string_view text);

}  // namespace revsum::text_internal
