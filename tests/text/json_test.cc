// Specification of the one JSON string writer (revsum/json.h): what it escapes, and that every
// output reads back as the same string.
#include "revsum/json.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

namespace revsum {
namespace {

std::string ReadBack(const std::string& literal) {
  simdjson::dom::parser parser;
  std::string_view s;
  EXPECT_EQ(parser.parse(literal).get(s), simdjson::SUCCESS) << literal;
  return std::string(s);
}

TEST(JsonQuote, EscapesQuotesBackslashesAndC0Controls) {
  EXPECT_EQ(JsonQuote("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(JsonQuote(""), "\"\"");
}

TEST(JsonQuote, LeavesTextAndEmojiRaw) {
  EXPECT_EQ(JsonQuote("电池很耐用 👍 café"), "\"电池很耐用 👍 café\"");
}

TEST(JsonQuote, EscapesLineSeparatorsBidiControlsAndInvisibles) {
  // A JSONL reader splitting on U+2028 saw 31 lines for 19; a raw U+202E reversed what followed.
  EXPECT_EQ(JsonQuote("a\u2028b\u2029c"), "\"a\\u2028b\\u2029c\"");
  EXPECT_EQ(JsonQuote("x\u202Eevil\u2066y\u2069"), "\"x\\u202eevil\\u2066y\\u2069\"");
  EXPECT_EQ(JsonQuote("k\u200Bey\uFEFF\u200F\u061C"), "\"k\\u200bey\\ufeff\\u200f\\u061c\"");
  EXPECT_EQ(JsonQuote("del\x7F c1\xC2\x85"), "\"del\\u007f c1\\u0085\"");
  // Neighbours of the escaped ranges stay raw.
  EXPECT_EQ(JsonQuote("\u2030\u2027\u2065\u00A0"), "\"\u2030\u2027\u2065\u00A0\"");
}

TEST(JsonQuote, EveryEscapeReadsBackAsTheSameString) {
  for (const std::string s : {"a\u2028b", "\u202Ex\u2066", "k\u200Bey\uFEFF", "del\x7F\xC2\x9F",
                              "plain 电池 👍", "\"\\\n\t"}) {
    EXPECT_EQ(ReadBack(JsonQuote(s)), s);
  }
}

}  // namespace
}  // namespace revsum
