// End-to-end specification of `revsum tokens`.
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/tokens.h"
#include "support/run_revsum.h"
#include "support/shared_data.h"

namespace {

using revsum::testing::RunRevsum;
using Result = revsum::testing::CommandResult;

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
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2\t[24912,2375]\n0\t[]\n2\t[63424,148483]\n");
}

TEST(TokensCommandTest, Cl100kCountsDiffer) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --tokenizer cl100k_base --ids", "hello world\r\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2\t[15339,1917]\n");
}

TEST(TokensCommandTest, JsonLinesMayHoldNewlines) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --json-input --tokenizer cl100k_base --ids", "\"a\\nb\"\n\"\"\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "3\t[64,198,65]\n0\t[]\n");
}

TEST(TokensCommandTest, MalformedJsonLineFailsNamingTheLine) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --json-input", "\"ok\"\nnot json\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, ::testing::HasSubstr("<stdin>:2:"));
}

TEST(TokensCommandTest, TheOldJsonFlagStillReadsJsonInputAndSaysItsName) {
  REQUIRE_VOCABULARY();
  Result r = RunRevsum("tokens --json --tokenizer cl100k_base", "\"a\\nb\"\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "3\n");
  EXPECT_THAT(r.err, ::testing::HasSubstr("write --json-input"));
}

TEST(TokensCommandTest, MissingVocabularySaysHowToFetchIt) {
  Result missing = RunRevsum("tokens", "x\n", "REVSUM_MODELS_DIR=/nonexistent-revsum-models");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, ::testing::HasSubstr("scripts/fetch-tiktoken"));
}

}  // namespace
