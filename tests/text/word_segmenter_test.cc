// Specification of WordSegmenter: word tokens for features and word counts for budgets.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/text.h"

namespace revsum {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(WordSegmenter, ReturnsLowerCasedEnglishWordsWithoutPunctuation) {
  WordSegmenter words;
  EXPECT_THAT(words.Words("The Battery lasts 2.5 days, I'd say!!!"),
              ElementsAre("the", "battery", "lasts", "2.5", "days", "i'd", "say"));
}

TEST(WordSegmenter, FoldsFullWidthAndCase) {
  WordSegmenter words;
  EXPECT_THAT(words.Words("ＧＲＥＡＴ Straße"), ElementsAre("great", "strasse"));
}

TEST(WordSegmenter, SplitsChineseIntoDictionaryWords) {
  WordSegmenter words;
  EXPECT_THAT(words.Words("物流很快，质量不错。"), ElementsAre("物流", "很快", "质量", "不错"));
}

TEST(WordSegmenter, SplitsMixedTextAndSkipsEmoji) {
  WordSegmenter words;
  EXPECT_THAT(words.Words("iPhone屏幕很好 😍👍"), ElementsAre("iphone", "屏幕", "很好"));
}

TEST(WordSegmenter, EmptyAndPunctuationOnlyTextHaveNoWords) {
  WordSegmenter words;
  EXPECT_THAT(words.Words(""), IsEmpty());
  EXPECT_THAT(words.Words("... !!! --- 😀"), IsEmpty());
  EXPECT_EQ(words.CountWords(""), 0u);
  EXPECT_EQ(words.CountWords("... !!! --- 😀"), 0u);
}

TEST(WordSegmenter, CountsEnglishWordsAsWhitespaceTokensWithLettersOrDigits) {
  WordSegmenter words;
  // "don't", "3.5" and "e-mail" are one word each; "-" and "!!!" are none.
  EXPECT_EQ(words.CountWords("I don't like the e-mail app - it scores 3.5 at best !!!"), 11u);
}

TEST(WordSegmenter, CountsChineseWordsWithTheDictionary) {
  WordSegmenter words;
  EXPECT_EQ(words.CountWords("物流很快，质量不错。"), 4u);
}

TEST(WordSegmenter, CountsMixedTokensByTheirIcuWords) {
  WordSegmenter words;
  EXPECT_EQ(words.CountWords("The iPad屏幕很好 overall"), 5u);  // the, ipad, 屏幕, 很好, overall
}

TEST(WordSegmenter, InvalidUtf8DoesNotCrash) {
  WordSegmenter words;
  EXPECT_THAT(words.Words("ok \xff\xfe fine"), ElementsAre("ok", "fine"));
  EXPECT_EQ(words.CountWords("ok \xff\xfe fine"), 2u);
}

}  // namespace
}  // namespace revsum
