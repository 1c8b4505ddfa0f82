// The Porter stemmer: the paper's examples (full stems, all five steps applied), plus the places
// where ROUGE-1.5.5's perl port departs from the paper.

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "revsum/rouge.h"

namespace revsum {
namespace {

TEST(PorterStem, StemsThePaperExamples) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      // step 1a
      {"caresses", "caress"},
      {"ponies", "poni"},
      {"ties", "ti"},
      {"caress", "caress"},
      {"cats", "cat"},
      // step 1b
      {"feed", "feed"},
      {"agreed", "agre"},
      {"plastered", "plaster"},
      {"bled", "bled"},
      {"motoring", "motor"},
      {"sing", "sing"},
      {"conflated", "conflat"},
      {"troubled", "troubl"},
      {"sized", "size"},
      {"hopping", "hop"},
      {"tanned", "tan"},
      {"falling", "fall"},
      {"hissing", "hiss"},
      {"fizzed", "fizz"},
      {"failing", "fail"},
      {"filing", "file"},
      // step 1c
      {"happy", "happi"},
      {"sky", "sky"},
      // steps 2-4 (each example run through every step)
      {"relational", "relat"},
      {"conditional", "condit"},
      {"rational", "ration"},
      {"digitizer", "digit"},
      {"operator", "oper"},
      {"feudalism", "feudal"},
      {"hopefulness", "hope"},
      {"callousness", "callous"},
      {"goodness", "good"},
      {"allowance", "allow"},
      {"inference", "infer"},
      {"airliner", "airlin"},
      {"adjustable", "adjust"},
      {"defensible", "defens"},
      {"irritant", "irrit"},
      {"adoption", "adopt"},
      {"communism", "commun"},
      {"effective", "effect"},
      {"bowdlerize", "bowdler"},
      // step 5
      {"probate", "probat"},
      {"rate", "rate"},
      {"cease", "ceas"},
      {"controlling", "control"},
      {"roll", "roll"},
  };
  for (const auto& [word, stem] : cases) EXPECT_EQ(PorterStem(word), stem) << word;
}

TEST(PorterStem, LeavesShortWordsAlone) {
  EXPECT_EQ(PorterStem("is"), "is");
  EXPECT_EQ(PorterStem("a"), "a");
  EXPECT_EQ(PorterStem(""), "");
}

TEST(PorterStem, TreatsAnInitialYAsAConsonant) {
  EXPECT_EQ(PorterStem("yelling"), "yell");
  EXPECT_EQ(PorterStem("youth"), "youth");
  // A y after a consonant is a vowel, so the stem "syzyg" has one and step 1c turns y into i.
  EXPECT_EQ(PorterStem("syzygy"), "syzygi");
}

TEST(PorterStem, UsesThePerlPortsStep2Rules) {
  // "bli" -> "ble" (paper: "abli" -> "able"), then step 5 drops the e.
  EXPECT_EQ(PorterStem("possibly"), "possibl");
  // "logi" -> "log" (not in the 1980 paper).
  EXPECT_EQ(PorterStem("analogi"), "analog");
}

TEST(PorterStem, TriesMentAndEntAfterTheOtherStep4Suffixes) {
  // Paper: "ement" is the longest suffix, its stem "agre" has m = 1, so nothing is removed.
  // ROUGE-1.5.5 then tries "ment" (stem "agree", m = 1) and "ent" (stem "agreem", m = 2).
  EXPECT_EQ(PorterStem("agreement"), "agreem");
  EXPECT_EQ(PorterStem("replacement"), "replac");
  EXPECT_EQ(PorterStem("adjustment"), "adjust");
  EXPECT_EQ(PorterStem("dependent"), "depend");
}

}  // namespace
}  // namespace revsum
