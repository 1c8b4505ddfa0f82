// End-to-end specification of `revsum tokens`.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/tokens.h"
#include "support/shared_data.h"

namespace {

struct Result {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

// Runs `<env> revsum <args>` with `input` on stdin.
Result RunRevsum(const std::string& args, const std::string& input, const std::string& env = "") {
  std::filesystem::path in = std::filesystem::path(::testing::TempDir()) / "revsum_tokens_in.txt";
  std::ofstream(in, std::ios::binary) << input;
  std::string command =
      env + " " + std::string(REVSUM_BINARY) + " " + args + " < '" + in.string() + "' 2>&1";
  Result result;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool VocabularyPresent() {
  return std::filesystem::exists(revsum::DefaultModelsDir() / "tiktoken" / "o200k_base.tiktoken");
}

#define REQUIRE_VOCABULARY()                                              \
  if (!VocabularyPresent() && !::revsum::testing::RunningInCi()) {        \
    GTEST_SKIP() << "vocabulary not fetched; run scripts/fetch-tiktoken"; \
  }

TEST(TokensCommandTest, PrintsOneCountPerLineAndIdsOnRequest) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --ids", "hello world\n\n质量很好\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "2\t[24912,2375]\n0\t[]\n2\t[63424,148483]\n");
}

TEST(TokensCommandTest, Cl100kCountsDiffer) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --tokenizer cl100k_base --ids", "hello world\r\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "2\t[15339,1917]\n");
}

TEST(TokensCommandTest, JsonLinesMayHoldNewlines) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --json --tokenizer cl100k_base --ids", "\"a\\nb\"\n\"\"\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "3\t[64,198,65]\n0\t[]\n");
}

TEST(TokensCommandTest, MalformedJsonLineFailsNamingTheLine) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --json", "\"ok\"\nnot json\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, ::testing::HasSubstr("<stdin>:2:"));
}

TEST(TokensCommandTest, MissingVocabularySaysHowToFetchIt) {
  Result missing = RunRevsum("tokens", "x\n", "REVSUM_MODELS_DIR=/nonexistent-revsum-models");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.out, ::testing::HasSubstr("scripts/fetch-tiktoken"));
}

}  // namespace
