// The offset contract: every sentence's [begin, end) selects, in the ORIGINAL review text, a span
// whose cleaning gives back the sentence text.

#include <gtest/gtest.h>

#include <string>

#include "revsum/text.h"
#include "text_test_util.h"

namespace revsum {
namespace {

using ::revsum::testing::CountCodePoints;
using ::revsum::testing::SubstrCodePoints;

class OffsetsMapBack : public ::testing::TestWithParam<const char*> {};

TEST_P(OffsetsMapBack, CleaningTheOriginalSpanGivesTheSentence) {
  const std::string original = GetParam();
  SentenceSegmenter segmenter;
  const auto sentences = segmenter.Split(original);
  ASSERT_FALSE(sentences.empty());
  const int32_t length = CountCodePoints(original);
  int32_t previous_end = 0;
  for (const Sentence& s : sentences) {
    SCOPED_TRACE(s.text);
    EXPECT_LE(previous_end, s.begin);
    EXPECT_LT(s.begin, s.end);
    EXPECT_LE(s.end, length);
    EXPECT_EQ(CleanText(SubstrCodePoints(original, s.begin, s.end)), s.text);
    previous_end = s.end;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Reviews, OffsetsMapBack,
    ::testing::Values("This blender is loud. It crushes ice in seconds! Would I buy it again? Yes.",
                      "  Mr. Smith at the U.S. store was helpful.\n\nDr. Jones agreed.  ",
                      "衣服质量很好。尺码偏大！客服态度怎么样？还不错",
                      "东西不错.物流很快,下次还来～～送货3~5天；还行",
                      "iPad的屏幕很好。Battery life is great! 就是价格有点贵.",
                      "great.love it!!!so happy 😍😍 Price:$3.50, e.g. cheap... see amazon.com",
                      "Fits true to size<br />Color is &quot;navy&quot; &amp; darker<br /><br />"
                      "<p>Would <b>buy</b> again</p>",
                      "ＡＢＣ牌的耳机，音质一流！！ Ｎｏｉｓｅ ｃａｎｃｅｌｌｉｎｇ ｗｏｒｋｓ．",
                      "cafe\u0301 au lait \ufb01ne. \u2460 stars\u2026 meh",
                      "\ufeff做父母一定要有耐心，不断地学习。\u200b这是一本好书",
                      "Good \xc3\x28 product. Bad \xff box."));

}  // namespace
}  // namespace revsum
