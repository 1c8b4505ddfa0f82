// FtsIndexTextIsText: the writer's shortcut that indexes a sentence without spacing it. It must
// never be true for a text that FtsIndexText would change.
#include <string>

#include <gtest/gtest.h>

#include "revsum/store.h"

namespace revsum {
namespace {

std::string Utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

TEST(FtsIndexTextTest, IsTextOnlyWhenSpacingChangesNothingForEveryCodePoint) {
  int spaced = 0;
  for (char32_t c = 1; c <= 0x10FFFF; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    const std::string text = "a" + Utf8(c) + "b";
    const bool unchanged = FtsIndexText(text) == text;
    if (!unchanged) ++spaced;
    if (FtsIndexTextIsText(text)) {
      ASSERT_TRUE(unchanged) << "U+" << std::hex << static_cast<uint32_t>(c);
    }
  }
  EXPECT_GT(spaced, 70000);  // Han, kana, hangul are spaced
}

TEST(FtsIndexTextTest, IsTextForPlainAndLatinTextNotForCjkOrBrokenBytes) {
  EXPECT_TRUE(FtsIndexTextIsText(""));
  EXPECT_TRUE(FtsIndexTextIsText("The battery works great, honestly."));
  EXPECT_TRUE(FtsIndexTextIsText("Très bien — naïve café ☺"));  // below U+3040
  EXPECT_FALSE(FtsIndexTextIsText("电池很好"));
  EXPECT_FALSE(FtsIndexTextIsText("battery 电池"));
  EXPECT_FALSE(FtsIndexTextIsText("カメラ"));
  EXPECT_FALSE(FtsIndexTextIsText("배터리"));
  // A stray lead byte is copied as it is by FtsIndexText; either answer keeps the index right.
  const std::string broken = "ok\xE4\xB8";
  if (FtsIndexTextIsText(broken)) {
    EXPECT_EQ(FtsIndexText(broken), broken);
  }
}

}  // namespace
}  // namespace revsum
