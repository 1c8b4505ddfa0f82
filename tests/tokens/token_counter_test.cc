// Specification of the tokens stage: tiktoken-compatible token ids and counts.
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include "revsum/tokens.h"
#include "support/shared_data.h"

namespace revsum {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// One line of tests/data/tokens/parity.jsonl (see scripts/make-token-fixtures/make.mjs).
struct ParityCase {
  std::string source;
  std::string text;
  std::vector<uint32_t> o200k, cl100k;                  // js-tiktoken encode(text, [], [])
  bool default_throws = false;                          // js-tiktoken encode(text) throws
  std::vector<uint32_t> o200k_special, cl100k_special;  // js-tiktoken encode(text, "all")
};

std::vector<uint32_t> ParseIds(const std::string& line, const std::string& key, size_t from) {
  std::vector<uint32_t> ids;
  size_t at = line.find("\"" + key + "\":[", from);
  if (at == std::string::npos) return ids;
  at += key.size() + 4;
  while (at < line.size() && line[at] != ']') {
    size_t used = 0;
    ids.push_back(static_cast<uint32_t>(std::stoul(line.substr(at, 12), &used)));
    at += used;
    if (line[at] == ',') ++at;
  }
  return ids;
}

std::vector<ParityCase> LoadParityCases() {
  std::ifstream in(std::string(REVSUM_TEST_DATA) + "/tokens/parity.jsonl");
  std::vector<ParityCase> cases;
  std::string line, error;
  while (std::getline(in, line)) {
    ParityCase c;
    size_t pos = line.find("\"source\":") + 9;
    EXPECT_TRUE(ParseJsonString(line, &pos, &c.source, &error)) << error;
    pos = line.find("\"text\":", pos) + 7;
    EXPECT_TRUE(ParseJsonString(line, &pos, &c.text, &error)) << error << " in " << c.source;
    c.o200k = ParseIds(line, "o200k_base", pos);
    c.cl100k = ParseIds(line, "cl100k_base", pos);
    c.default_throws = line.find("\"default_throws\":true", pos) != std::string::npos;
    c.o200k_special = ParseIds(line, "o200k_base_special", pos);
    c.cl100k_special = ParseIds(line, "cl100k_base_special", pos);
    cases.push_back(std::move(c));
  }
  return cases;
}

// The vocabularies are fetched by scripts/fetch-tiktoken (run by scripts/setup). In CI their
// absence is a failure; on a developer machine without them the tests are skipped.
const TokenCounter* Counter(Encoding encoding) {
  static std::unique_ptr<TokenCounter> counters[2];
  static std::string errors[2];
  int k = encoding == Encoding::kO200kBase ? 0 : 1;
  if (!counters[k] && errors[k].empty()) counters[k] = TokenCounter::Load(encoding, &errors[k]);
  if (!counters[k]) ADD_FAILURE() << errors[k];
  return counters[k].get();
}

#define REQUIRE_COUNTER(var, encoding)                                                   \
  const TokenCounter* var = nullptr;                                                     \
  {                                                                                      \
    std::string error_;                                                                  \
    if (!::revsum::testing::RunningInCi() &&                                             \
        !std::filesystem::exists(DefaultModelsDir() / "tiktoken" /                       \
                                 (std::string(EncodingName(encoding)) + ".tiktoken"))) { \
      GTEST_SKIP() << "vocabulary not fetched; run scripts/fetch-tiktoken";              \
    }                                                                                    \
    var = Counter(encoding);                                                             \
    ASSERT_NE(var, nullptr);                                                             \
  }

class ParityTest : public ::testing::TestWithParam<Encoding> {};

TEST_P(ParityTest, IdsMatchJsTiktokenOnEveryFixtureText) {
  REQUIRE_COUNTER(counter, GetParam());
  std::vector<ParityCase> cases = LoadParityCases();
  ASSERT_GE(cases.size(), 2000u);
  size_t mismatches = 0;
  for (const ParityCase& c : cases) {
    const auto& expected = GetParam() == Encoding::kO200kBase ? c.o200k : c.cl100k;
    std::vector<uint32_t> got = counter->Encode(c.text);
    if (got != expected) {
      ++mismatches;
      ADD_FAILURE() << c.source << ": ids differ from js-tiktoken; text: " << c.text << "\n  got "
                    << ::testing::PrintToString(got) << "\n  want "
                    << ::testing::PrintToString(expected);
    }
    EXPECT_EQ(counter->Count(c.text), expected.size()) << c.source;
  }
  EXPECT_EQ(mismatches, 0u) << "of " << cases.size() << " texts";
}

TEST_P(ParityTest, SpecialTokenTextsAreEncodedAsOrdinaryText) {
  REQUIRE_COUNTER(counter, GetParam());
  size_t with_special = 0;
  for (const ParityCase& c : LoadParityCases()) {
    if (!c.default_throws) continue;
    ++with_special;
    // The fixture pins js-tiktoken's behaviour: plain encode(text) throws on these texts,
    // encode(text, [], []) is what revsum's Encode returns, encode(text, "all") what
    // EncodeWithSpecialTokens returns.
    const auto& special = GetParam() == Encoding::kO200kBase ? c.o200k_special : c.cl100k_special;
    EXPECT_EQ(counter->EncodeWithSpecialTokens(c.text), special) << c.source << ": " << c.text;
  }
  EXPECT_GE(with_special, 10u);
}

INSTANTIATE_TEST_SUITE_P(BothEncodings, ParityTest,
                         ::testing::Values(Encoding::kO200kBase, Encoding::kCl100kBase),
                         [](const auto& info) { return std::string(EncodingName(info.param)); });

TEST(TokenCounterTest, EncodesKnownEnglishIds) {
  REQUIRE_COUNTER(o200k, Encoding::kO200kBase);
  REQUIRE_COUNTER(cl100k, Encoding::kCl100kBase);
  EXPECT_THAT(o200k->Encode("hello world"), ElementsAre(24912, 2375));
  EXPECT_THAT(cl100k->Encode("hello world"), ElementsAre(15339, 1917));
  EXPECT_EQ(o200k->vocab_size(), 199998u);
  EXPECT_EQ(cl100k->vocab_size(), 100256u);
}

TEST(TokenCounterTest, EmptyInputHasNoTokens) {
  REQUIRE_COUNTER(counter, Encoding::kO200kBase);
  EXPECT_TRUE(counter->Encode("").empty());
  EXPECT_EQ(counter->Count(""), 0u);
  EXPECT_TRUE(counter->EncodeWithSpecialTokens("").empty());
  std::string bytes = "stale";
  EXPECT_TRUE(counter->Decode({}, &bytes));
  EXPECT_EQ(bytes, "");
}

TEST(TokenCounterTest, EndOfTextIsOrdinaryTextUnlessSpecialTokensAreAllowed) {
  REQUIRE_COUNTER(counter, Encoding::kO200kBase);
  std::vector<uint32_t> ordinary = counter->Encode("Great kettle.<|endoftext|>");
  EXPECT_GT(ordinary.size(), 3u);
  EXPECT_THAT(ordinary, ::testing::Not(::testing::Contains(199999u)));
  std::vector<uint32_t> special = counter->EncodeWithSpecialTokens("Great kettle.<|endoftext|>");
  ASSERT_FALSE(special.empty());
  EXPECT_EQ(special.back(), 199999u);
  std::string bytes;
  ASSERT_TRUE(counter->Decode(special, &bytes));
  EXPECT_EQ(bytes, "Great kettle.<|endoftext|>");
}

// Ill-formed UTF-8 of every kind: stray continuation bytes, truncated sequences, overlong forms,
// encoded surrogates, code points above U+10FFFF, bytes that never occur in UTF-8.
const char* const kInvalidUtf8[] = {
    "\x80",
    "abc\xBF",
    "\xC3",
    "caf\xC3",
    "\xC0\xAF",
    "\xE0\x80\xAF",
    "\xED\xA0\x80",
    "\xF4\x90\x80\x80",
    "\xFF\xFE",
    "\xF0\x9F\x98",
    "good\xE2\x80product \xE5\xA5\xBD\xE8",
    "  \x85  \xA0 x",
    "'\xC3S",
};

TEST(TokenCounterTest, InvalidUtf8DoesNotCrashAndRoundTrips) {
  for (Encoding encoding : {Encoding::kO200kBase, Encoding::kCl100kBase}) {
    REQUIRE_COUNTER(counter, encoding);
    for (const char* text : kInvalidUtf8) {
      std::vector<uint32_t> ids = counter->Encode(text);
      EXPECT_FALSE(ids.empty()) << text;
      std::string bytes;
      ASSERT_TRUE(counter->Decode(ids, &bytes));
      EXPECT_EQ(bytes, text);
    }
  }
}

TEST(TokenCounterTest, RandomBytesRoundTrip) {
  REQUIRE_COUNTER(counter, Encoding::kO200kBase);
  uint64_t state = 88172645463325252ull;  // xorshift64, fixed seed: the same bytes every run
  for (int n = 0; n < 500; ++n) {
    std::string text;
    size_t length = n % 97;
    for (size_t i = 0; i < length; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      // Mostly ASCII and UTF-8 lead/continuation bytes, so valid and invalid runs interleave.
      uint8_t b = static_cast<uint8_t>(state % 4 == 0 ? 0x20 + state % 90 : state >> 24);
      text.push_back(static_cast<char>(b));
    }
    std::string bytes;
    ASSERT_TRUE(counter->Decode(counter->Encode(text), &bytes));
    ASSERT_EQ(bytes, text) << "case " << n;
  }
}

TEST(TokenCounterTest, EachInvalidByteIsAPieceOfItsOwn) {
  REQUIRE_COUNTER(counter, Encoding::kCl100kBase);
  std::vector<uint32_t> expected = counter->Encode("good ");
  std::vector<uint32_t> ff = counter->Encode("\xFF");
  ASSERT_EQ(ff.size(), 1u);
  expected.push_back(ff[0]);
  for (uint32_t id : counter->Encode("value")) expected.push_back(id);
  EXPECT_EQ(counter->Encode("good \xFFvalue"), expected);
}

TEST(TokenCounterTest, DecodeRejectsUnknownIds) {
  REQUIRE_COUNTER(counter, Encoding::kCl100kBase);
  std::string bytes;
  const uint32_t unknown[] = {15339, 100256};  // 100256 is neither a rank nor a special token
  EXPECT_FALSE(counter->Decode(unknown, &bytes));
}

TEST(TokenCounterTest, ConstUseFromManyThreadsGivesTheSameIds) {
  REQUIRE_COUNTER(counter, Encoding::kO200kBase);
  std::vector<ParityCase> cases = LoadParityCases();
  std::vector<std::thread> threads;
  std::vector<size_t> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < cases.size(); i += 2) {
        if (counter->Encode(cases[i].text) != cases[i].o200k) ++wrong[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_THAT(wrong, ElementsAre(0, 0, 0, 0));
}

TEST(TokenCounterLoadTest, MissingVocabularySaysHowToFetchIt) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "revsum-no-models";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string error;
  EXPECT_EQ(TokenCounter::Load(Encoding::kO200kBase, dir, &error), nullptr);
  EXPECT_THAT(error, HasSubstr((dir / "tiktoken" / "o200k_base.tiktoken").string()));
  EXPECT_THAT(error, HasSubstr("scripts/fetch-tiktoken"));
  EXPECT_THAT(error, HasSubstr("scripts/setup"));
}

TEST(TokenCounterLoadTest, CorruptVocabularyFailsTheSha256Check) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "revsum-bad-models";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "tiktoken");
  std::ofstream(dir / "tiktoken" / "cl100k_base.tiktoken") << "#revsum-tiktoken 1\nIQ== 0\n";
  std::string error;
  EXPECT_EQ(TokenCounter::Load(Encoding::kCl100kBase, dir, &error), nullptr);
  EXPECT_THAT(error, HasSubstr("sha256"));
  EXPECT_THAT(error, HasSubstr("cl100k_base.tiktoken"));
}

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += "0123456789abcdef"[digest[i] >> 4];
    hex += "0123456789abcdef"[digest[i] & 15];
  }
  return hex;
}

// Writes a models folder holding a cl100k_base file with `pattern`, the 256 single bytes and
// the merges "ab", "abc" (base64 YWI=, YWJj), and a manifest with its sha256.
std::filesystem::path WriteTinyModels(const std::string& name, std::string_view pattern) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "tiktoken");
  static constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string file = "#revsum-tiktoken 1\n#encoding cl100k_base\n#source js-tiktoken test\n";
  file += "#pattern " + std::string(pattern) + "\n#special <|endoftext|> 300\n";
  for (int b = 0; b < 256; ++b) {
    file +=
        std::string{kB64[b >> 2], kB64[(b & 3) << 4], '=', '='} + " " + std::to_string(b) + "\n";
  }
  file += "YWI= 256\nYWJj 257\n";
  std::ofstream(dir / "tiktoken" / "cl100k_base.tiktoken", std::ios::binary) << file;
  std::ofstream(dir / "tiktoken.manifest")
      << "name=js-tiktoken\nfile.cl100k_base.tiktoken=" << Sha256Hex(file) << "\n";
  return dir;
}

TEST(TokenCounterLoadTest, LoadsAVocabularyFromTheGivenModelsDir) {
  const std::string pattern =
      R"(('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
  std::string error;
  auto counter =
      TokenCounter::Load(Encoding::kCl100kBase, WriteTinyModels("revsum-tiny", pattern), &error);
  ASSERT_NE(counter, nullptr) << error;
  EXPECT_EQ(counter->vocab_size(), 258u);
  EXPECT_EQ(counter->source_version(), "test");
  // "abcab" is one piece: a|b|c|a|b -> ab|c|ab -> abc|ab.
  EXPECT_THAT(counter->Encode("abcab"), ElementsAre(257, 256));
  EXPECT_THAT(counter->Encode("ab cab"), ElementsAre(256, ' ', 'c', 256));
  EXPECT_THAT(counter->EncodeWithSpecialTokens("ab<|endoftext|>"), ElementsAre(256, 300));
}

TEST(TokenCounterLoadTest, VocabularyWithAnotherPatternIsRefused) {
  std::string error;
  auto counter = TokenCounter::Load(Encoding::kCl100kBase,
                                    WriteTinyModels("revsum-other-pattern", R"(\w+|\s+)"), &error);
  EXPECT_EQ(counter, nullptr);
  EXPECT_THAT(error, HasSubstr("cl100k_base.tiktoken:4: the pre-tokenization pattern differs"));
}

TEST(EncodingTest, NamesRoundTrip) {
  Encoding e;
  ASSERT_TRUE(ParseEncoding("o200k_base", &e));
  EXPECT_EQ(e, Encoding::kO200kBase);
  ASSERT_TRUE(ParseEncoding("cl100k_base", &e));
  EXPECT_EQ(EncodingName(e), "cl100k_base");
  EXPECT_FALSE(ParseEncoding("gpt2", &e));
}

TEST(JsonStringTest, DecodesEscapesAndSurrogatePairs) {
  std::string out, error;
  ASSERT_TRUE(
      DecodeJsonString(R"( "line\nnext \"q\" \\ \/ \t \u00e9 \ud83d\ude00 好" )", &out, &error))
      << error;
  EXPECT_EQ(out, "line\nnext \"q\" \\ / \t é 😀 好");
}

TEST(JsonStringTest, RejectsMalformedInputWithItsOffset) {
  std::string out, error;
  EXPECT_FALSE(DecodeJsonString(R"("abc)", &out, &error));
  EXPECT_THAT(error, HasSubstr("unterminated"));
  EXPECT_FALSE(DecodeJsonString(R"("\ud83d x")", &out, &error));
  EXPECT_THAT(error, HasSubstr("unpaired high surrogate at byte 1"));
  EXPECT_FALSE(DecodeJsonString(R"("a" b)", &out, &error));
  EXPECT_FALSE(DecodeJsonString("plain text", &out, &error));
  EXPECT_FALSE(DecodeJsonString(R"("\q")", &out, &error));
}

}  // namespace
}  // namespace revsum
