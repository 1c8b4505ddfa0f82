// Specification of pre-tokenization: the hand-written matchers split text exactly as ICU's regex
// engine does with the (translated) js-tiktoken patterns, and invalid UTF-8 bytes stand alone.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../../src/tokens/pretokenizer.h"
#include "revsum/tokens.h"

namespace revsum::tokens_internal {
namespace {

using Pieces = std::vector<std::string_view>;

struct Pair {
  std::unique_ptr<Pretokenizer> fast, icu;
};

Pair Make(std::string_view pattern) {
  std::string error;
  Pair p{Pretokenizer::Create(pattern, &error, Pretokenizer::Engine::kFastest),
         Pretokenizer::Create(pattern, &error, Pretokenizer::Engine::kIcu)};
  EXPECT_TRUE(p.fast && p.icu) << error;
  return p;
}

Pieces Split(const Pretokenizer& p, std::string_view text) {
  Pieces pieces;
  p.Split(text, &pieces);
  return pieces;
}

void AppendUtf8(char32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

TEST(PretokenizerTest, SplitsO200kLikeTiktoken) {
  Pair p = Make(kO200kPattern);
  EXPECT_THAT(Split(*p.fast, "I'M here, they'LL   go!!\n\nOK"),
              ::testing::ElementsAre("I'M", " here", ",", " they'LL", "  ", " go", "!!\n\n", "OK"));
  EXPECT_THAT(Split(*p.fast, "HelloWorld 12345"),
              ::testing::ElementsAre("Hello", "World", " ", "123", "45"));
}

TEST(PretokenizerTest, SplitsCl100kLikeTiktoken) {
  Pair p = Make(kCl100kPattern);
  EXPECT_THAT(
      Split(*p.fast, "I'M here, they'LL   go!!\n\nOK"),
      ::testing::ElementsAre("I", "'M", " here", ",", " they", "'LL", "  ", " go", "!!\n\n", "OK"));
}

TEST(PretokenizerTest, InvalidBytesArePiecesOfTheirOwn) {
  for (std::string_view pattern : {kO200kPattern, kCl100kPattern}) {
    Pair p = Make(pattern);
    for (const Pretokenizer* engine : {p.fast.get(), p.icu.get()}) {
      EXPECT_THAT(Split(*engine, "ab\xFF\xC3 cd"),
                  ::testing::ElementsAre("ab", "\xFF", "\xC3", " cd"));
    }
  }
}

TEST(PretokenizerTest, FastMatcherAgreesWithIcuOnTheParityCorpus) {
  std::ifstream in(std::string(REVSUM_TEST_DATA) + "/tokens/parity.jsonl");
  std::string line, text, error;
  size_t texts = 0;
  Pair o200k = Make(kO200kPattern), cl100k = Make(kCl100kPattern);
  while (std::getline(in, line)) {
    size_t pos = line.find("\"text\":") + 7;
    ASSERT_TRUE(ParseJsonString(line, &pos, &text, &error)) << error;
    ASSERT_EQ(Split(*o200k.fast, text), Split(*o200k.icu, text)) << text;
    ASSERT_EQ(Split(*cl100k.fast, text), Split(*cl100k.icu, text)) << text;
    ++texts;
  }
  EXPECT_GE(texts, 2000u);
}

// Random strings over characters of every class the patterns distinguish: upper, lower, title,
// modifier and other letters, the three kinds of marks, digits and other numbers, JavaScript-only
// and Unicode-only white space, CR/LF, apostrophes and the letters of contractions, '/',
// punctuation, emoji and a ZWJ.
TEST(PretokenizerTest, FastMatcherAgreesWithIcuOnRandomStrings) {
  const char32_t alphabet[] = {
      'A',    'S',    'L',  'E',  'a',    's',    't',     'l',    'e',    'r',     'v',    'm',
      'd',    'D',    'R',  'V',  'M',    0x01C5, 0x02B0,  0x4E2D, 0x0627, 0x0301,  0x0903, 0x20DD,
      0x0939, 0x093F, '0',  '7',  0x0663, 0x00BD, 0x2167,  ' ',    ' ',    ' ',     '\t',   '\n',
      '\r',   0x0B,   0x0C, 0xA0, 0x3000, 0xFEFF, 0x0085,  0x2028, 0x200B, '\'',    '\'',   0x2019,
      '/',    '.',    '!',  ',',  '-',    '"',    0x1F600, 0x200D, 0xFE0F, 0x1F3FD, 0xFF0C, 0x3002};
  Pair o200k = Make(kO200kPattern), cl100k = Make(kCl100kPattern);
  uint64_t state = 0x9E3779B97F4A7C15ull;  // xorshift64, fixed seed
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    size_t length = 1 + n % 24;
    for (size_t i = 0; i < length; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      AppendUtf8(alphabet[state % std::size(alphabet)], &text);
    }
    ASSERT_EQ(Split(*o200k.fast, text), Split(*o200k.icu, text)) << "case " << n << ": " << text;
    ASSERT_EQ(Split(*cl100k.fast, text), Split(*cl100k.icu, text)) << "case " << n << ": " << text;
  }
}

}  // namespace
}  // namespace revsum::tokens_internal
