// Specification of CleanText / CleanWithOffsets: HTML, entities, NFKC, controls, whitespace.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/text.h"
#include "text_test_util.h"

namespace revsum {
namespace {

TEST(CleanText, EmptyInputGivesEmptyText) {
  EXPECT_EQ(CleanText(""), "");
  EXPECT_TRUE(CleanWithOffsets("").text.empty());
}

TEST(CleanText, RemovesHtmlTagsAndKeepsTheirText) {
  EXPECT_EQ(CleanText("I <b>really</b> like the <a href=\"https://example.com/p?id=1&x=2\">blue "
                      "one</a>."),
            "I really like the blue one.");
}

TEST(CleanText, BreakTagsBecomeSpacesInOneLineText) {
  EXPECT_EQ(CleanText("Works well.<br /><br />Battery lasts two days."),
            "Works well. Battery lasts two days.");
}

TEST(CleanText, BlockTagsBecomeLineBreaksInMappedText) {
  const MappedText cleaned = CleanWithOffsets("Fits well<br>Runs small<p>Buy a size up</p>");
  EXPECT_EQ(cleaned.text, U"Fits well\nRuns small\nBuy a size up");
}

TEST(CleanText, KeepsThingsThatOnlyLookLikeTags) {
  EXPECT_EQ(CleanText("I <3 this mug, and 2 < 3 > 1"), "I <3 this mug, and 2 < 3 > 1");
  EXPECT_EQ(CleanText("if a<b and c>d then"), "if a<b and c>d then");
}

TEST(CleanText, RemovesHtmlComments) {
  EXPECT_EQ(CleanText("Good<!-- imported from the old site --> value"), "Good value");
}

TEST(CleanText, DecodesNamedAndNumericEntities) {
  EXPECT_EQ(CleanText("She said &quot;perfect&quot; &amp; it&#39;s true, isn&#x27;t it"),
            "She said \"perfect\" & it's true, isn't it");
  EXPECT_EQ(CleanText("caf&eacute; &lt;3 &hearts;"), "caf\u00e9 <3 \u2665");
}

TEST(CleanText, DecodesDoublyEscapedEntities) {
  EXPECT_EQ(CleanText("the &amp;quot;pro&amp;quot; model"), "the \"pro\" model");
}

TEST(CleanText, ReadsNumericReferencesInTheC1RangeAsWindows1252) {
  EXPECT_EQ(CleanText("don&#146;t"), "don\u2019t");
}

TEST(CleanText, NbspEntityBecomesAnOrdinarySpace) {
  EXPECT_EQ(CleanText("great&nbsp;&nbsp;price"), "great price");
}

TEST(CleanText, LeavesUnknownOrUnterminatedEntitiesAlone) {
  EXPECT_EQ(CleanText("AT&T and R&D &bogus; &amp"), "AT&T and R&D &bogus; &amp");
}

TEST(CleanText, AppliesNfkcToFullWidthForms) {
  EXPECT_EQ(CleanText("ＡＢＣ１２３！？"), "ABC123!?");
  EXPECT_EQ(CleanText("东西不错，物流很快；下次还来～"), "东西不错,物流很快;下次还来~");
}

TEST(CleanText, AppliesNfkcCompositionAndCompatibilityMappings) {
  EXPECT_EQ(CleanText("cafe\u0301 \ufb01ne \u2460 \u2026"), "caf\u00e9 fine 1 ...");
}

TEST(CleanText, CollapsesWhitespaceAndTrims) {
  EXPECT_EQ(CleanText("  too \t many\u3000\u00a0spaces \n\n here  "), "too many spaces here");
}

TEST(CleanText, DropsControlAndFormatCharactersButKeepsEmojiJoiners) {
  EXPECT_EQ(CleanText("\ufeffgood\u0007 stuff\u200b!"), "good stuff!");
  const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467";
  EXPECT_EQ(CleanText("for the " + family), "for the " + family);
}

TEST(CleanText, ReplacesInvalidUtf8WithReplacementCharacter) {
  EXPECT_EQ(CleanText("bad \xff\xfe bytes \xe4\xb8"), "bad \ufffd\ufffd bytes \ufffd");
}

TEST(CleanWithOffsets, MapsEachCleanedCharacterToItsOriginalSpan) {
  // "a&amp;b<br>c": a=0, &amp;=1..6, b=6, <br>=7..11, c=11
  const MappedText m = CleanWithOffsets("a&amp;b<br>c");
  ASSERT_EQ(m.text, U"a&b\nc");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 6, 7, 11));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 6, 7, 11, 12));
}

TEST(CleanWithOffsets, CountsOffsetsInCodePointsNotBytes) {
  const MappedText m = CleanWithOffsets("好 ＯＫ");  // 好=0, space=1, Ｏ=2, Ｋ=3
  ASSERT_EQ(m.text, U"好 OK");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 2, 3, 4));
}

TEST(CleanWithOffsets, MapsNfkcExpansionsToTheOneOriginalCharacter) {
  const MappedText m = CleanWithOffsets("ok\u2026");  // … -> ...
  ASSERT_EQ(m.text, U"ok...");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 2, 2, 2));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 2, 3, 3, 3));
}

TEST(CjkFraction, CountsLettersDigitsAndIdeographsOnly) {
  EXPECT_DOUBLE_EQ(CjkFraction(""), 0.0);
  EXPECT_DOUBLE_EQ(CjkFraction("Great price!!!"), 0.0);
  EXPECT_DOUBLE_EQ(CjkFraction("物流很快。"), 1.0);
  EXPECT_DOUBLE_EQ(CjkFraction("ipad很好"), 2.0 / 6.0);
}

TEST(IsCjk, AcceptsCjkLettersButNotCjkPunctuation) {
  EXPECT_TRUE(IsCjk(U'好'));
  EXPECT_TRUE(IsCjk(U'の'));
  EXPECT_TRUE(IsCjk(U'カ'));
  EXPECT_TRUE(IsCjk(U'한'));
  EXPECT_FALSE(IsCjk(U'。'));
  EXPECT_FALSE(IsCjk(U'a'));
  EXPECT_FALSE(IsCjk(U'！'));
}

}  // namespace
}  // namespace revsum
