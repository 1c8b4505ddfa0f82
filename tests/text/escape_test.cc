// Specification of the output escapes: TerminalSafe, MarkdownInline, HtmlEscape.

#include <gtest/gtest.h>

#include <string>

#include "revsum/escape.h"

namespace revsum {
namespace {

TEST(KeyForMessage, ShortKeysAreShownWholeAndSafe) {
  EXPECT_EQ(KeyForMessage("B00\u200B1\x1b[2J"), "B00\\u200b1\\x1b[2J");
}

TEST(KeyForMessage, LongKeysAreCutAtACharacterWithTheirSize) {
  EXPECT_EQ(KeyForMessage(std::string(1 << 20, 'K')),
            std::string(200, 'K') + "... (1048576 bytes)");
  // 199 ASCII bytes then a 3-byte character across byte 200: cut before it, not inside it.
  const std::string key = std::string(199, 'a') + "\u7535" + std::string(100, 'b');
  EXPECT_EQ(KeyForMessage(key), std::string(199, 'a') + "... (302 bytes)");
}

TEST(ShowInvisibles, KeysThatDifferOnlyByInvisiblesPrintDifferently) {
  EXPECT_EQ(ShowInvisibles("B00\u200B1"), "B00\\u200b1");
  EXPECT_EQ(ShowInvisibles("B001\uFEFF"), "B001\\ufeff");
  EXPECT_EQ(ShowInvisibles("a\u00ADb\u2060c\u200Dd"), "a\\u00adb\\u2060c\\u200dd");
  EXPECT_EQ(ShowInvisibles("a\u00A0b\u3000c"), "a\\u00a0b\\u3000c");
  EXPECT_EQ(ShowInvisibles("x\U000E0041"), "x\\U000e0041");  // a tag character
  EXPECT_EQ(ShowInvisibles("x\uFE0F"), "x\\ufe0f");          // a variation selector
  // Visible text, ASCII spaces and invalid bytes pass (the format's escape handles the latter).
  EXPECT_EQ(ShowInvisibles("手机 B0KTL55200 café"), "手机 B0KTL55200 café");
  EXPECT_EQ(ShowInvisibles("a\xFF"
                           "b"),
            "a\xFF"
            "b");
  EXPECT_NE(TerminalSafe(ShowInvisibles("B001")), TerminalSafe(ShowInvisibles("B0\u200C01")));
}

TEST(TerminalSafe, PrintableTextPassesUnchanged) {
  EXPECT_EQ(TerminalSafe("Battery lasts 2 days, 电池很耐用 👍 C:\\path"),
            "Battery lasts 2 days, 电池很耐用 👍 C:\\path");
  EXPECT_EQ(TerminalSafe(""), "");
}

TEST(TerminalSafe, EscapesC0ControlsAndDel) {
  EXPECT_EQ(TerminalSafe("a\x1b[31mred\x1b]0;title\x07"), "a\\x1b[31mred\\x1b]0;title\\x07");
  EXPECT_EQ(TerminalSafe("l1\nl2\rl3\tx"), "l1\\nl2\\rl3\\tx");
  EXPECT_EQ(TerminalSafe(std::string("nul\0x\x7f", 6)), "nul\\x00x\\x7f");
  EXPECT_EQ(TerminalSafe("\x01\x1f"), "\\x01\\x1f");
}

TEST(TerminalSafe, EscapesC1ControlsAsCodePoints) {
  EXPECT_EQ(TerminalSafe("a\xc2\x9b"
                         "31mb\xc2\x85"),
            "a\\u009b31mb\\u0085");
  EXPECT_EQ(TerminalSafe("\xc2\xa0"), "\xc2\xa0");  // U+00A0 is printable
}

TEST(TerminalSafe, EscapesBidiControlsAndLineSeparators) {
  EXPECT_EQ(TerminalSafe("abc\u202Edcba"), "abc\\u202edcba");
  EXPECT_EQ(TerminalSafe("\u202A\u202B\u202C\u202D"), "\\u202a\\u202b\\u202c\\u202d");
  EXPECT_EQ(TerminalSafe("\u2066\u2067\u2068\u2069"), "\\u2066\\u2067\\u2068\\u2069");
  EXPECT_EQ(TerminalSafe("\u200E\u200F\u061C"), "\\u200e\\u200f\\u061c");
  EXPECT_EQ(TerminalSafe("a\u2028b\u2029c"), "a\\u2028b\\u2029c");
}

TEST(TerminalSafe, EscapesEveryByteOfInvalidUtf8) {
  EXPECT_EQ(TerminalSafe("a\xff"
                         "b"),
            "a\\xffb");
  EXPECT_EQ(TerminalSafe("\xc0\x80"), "\\xc0\\x80");           // overlong NUL
  EXPECT_EQ(TerminalSafe("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // surrogate
  EXPECT_EQ(TerminalSafe("\xe7\x94"), "\\xe7\\x94");           // truncated 电
  EXPECT_EQ(TerminalSafe("\x80"
                         "ok"),
            "\\x80ok");                                                 // stray continuation
  EXPECT_EQ(TerminalSafe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // > U+10FFFF
}

TEST(TerminalSafe, OutputHasNoControlBytesForAnyByte) {
  for (int b = 0; b < 256; ++b) {
    const std::string out = TerminalSafe(std::string(1, static_cast<char>(b)));
    for (char c : out) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_FALSE(u < 0x20 || u == 0x7f) << "byte " << b;
    }
  }
}

TEST(MarkdownInline, PlainTextPassesUnchanged) {
  EXPECT_EQ(MarkdownInline("Battery lasts two days, great value! 电池很耐用。"),
            "Battery lasts two days, great value! 电池很耐用。");
  EXPECT_EQ(MarkdownInline("AT&T, 5 - 3 = 2, it's \"fine\" (mostly); 10.5% off"),
            "AT&T, 5 - 3 = 2, it's \"fine\" (mostly); 10.5% off");
}

TEST(MarkdownInline, NewlinesAndControlsBecomeSpacesAndEdgesAreTrimmed) {
  EXPECT_EQ(MarkdownInline("  a\nb\r\nc\td\x1b"
                           "e\u202E  "),
            "a b  c d e");
  EXPECT_EQ(MarkdownInline("\n\n"), "");
  EXPECT_EQ(MarkdownInline("    indented code"), "indented code");
}

TEST(MarkdownInline, CannotOpenHeadingListOrQuote) {
  EXPECT_EQ(MarkdownInline("# Fake"), "\\# Fake");
  EXPECT_EQ(MarkdownInline("- item"), "\\- item");
  EXPECT_EQ(MarkdownInline("+ item"), "\\+ item");
  EXPECT_EQ(MarkdownInline("==="), "\\===");
  EXPECT_EQ(MarkdownInline("---"), "\\---");
  EXPECT_EQ(MarkdownInline("12. item"), "12\\. item");
  EXPECT_EQ(MarkdownInline("3) item"), "3\\) item");
  EXPECT_EQ(MarkdownInline("> quote"), "&gt; quote");
  EXPECT_EQ(MarkdownInline("X\n## Fake\n- IGNORE"), "X \\#\\# Fake - IGNORE");
}

TEST(MarkdownInline, CannotOpenLinksImagesCodeOrEmphasis) {
  EXPECT_EQ(MarkdownInline("[r1]"), "\\[r1\\]");
  EXPECT_EQ(MarkdownInline("![x](http://e.com/a.png)"), "\\!\\[x\\](http\\://e.com/a.png)");
  EXPECT_EQ(MarkdownInline("`code` *b* _i_ ~~s~~ a|b \\"),
            "\\`code\\` \\*b\\* \\_i\\_ \\~\\~s\\~\\~ a\\|b \\\\");
  // GFM links an e-mail address, with or without mailto: or xmpp:, unless its '@' is escaped.
  EXPECT_EQ(MarkdownInline("mail mailto:evil@x.com or evil@x.com, xmpp:me@x.org"),
            "mail mailto:evil\\@x.com or evil\\@x.com, xmpp:me\\@x.org");
  EXPECT_EQ(MarkdownInline("see www.evil.com or https://evil.com"),
            "see www\\.evil.com or https\\://evil.com");
}

TEST(MarkdownInline, CannotOpenHtmlTagsOrCharacterReferences) {
  EXPECT_EQ(MarkdownInline("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(MarkdownInline("&lt;img&gt; &#60; &#x3C; & ok"),
            "&amp;lt;img&amp;gt; &amp;\\#60; &amp;\\#x3C; & ok");
  EXPECT_EQ(MarkdownInline("I <3 it, 5 < 6"), "I &lt;3 it, 5 &lt; 6");
}

TEST(MarkdownInline, InvalidUtf8BecomesReplacementCharacter) {
  EXPECT_EQ(MarkdownInline("a\xff"
                           "b"),
            "a\uFFFDb");
}

TEST(HtmlEscape, EscapesTheFiveCharacters) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\" title='y'>&amp;</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  EXPECT_EQ(HtmlEscape("电池 ok"), "电池 ok");
}

TEST(ValidUtf8, ValidTextAndControlsPassUnchanged) {
  const std::string text = std::string("电池 ok \x1b[2J\n", 15) + std::string(1, '\0') + "é";
  EXPECT_EQ(ValidUtf8(text), text);
}

TEST(ValidUtf8, EachMaximalInvalidSubpartBecomesOneReplacementCharacter) {
  EXPECT_EQ(ValidUtf8("a\xff"
                      "b"),
            "a\uFFFDb");
  // A surrogate (ED A0 80) is three invalid subparts; a truncated sequence (E7 94) is one.
  EXPECT_EQ(ValidUtf8("\xed\xa0\x80"), "\uFFFD\uFFFD\uFFFD");
  EXPECT_EQ(ValidUtf8("x\xe7\x94"), "x\uFFFD");
  EXPECT_EQ(ValidUtf8("\xc0\xaf"), "\uFFFD\uFFFD");  // overlong '/'
}

}  // namespace
}  // namespace revsum
