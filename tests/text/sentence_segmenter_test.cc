// Specification of SentenceSegmenter on English, Chinese, mixed, noisy and HTML review text.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "revsum/text.h"
#include "text_test_util.h"

namespace revsum {
namespace {

using ::revsum::testing::CountCodePoints;
using ::revsum::testing::SubstrCodePoints;
using ::revsum::testing::Texts;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Split(std::string_view text, SegmentOptions options = {}) {
  SentenceSegmenter segmenter(options);
  return Texts(segmenter.Split(text));
}

// --- English -------------------------------------------------------------------------------

TEST(SentenceSegmenter, SplitsPlainEnglishSentences) {
  EXPECT_THAT(Split("This blender is loud. It crushes ice in seconds! Would I buy it again? Yes."),
              ElementsAre("This blender is loud.", "It crushes ice in seconds!",
                          "Would I buy it again?", "Yes."));
}

TEST(SentenceSegmenter, NumbersIndexesFromZero) {
  SentenceSegmenter segmenter;
  const auto sentences = segmenter.Split("Nice case. Cheap too. Ships fast.");
  ASSERT_EQ(sentences.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(sentences[i].index, i);
}

TEST(SentenceSegmenter, DoesNotSplitAfterTitlesOrInitialisms) {
  EXPECT_THAT(Split("Mr. Smith at the U.S. store was helpful. Dr. Jones agreed."),
              ElementsAre("Mr. Smith at the U.S. store was helpful.", "Dr. Jones agreed."));
  EXPECT_THAT(Split("Good for small rooms, e.g. a dorm. Works fine."),
              ElementsAre("Good for small rooms, e.g. a dorm.", "Works fine."));
}

TEST(SentenceSegmenter, DoesNotSplitDecimalNumbersOrPrices) {
  EXPECT_THAT(Split("Price:$3.50 for a 2.5 lb bag. Worth it."),
              ElementsAre("Price:$3.50 for a 2.5 lb bag.", "Worth it."));
}

TEST(SentenceSegmenter, SplitsWhereTheSpaceAfterAPeriodIsMissing) {
  EXPECT_THAT(Split("great.love it"), ElementsAre("great.", "love it"));
  EXPECT_THAT(Split("Arrived broken.Returned it the same day."),
              ElementsAre("Arrived broken.", "Returned it the same day."));
}

TEST(SentenceSegmenter, KeepsTerminatorRunsAttachedToTheirSentence) {
  EXPECT_THAT(Split("great.love it!!!so happy"), ElementsAre("great.", "love it!!!", "so happy"));
  EXPECT_THAT(Split("Is this a joke?! Never again..."),
              ElementsAre("Is this a joke?!", "Never again..."));
}

TEST(SentenceSegmenter, SplitsAfterAnEllipsisFollowedByANewThought) {
  EXPECT_THAT(Split("It was ok...then it broke"), ElementsAre("It was ok...", "then it broke"));
}

TEST(SentenceSegmenter, SplitsBeforeALowerCaseSentenceStart) {
  EXPECT_THAT(Split("works great. love the color."),
              ElementsAre("works great.", "love the color."));
}

TEST(SentenceSegmenter, DoesNotSplitUrlsEmailsOrDomains) {
  EXPECT_THAT(
      Split("Bought it on amazon.com for less. See https://example.org/a.b?c=d.Thanks"),
      ElementsAre("Bought it on amazon.com for less.", "See https://example.org/a.b?c=d.Thanks"));
  EXPECT_THAT(Split("Write to help@shop.example.com about returns."),
              ElementsAre("Write to help@shop.example.com about returns."));
}

TEST(SentenceSegmenter, KeepsEmojiWithTheSentenceTheyFollow) {
  EXPECT_THAT(Split("Love it! 😍😍 Works great. 👍"), ElementsAre("Love it! 😍😍", "Works great. 👍"));
  EXPECT_THAT(Split("Perfect gift 🎁. My son loves it"),
              ElementsAre("Perfect gift 🎁.", "My son loves it"));
}

TEST(SentenceSegmenter, DropsLinesWithoutLettersDigitsOrIdeographs) {
  EXPECT_THAT(Split("...\n!!!\n😀😀\nStill works."), ElementsAre("Still works."));
  EXPECT_THAT(Split("   \n\t "), IsEmpty());
}

TEST(SentenceSegmenter, EmptyInputGivesNoSentences) { EXPECT_THAT(Split(""), IsEmpty()); }

TEST(SentenceSegmenter, NewlinesEndSentences) {
  EXPECT_THAT(Split("Pros: light and quiet\nCons: short cord\r\nOverall good"),
              ElementsAre("Pros: light and quiet", "Cons: short cord", "Overall good"));
}

TEST(SentenceSegmenter, NewlinesCanBeReadAsSpaces) {
  SegmentOptions options;
  options.line_breaks_end_sentences = false;
  EXPECT_THAT(Split("The strap is\nthin but strong.", options),
              ElementsAre("The strap is thin but strong."));
}

// --- HTML --------------------------------------------------------------------------------------

TEST(SentenceSegmenter, BreakTagEndsALineOfText) {
  EXPECT_THAT(
      Split("Fits true to size<br />Color is a bit darker than the photo<br /><br />"
            "Would buy again"),
      ElementsAre("Fits true to size", "Color is a bit darker than the photo", "Would buy again"));
}

TEST(SentenceSegmenter, CleansEntitiesInsideSentences) {
  EXPECT_THAT(Split("The &quot;waterproof&quot; case isn&#39;t. Water got in &amp; ruined it."),
              ElementsAre("The \"waterproof\" case isn't.", "Water got in & ruined it."));
}

// --- Chinese and mixed -------------------------------------------------------------------------

TEST(SentenceSegmenter, SplitsChineseAtFullStopsAndFullWidthMarks) {
  EXPECT_THAT(Split("衣服质量很好。尺码偏大！客服态度怎么样？还不错"),
              ElementsAre("衣服质量很好。", "尺码偏大!", "客服态度怎么样?", "还不错"));
}

TEST(SentenceSegmenter, AsciiPeriodBetweenChineseCharactersEndsASentence) {
  EXPECT_THAT(Split("东西不错.物流很快,下次还来"), ElementsAre("东西不错.", "物流很快,下次还来"));
}

TEST(SentenceSegmenter, TildeRunsEndChineseSentencesButNotRanges) {
  EXPECT_THAT(Split("很好吃～～下次还会买~送货3~5天"),
              ElementsAre("很好吃~~", "下次还会买~", "送货3~5天"));
}

TEST(SentenceSegmenter, SemicolonsSplitChineseClauses) {
  EXPECT_THAT(Split("屏幕清晰；电池耐用;就是有点重"),
              ElementsAre("屏幕清晰;", "电池耐用;", "就是有点重"));
  EXPECT_THAT(Split("Light; cheap; sturdy."), ElementsAre("Light; cheap; sturdy."));
}

TEST(SentenceSegmenter, ChineseEllipsisAndExclamationRunsStayAttached) {
  EXPECT_THAT(Split("等了一个星期……终于到了！！！很满意"),
              ElementsAre("等了一个星期......", "终于到了!!!", "很满意"));
}

TEST(SentenceSegmenter, OpeningBracketsStartTheNextSentence) {
  EXPECT_THAT(Split("买了几本书来读。《少有人走的路》这本书很好。"),
              ElementsAre("买了几本书来读。", "《少有人走的路》这本书很好。"));
}

TEST(SentenceSegmenter, EllipsisOpeningAQuotationDoesNotEndTheSentence) {
  EXPECT_THAT(Split("书里写道：“……让我回忆最多的，是失败。”强烈推荐！"),
              ElementsAre("书里写道:“......让我回忆最多的,是失败。”", "强烈推荐!"));
}

TEST(SentenceSegmenter, SplitsMixedChineseAndEnglish) {
  EXPECT_THAT(Split("iPad的屏幕很好。Battery life is great! 就是价格有点贵."),
              ElementsAre("iPad的屏幕很好。", "Battery life is great!", "就是价格有点贵."));
}

// --- Glued abbreviations and sizes -----------------------------------------------------------

TEST(SentenceSegmenter, DoesNotSplitATitleGluedToChineseText) {
  // ChnSentiCorp: the split gave the point "第二个行李员MR." (issue 8).
  EXPECT_THAT(Split("第二个行李员MR.KEN很热情。服务很好。"),
              ElementsAre("第二个行李员MR.KEN很热情。", "服务很好。"));
  EXPECT_THAT(Split("第一个行李员MR.KENNTH,在我们抵店起就很热情。"),
              ElementsAre("第一个行李员MR.KENNTH,在我们抵店起就很热情。"));
  EXPECT_THAT(Split("前台DR.WU很专业。"), ElementsAre("前台DR.WU很专业。"));
  // Still split: a lower-case or CJK continuation, and English words glued by a missing space.
  EXPECT_THAT(Split("东西不错.物流很快"), ElementsAre("东西不错.", "物流很快"));
  EXPECT_THAT(Split("Arrived broken.Returned it."), ElementsAre("Arrived broken.", "Returned it."));
}

TEST(SentenceSegmenter, InlineListNumbersStartTheirItem) {
  // 手机 of the Chinese shopping dump: the point "...亮度十足.4." (issue 8).
  EXPECT_THAT(Split("感觉十分别致.3.显示屏超大,亮度十足.4.铃声也是相当大的"),
              ElementsAre("感觉十分别致.", "3.显示屏超大,亮度十足.", "4.铃声也是相当大的"));
  EXPECT_THAT(Split("1.机身小巧。2.待机时间长。"), ElementsAre("1.机身小巧。", "2.待机时间长。"));
  EXPECT_THAT(Split("优点:1. 外观漂亮.12.功能齐全"),
              ElementsAre("优点:1. 外观漂亮.", "12.功能齐全"));
  // Not list items: decimals, versions, model numbers, English text.
  EXPECT_THAT(Split("价格是3.5元,很便宜。"), ElementsAre("价格是3.5元,很便宜。"));
  EXPECT_THAT(Split("升级到2.0.很好用"), ElementsAre("升级到2.0.", "很好用"));
  EXPECT_THAT(Split("买了iPhone 4.很好用"), ElementsAre("买了iPhone 4.", "很好用"));
  EXPECT_THAT(Split("Pros: 1. Great sound. 2. Cheap."),
              ElementsAre("Pros: 1.", "Great sound.", "2.", "Cheap."));
}

TEST(SentenceSegmenter, DoesNotSplitATokenisedScreenSize) {
  // OpoSum: the split gave the point "I have a 15." (issue 8).
  EXPECT_THAT(Split("I have a 15. 4 '' Widescreen Dell laptop and it fits."),
              ElementsAre("I have a 15. 4 '' Widescreen Dell laptop and it fits."));
  EXPECT_THAT(Split("case for Dell Inspiron E1505 (15. 4 '') screen. It was too small."),
              ElementsAre("case for Dell Inspiron E1505 (15. 4 '') screen.", "It was too small."));
  EXPECT_THAT(Split("I have a 15. 4'' screen."), ElementsAre("I have a 15. 4'' screen."));
  EXPECT_THAT(Split("My old one was 17. 3 inch wide."),
              ElementsAre("My old one was 17. 3 inch wide."));
  EXPECT_THAT(Split("I'd pay $ 200. 00 for quality boots vs. $ 125. 00 for junk.."),
              ElementsAre("I'd pay $ 200. 00 for quality boots vs. $ 125. 00 for junk.."));
  // Still split: a sentence ending in a number, then one starting with a number.
  EXPECT_THAT(Split("I gave it a 5. 4 Stars would be fair."),
              ElementsAre("I gave it a 5.", "4 Stars would be fair."));
}

// --- Length limits -----------------------------------------------------------------------------

TEST(SentenceSegmenter, SplitsLongSentencesAtCommasNearTheLimit) {
  SegmentOptions options;
  options.max_chars = 30;
  const auto pieces = Split(
      "The seat is comfortable, the frame feels solid, the wheels roll smoothly, and it folds flat",
      options);
  EXPECT_THAT(pieces, ElementsAre("The seat is comfortable,", "the frame feels solid,",
                                  "the wheels roll smoothly,", "and it folds flat"));
  for (const auto& p : pieces) EXPECT_LE(CountCodePoints(p), 30);
}

TEST(SentenceSegmenter, HardSplitsLongTextWithoutCommasOrSpaces) {
  SegmentOptions options;
  options.max_chars = 10;
  EXPECT_THAT(Split("这个价格买到这么好的东西真的是太值了", options),
              ElementsAre("这个价格买到这么好的", "东西真的是太值了"));
}

TEST(SentenceSegmenter, DropsSentencesShorterThanMinChars) {
  SegmentOptions options;
  options.min_chars = 5;
  EXPECT_THAT(Split("Ok. Not bad at all. Yes!", options), ElementsAre("Not bad at all."));
}

// --- Robustness --------------------------------------------------------------------------------

TEST(SentenceSegmenter, InvalidUtf8DoesNotCrashAndBecomesReplacementCharacters) {
  EXPECT_THAT(Split("Good \xc3\x28 product. Bad \xff box."),
              ElementsAre("Good \ufffd( product.", "Bad \ufffd box."));
}

TEST(SentenceSegmenter, SegmentersAreMovable) {
  SentenceSegmenter a;
  SentenceSegmenter b = std::move(a);
  EXPECT_THAT(Texts(b.Split("One. Two.")), ElementsAre("One.", "Two."));
}

}  // namespace
}  // namespace revsum
