// ROUGE on small cases whose counts are worked out by hand in the comments. Words of at most 3
// letters are never stemmed, which keeps the arithmetic visible.

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/rouge.h"

namespace revsum {
namespace {

using ::testing::ElementsAre;

constexpr double kTol = 1e-9;

TEST(RougeTokens, LowercasesDropsPunctuationSplitsHyphensAndStems) {
  // "Running" -> run (Porter), "shoes" -> shoe, "GREAT" -> great; "!!" and "-" vanish.
  EXPECT_THAT(RougeTokens("Running-shoes are GREAT!!"), ElementsAre("run", "shoe", "are", "great"));
}

TEST(RougeTokens, NeverStemsTokensOfThreeCharactersOrLess) {
  // Porter alone would turn "was" into "wa" and "its" into "it".
  EXPECT_THAT(RougeTokens("It was its day"), ElementsAre("it", "was", "its", "day"));
}

TEST(RougeTokens, DropsNonAsciiBytesLikeThePerlScript) {
  // "café" loses its two UTF-8 bytes of é: "caf" (3 chars, unstemmed); Chinese disappears entirely.
  EXPECT_THAT(RougeTokens("café 很好 au lait"), ElementsAre("caf", "au", "lait"));
}

TEST(RougeTokens, MapsIrregularFormsToTheirBaseBeforeStemming) {
  EXPECT_THAT(RougeTokens("Feet bought were children"), ElementsAre("foot", "buy", "be", "child"));
}

TEST(RougeTokens, KeepsRawTokensWhenStemmingIsOff) {
  EXPECT_THAT(RougeTokens("Running feet", /*stem=*/false), ElementsAre("running", "feet"));
}

TEST(CutToWords, KeepsTheFirstWordsAndTheLineBreaksBetweenThem) {
  EXPECT_EQ(CutToWords("One two.\nThree  four five", 4), "One two.\nThree  four");
  EXPECT_EQ(CutToWords("  One two", 1), "  One");
  EXPECT_EQ(CutToWords("One two", 5), "One two");
  EXPECT_EQ(CutToWords("One two", 0), "One two");
}

TEST(SplitSentenceUnits, SplitsAfterTerminatorsFollowedBySpaceAndAtNewlines) {
  EXPECT_THAT(SplitSentenceUnits("Great kettle! Boils fast... Lid sticks?\nWould buy again"),
              ElementsAre("Great kettle!", "Boils fast...", "Lid sticks?", "Would buy again"));
}

TEST(SplitSentenceUnits, KeepsClosingQuotesAndBracketsWithTheirSentence) {
  EXPECT_THAT(SplitSentenceUnits("He said \"no.\" Then (he left.) Fine.\u201d Ok"),
              ElementsAre("He said \"no.\"", "Then (he left.)", "Fine.\u201d", "Ok"));
}

TEST(SplitSentenceUnits, DoesNotSplitWithoutFollowingSpace) {
  // Review noise: "great.love it" and decimals stay whole.
  EXPECT_THAT(SplitSentenceUnits("great.love it, 3.5mm jack!!!"),
              ElementsAre("great.love it, 3.5mm jack!!!"));
}

TEST(SplitSentenceUnits, DropsEmptyUnits) {
  EXPECT_THAT(SplitSentenceUnits("\n\n  A.  \n\n"), ElementsAre("A."));
  EXPECT_TRUE(SplitSentenceUnits(" \n ").empty());
}

// peer  "the cat sat on the mat."   6 tokens; bigrams the-cat cat-sat sat-on on-the the-mat
// ref   "the cat was on the mat."   6 tokens; bigrams the-cat cat-was was-on on-the the-mat
// ROUGE-1 hits: the 2, cat 1, on 1, mat 1 = 5 -> R = P = F = 5/6 = 0.83333
// ROUGE-2 hits: the-cat, on-the, the-mat = 3 of 5 -> R = P = F = 0.6
// ROUGE-L: LCS = "the cat on the mat" = 5 -> 5/6.
TEST(ScoreRouge, OneReferenceOneSentence) {
  const RougeResult r = ScoreRouge("The cat sat on the mat.", {"The cat was on the mat."});
  EXPECT_NEAR(r.r1.recall, 0.83333, kTol);
  EXPECT_NEAR(r.r1.precision, 0.83333, kTol);
  EXPECT_NEAR(r.r1.f, 0.83333, kTol);
  EXPECT_NEAR(r.r2.recall, 0.6, kTol);
  EXPECT_NEAR(r.r2.precision, 0.6, kTol);
  EXPECT_NEAR(r.r2.f, 0.6, kTol);
  EXPECT_NEAR(r.rl.recall, 0.83333, kTol);
  EXPECT_NEAR(r.rl.f, 0.83333, kTol);
}

// Lin (2004), section 3.2's union-LCS example, with words for w1..w9:
//   ref  r  = one two six ten red                  (w1 w2 w3 w4 w5)
//   peer c1 = one two dog cat pig.                 (w1 w2 w6 w7 w8)
//        c2 = one six pig hat red.                 (w1 w3 w8 w9 w5)
// LCS(r, c1) = one two; LCS(r, c2) = one six red; union = one two six red = 4 hits.
// ROUGE-L: R = 4/5 = 0.8, P = 4/10 = 0.4, F = 0.32 / 0.6 = 0.53333.
// ROUGE-1: one min(1,2)=1, two, six, red = 4 -> same R, P, F.
// ROUGE-2: ref bigrams one-two two-six six-ten ten-red (4); the peer is one stream of 10 tokens,
// so 9 bigrams (pig-one crosses the sentence boundary); hits: one-two = 1.
// R = 0.25, P = 1/9 = 0.11111, F = 0.25*0.11111 / (0.5*0.11111 + 0.5*0.25) = 0.15385.
TEST(ScoreRouge, SummaryLevelLcsIsTheUnionOverPeerSentences) {
  const RougeResult r =
      ScoreRouge("one two dog cat pig. one six pig hat red.", {"one two six ten red"});
  EXPECT_NEAR(r.rl.recall, 0.8, kTol);
  EXPECT_NEAR(r.rl.precision, 0.4, kTol);
  EXPECT_NEAR(r.rl.f, 0.53333, kTol);
  EXPECT_NEAR(r.r1.recall, 0.8, kTol);
  EXPECT_NEAR(r.r1.precision, 0.4, kTol);
  EXPECT_NEAR(r.r2.recall, 0.25, kTol);
  EXPECT_NEAR(r.r2.precision, 0.11111, kTol);
  EXPECT_NEAR(r.r2.f, 0.15385, kTol);
}

// ref  "the cat. the cat."  (two units, 4 tokens)   peer "the cat." (2 tokens)
// Both reference units mark "the cat" in their LCS, but the peer has only one "the" and one
// "cat": the first unit uses them up, the second scores nothing. Hits = 2.
// R = 2/4 = 0.5, P = 2/2 = 1, F = 0.5 / 0.75 = 0.66667. ROUGE-1 clips the same way.
TEST(ScoreRouge, LcsHitsAreClippedByUnigramCounts) {
  const RougeResult r = ScoreRouge("the cat.", {"the cat. the cat."});
  EXPECT_NEAR(r.rl.recall, 0.5, kTol);
  EXPECT_NEAR(r.rl.precision, 1.0, kTol);
  EXPECT_NEAR(r.rl.f, 0.66667, kTol);
  EXPECT_NEAR(r.r1.f, 0.66667, kTol);
}

// -f A sums over references: peer "the cat" vs refs "the cat" and "a dog".
// ROUGE-1 hits 2 + 0; model tokens 2 + 2 -> R = 0.5; peer tokens counted once per ref: 2 + 2 ->
// P = 0.5. (Averaging per-reference P would give the same here, but not R of 1 and 0 -> 0.5.)
TEST(ScoreRouge, ModelAverageSumsHitsAndCountsOverReferences) {
  const RougeResult r = ScoreRouge("the cat", {"the cat", "a dog"});
  EXPECT_NEAR(r.r1.recall, 0.5, kTol);
  EXPECT_NEAR(r.r1.precision, 0.5, kTol);
  EXPECT_NEAR(r.r1.f, 0.5, kTol);
  EXPECT_NEAR(r.r2.recall, 0.5, kTol);  // the-cat: 1 hit of 1 + 1 bigrams
}

// Unequal reference lengths show the difference from averaging per-reference scores:
// peer "the cat sat" vs refs "the cat" (2 tokens) and "a dog ran far off now" (6 tokens).
// hits 2 + 0 = 2 of 8 model tokens -> R = 0.25 (a per-reference mean would be 0.5).
// P = 2 / (3 + 3) = 0.33333. F = 0.25*0.33333 / (0.5*0.33333 + 0.5*0.25) = 0.28571.
TEST(ScoreRouge, ModelAverageWeighsReferencesByLength) {
  const RougeResult r = ScoreRouge("the cat sat", {"the cat", "a dog ran far off now"});
  EXPECT_NEAR(r.r1.recall, 0.25, kTol);
  EXPECT_NEAR(r.r1.precision, 0.33333, kTol);
  EXPECT_NEAR(r.r1.f, 0.28571, kTol);
}

// -l 3: the peer keeps "the cat sat", the reference keeps "the cat was"; the rest is ignored.
// hits the, cat = 2 -> R = P = F = 0.66667.
TEST(ScoreRouge, CutsPeerAndReferencesToTheWordBudget) {
  RougeOptions options;
  options.max_words = 3;
  const RougeResult r = ScoreRouge("The cat sat on the mat.", {"The cat was on the mat."}, options);
  EXPECT_NEAR(r.r1.recall, 0.66667, kTol);
  EXPECT_NEAR(r.r1.precision, 0.66667, kTol);
}

// ScoreRougeUnits cuts SPL lines the script's way: "a b" (2 words, running total 2 < 3) stays,
// "c d e" reaches the limit and keeps only "c". Peer "a b c" then matches all 3 reference tokens.
TEST(ScoreRougeUnits, AppliesTheWordLimitLineByLine) {
  RougeOptions options;
  options.max_words = 3;
  const RougeResult r = ScoreRougeUnits({"a b c"}, {{"a b", "c d e"}}, options);
  EXPECT_NEAR(r.r1.recall, 1.0, kTol);
  EXPECT_NEAR(r.r1.precision, 1.0, kTol);
}

TEST(ScoreRouge, StemmingMatchesInflectedForms) {
  // "boils" and "boiling" both stem to "boil"; "kettles" to "kettl" like "kettle".
  const RougeResult stemmed = ScoreRouge("kettles boiling", {"kettle boils"});
  EXPECT_NEAR(stemmed.r1.f, 1.0, kTol);
  RougeOptions raw;
  raw.stem = false;
  EXPECT_NEAR(ScoreRouge("kettles boiling", {"kettle boils"}, raw).r1.f, 0.0, kTol);
}

TEST(ScoreRouge, EmptyTextsScoreZero) {
  const RougeResult r = ScoreRouge("", {"the cat"});
  EXPECT_EQ(r.r1.recall, 0.0);
  EXPECT_EQ(r.r1.f, 0.0);
  EXPECT_EQ(r.rl.precision, 0.0);
  const RougeResult none = ScoreRouge("the cat", {});
  EXPECT_EQ(none.r1.f, 0.0);
}

}  // namespace
}  // namespace revsum
