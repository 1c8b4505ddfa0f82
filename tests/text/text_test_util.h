// Helpers shared by the text stage's tests.
#pragma once

#include <unicode/unistr.h>

#include <string>
#include <string_view>
#include <vector>

#include "revsum/review.h"

namespace revsum::testing {

// The sentences' texts, for EXPECT_THAT(..., ElementsAre(...)).
inline std::vector<std::string> Texts(const std::vector<Sentence>& sentences) {
  std::vector<std::string> out;
  for (const Sentence& s : sentences) out.push_back(s.text);
  return out;
}

// Code points [begin, end) of UTF-8 `text`, as SQLite's substr(text, begin + 1, end - begin) would
// return them (invalid bytes read as U+FFFD, like the text stage).
inline std::string SubstrCodePoints(std::string_view text, int32_t begin, int32_t end) {
  const icu::UnicodeString u = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  const int32_t from = u.moveIndex32(0, begin);
  const int32_t to = u.moveIndex32(0, end);
  std::string out;
  u.tempSubString(from, to - from).toUTF8String(out);
  return out;
}

inline int32_t CountCodePoints(std::string_view text) {
  return icu::UnicodeString::fromUTF8(
             icu::StringPiece(text.data(), static_cast<int32_t>(text.size())))
      .countChar32();
}

}  // namespace revsum::testing
