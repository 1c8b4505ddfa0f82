// WordSegmenter::Words and CountWords take hand-written scanners for pure ASCII text; these tests
// hold them to ICU's word breaks (WordSegmenter::IcuWords) and to the count through ICU's character
// properties (UnicodeCountWords) on real review text and on many generated strings.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/text.h"

namespace revsum {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string Printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// Counts mismatches, printing the first few.
class Differential {
 public:
  void Check(const std::string& text) {
    ++checked_;
    const std::vector<std::string> fast = words_.Words(text);
    const std::vector<std::string> icu = words_.IcuWords(text);
    const size_t count = words_.CountWords(text);
    const size_t unicode_count = words_.UnicodeCountWords(text);
    if (count != unicode_count && ++mismatches_ <= 10) {
      ADD_FAILURE() << "\"" << Printable(text) << "\": ASCII count " << count << ", ICU count "
                    << unicode_count;
    }
    if (fast == icu) return;
    if (++mismatches_ <= 10) {
      ADD_FAILURE() << "\"" << Printable(text) << "\": scanner " << ::testing::PrintToString(fast)
                    << ", ICU " << ::testing::PrintToString(icu);
    }
  }
  size_t checked() const { return checked_; }
  size_t mismatches() const { return mismatches_; }

 private:
  WordSegmenter words_;
  size_t checked_ = 0;
  size_t mismatches_ = 0;
};

TEST(AsciiWords, KnownCases) {
  WordSegmenter words;
  // ':' is not MidLetter in ICU's root rules; a lone '_' is not a word, "__" is.
  EXPECT_THAT(words.Words("a'b:c.d"), ElementsAre("a'b", "c.d"));
  EXPECT_THAT(words.Words("_ __ x_.y a_ _1"), ElementsAre("__", "x_", "y", "a_", "_1"));
  EXPECT_THAT(words.Words("1,000.50; 1.a a.1 e.g. U.S.A. don't"),
              ElementsAre("1,000.50", "1", "a", "a", "1", "e.g", "u.s.a", "don't"));
  EXPECT_THAT(words.Words("a..b 1;;2 'quoted'"), ElementsAre("a", "b", "1", "2", "quoted"));
  EXPECT_THAT(words.Words(" \t\r\n...!!!"), IsEmpty());
  // '@' is a letter in ICU's root rules.
  EXPECT_THAT(words.Words("Mail someone@Example.org @ 1@2"),
              ElementsAre("mail", "someone@example.org", "@", "1@2"));
}

TEST(AsciiWords, ScannerMatchesIcuOnEveryLineAndSentenceOfTheSamplesAndTestData) {
  Differential diff;
  SentenceSegmenter sentences;
  size_t files = 0;
  for (const char* root : {REVSUM_SAMPLES, REVSUM_TEST_DATA}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file()) continue;
      ++files;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream all;
      all << in.rdbuf();
      std::string line;
      for (char c : all.str() + "\n") {
        if (c != '\n' && c != '\r') {
          line += c;
          continue;
        }
        diff.Check(line);
        for (const Sentence& s : sentences.Split(line)) diff.Check(s.text);
        line.clear();
      }
    }
  }
  EXPECT_GE(files, 10u);
  EXPECT_GE(diff.checked(), 5000u);
  EXPECT_EQ(diff.mismatches(), 0u) << "of " << diff.checked();
}

TEST(AsciiWords, ScannerMatchesIcuOnEveryShortString) {
  Differential diff;
  // Every string of one or two ASCII characters.
  for (int a = 0; a < 128; ++a) {
    diff.Check(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 128; ++b) diff.Check({static_cast<char>(a), static_cast<char>(b)});
  }
  // Every string of three and four characters over one or two members of each class.
  const std::string alphabet3 = "aZ09_.',;:-\"! \t\n\r\x01\x7f@/";
  for (char a : alphabet3) {
    for (char b : alphabet3) {
      for (char c : alphabet3) diff.Check({a, b, c});
    }
  }
  const std::string alphabet4 = "aB7_@.',;: \n";
  for (char a : alphabet4) {
    for (char b : alphabet4) {
      for (char c : alphabet4) {
        for (char d : alphabet4) diff.Check({a, b, c, d});
      }
    }
  }
  EXPECT_EQ(diff.mismatches(), 0u) << "of " << diff.checked();
}

TEST(AsciiWords, ScannerMatchesIcuOnRandomTrickyStrings) {
  Differential diff;
  std::mt19937_64 rng(20261203);  // fixed: the same strings on every run
  auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  // 200,000 strings of characters drawn from an alphabet heavy in the characters that join or
  // break words: letters, '@', digits, ". ' : , ; _ -", spaces, tabs, newlines, quotes, controls.
  const std::string tricky =
      "abcXYZ0189_____....'''''::,,,;;;---    \t\t\n\n\r\"\"!?$%()/@#&*+=<>[]{}|\\^`~\x01\x1f\x7f";
  for (int k = 0; k < 200000; ++k) {
    std::string s(pick(24), ' ');
    for (char& c : s) c = tricky[pick(tricky.size())];
    diff.Check(s);
  }
  // 100,000 strings of word-like pieces, so joins across several pieces are common.
  const std::vector<std::string> pieces = {
      "a",   "Ab",  "xyz", "1",  "23", "4.5", "6,7", "e.g", "U.S", "don't", "_",  "__",  ".",
      "'",   ",",   ";",   ":",  "-",  " ",   "  ",  "\t",  "\n",  "\r",    "\"", "a_b", "@",
      "a@b", "1_2", "x.",  ".y", "3.", ".4",  "'s",  "O'",  "a:b", "9;",    "!",  "..."};
  for (int k = 0; k < 100000; ++k) {
    std::string s;
    for (size_t m = pick(10); m > 0; --m) s += pieces[pick(pieces.size())];
    diff.Check(s);
  }
  EXPECT_EQ(diff.checked(), 300000u);
  EXPECT_EQ(diff.mismatches(), 0u) << "of " << diff.checked();
}

}  // namespace
}  // namespace revsum
