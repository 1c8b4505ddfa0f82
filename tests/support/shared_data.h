// Locating ../shared development data from tests.
//
// Suites that read ../shared run in CI and must fail there when the data is missing; on a developer
// machine without ../shared they are skipped with a message. REVSUM_SHARED overrides the location.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace revsum::testing {

inline std::filesystem::path SharedDir() {
  if (const char* env = std::getenv("REVSUM_SHARED"); env && *env) return env;
  return REVSUM_SHARED_DIR;
}

inline bool RunningInCi() {
  const char* ci = std::getenv("CI");
  return ci && *ci && std::string(ci) != "false" && std::string(ci) != "0";
}

}  // namespace revsum::testing

// Sets `var` to the path of `rel` under the shared folder, or fails (CI) / skips (elsewhere).
#define REVSUM_REQUIRE_SHARED(var, rel)                                     \
  const std::filesystem::path var = ::revsum::testing::SharedDir() / (rel); \
  if (!std::filesystem::exists(var)) {                                      \
    if (::revsum::testing::RunningInCi()) {                                 \
      FAIL() << "shared data missing in CI: " << var;                       \
    } else {                                                                \
      GTEST_SKIP() << "shared data not present: " << var;                   \
    }                                                                       \
  }
