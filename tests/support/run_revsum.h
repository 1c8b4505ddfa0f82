// Running the real revsum binary from end-to-end tests.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace revsum::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs the shell command line `command` with `input` on stdin; stdout and stderr are captured
// separately.
inline CommandResult RunCommand(const std::string& command_line, const std::string& input = "") {
  namespace fs = std::filesystem;
  static int counter = 0;
  fs::path base = fs::path(::testing::TempDir()) /
                  ("revsum_cli_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  std::ofstream(base.string() + ".in", std::ios::binary) << input;
  std::string command =
      command_line + " < '" + base.string() + ".in' 2> '" + base.string() + ".err'";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(base.string() + ".err", std::ios::binary);
  result.err.assign(std::istreambuf_iterator<char>(err), {});
  fs::remove(base.string() + ".in");
  fs::remove(base.string() + ".err");
  return result;
}

// Runs `revsum <args>` (the build's binary) with `input` on stdin and `env` before it.
inline CommandResult RunRevsum(const std::string& args, const std::string& input = "",
                               const std::string& env = "") {
  return RunCommand(env + " " + REVSUM_BINARY + " " + args, input);
}

}  // namespace revsum::testing
