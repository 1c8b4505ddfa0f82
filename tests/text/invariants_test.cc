// Invariants of SentenceSegmenter on generated noisy reviews: random mixes of English, Chinese,
// markup, entities, emoji, combining marks, full-width forms, terminator runs and invalid bytes.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "revsum/text.h"
#include "text_test_util.h"

namespace revsum {
namespace {

using ::revsum::testing::CountCodePoints;
using ::revsum::testing::SubstrCodePoints;

const std::vector<std::string> kFragments = {"Great",
                                             "value",
                                             " ",
                                             " ",
                                             "  ",
                                             ".",
                                             ". ",
                                             "!!!",
                                             "?!",
                                             "...",
                                             "\u2026",
                                             "~",
                                             "\uff5e",
                                             ";",
                                             "\uff1b",
                                             ",",
                                             "\uff0c",
                                             "\u3002",
                                             "\uff01",
                                             "\n",
                                             "\r\n",
                                             "<br />",
                                             "<p>",
                                             "</p>",
                                             "<b>",
                                             "</b>",
                                             "<a href=\"https://x.org/?a=1&b=2\">",
                                             "</a>",
                                             "&amp;",
                                             "&quot;",
                                             "&#39;",
                                             "&#x1F600;",
                                             "&nbsp;",
                                             "&bogus;",
                                             "&",
                                             "<",
                                             ">",
                                             "\xF0\x9F\x98\x8D",
                                             "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD",
                                             "\u200d",
                                             "\ufe0f",
                                             "\ufeff",
                                             "\u200b",
                                             "e\u0301",
                                             "\u0301",
                                             "\uff21\uff22",
                                             "\u3000",
                                             "\u4e1c\u897f\u4e0d\u9519",
                                             "\u7269\u6d41\u5f88\u5feb",
                                             "3.5",
                                             "3~5",
                                             "e.g.",
                                             "U.S.",
                                             "Mr.",
                                             "amazon.com",
                                             "love",
                                             "it",
                                             "\xff",
                                             "\xc3\x28",
                                             "\xe4\xb8",
                                             "\x07",
                                             "\t",
                                             "\u300a",
                                             "\u300b",
                                             "\u201c",
                                             "\u201d",
                                             "(",
                                             ")",
                                             "\xef\xbc\x8e",
                                             "A",
                                             "b",
                                             "1"};

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  size_t Below(size_t n) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>(state_ >> 33) % n;
  }

 private:
  uint64_t state_;
};

TEST(SentenceSegmenterInvariants, HoldOnRandomNoisyReviews) {
  Rng rng(2024);
  for (size_t max_chars : {size_t{2000}, size_t{12}, size_t{3}}) {
    SegmentOptions options;
    options.max_chars = max_chars;
    SentenceSegmenter segmenter(options);
    for (int round = 0; round < 3000; ++round) {
      std::string review;
      const size_t n = rng.Below(40);
      for (size_t i = 0; i < n; ++i) review += kFragments[rng.Below(kFragments.size())];
      SCOPED_TRACE("review: " + review);
      const auto sentences = segmenter.Split(review);
      const int32_t length = CountCodePoints(review);
      int32_t previous_end = 0;
      for (size_t i = 0; i < sentences.size(); ++i) {
        const Sentence& s = sentences[i];
        ASSERT_EQ(s.index, static_cast<int32_t>(i));
        ASSERT_FALSE(s.text.empty());
        ASSERT_NE(s.text.front(), ' ');
        ASSERT_NE(s.text.back(), ' ');
        ASSERT_LE(previous_end, s.begin);
        ASSERT_LT(s.begin, s.end);
        ASSERT_LE(s.end, length);
        ASSERT_LE(static_cast<size_t>(CountCodePoints(s.text)), max_chars) << s.text;
        ASSERT_EQ(CleanText(SubstrCodePoints(review, s.begin, s.end)), s.text);
        previous_end = s.end;
      }
    }
  }
}

}  // namespace
}  // namespace revsum
