// NextCodePoint (revsum/utf8.h), the one UTF-8 decoder of every stage: well-formed sequences
// decode; each maximal invalid subpart is one -1.
#include "revsum/utf8.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace revsum {
namespace {

// (code point or -1, bytes taken) for each step over `s`.
std::vector<std::pair<int32_t, size_t>> Steps(std::string_view s) {
  std::vector<std::pair<int32_t, size_t>> steps;
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const int32_t c = NextCodePoint(s, &i);
    steps.emplace_back(c, i - start);
  }
  return steps;
}

using StepList = std::vector<std::pair<int32_t, size_t>>;

TEST(NextCodePointTest, DecodesWellFormedSequences) {
  EXPECT_EQ(Steps("a\xC3\xA9\xE7\x94\xB5\xF0\x9F\x91\x8D"),
            (StepList{{'a', 1}, {0xE9, 2}, {0x7535, 3}, {0x1F44D, 4}}));
}

TEST(NextCodePointTest, EachMaximalInvalidSubpartIsOneError) {
  // A truncated 4-byte sequence is one subpart; a lone continuation byte is one.
  EXPECT_EQ(Steps("\xF0\x9F\x91"
                  "a\x80"),
            (StepList{{-1, 3}, {'a', 1}, {-1, 1}}));
  // Overlong forms and surrogates: the lead byte alone, then each continuation byte.
  EXPECT_EQ(Steps("\xC0\xAF"), (StepList{{-1, 1}, {-1, 1}}));
  EXPECT_EQ(Steps("\xE0\x80\xAF"), (StepList{{-1, 1}, {-1, 1}, {-1, 1}}));
  EXPECT_EQ(Steps("\xED\xA0\x80"), (StepList{{-1, 1}, {-1, 1}, {-1, 1}}));
  // Above U+10FFFF.
  EXPECT_EQ(Steps("\xF4\x90\x80\x80"), (StepList{{-1, 1}, {-1, 1}, {-1, 1}, {-1, 1}}));
  EXPECT_EQ(Steps("\xF5"), (StepList{{-1, 1}}));
}

}  // namespace
}  // namespace revsum
