// The revsum CLI is a table of subcommands. Each src/cli/<name>_main.cc registers one with
// REVSUM_COMMAND; main.cc builds the CLI11 app from the table. Commands are thin: they parse
// options, call the library, print, and return the process exit code.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace revsum::cli {

// Adds the command's options to `sub` and returns what to run when the command is chosen. The
// returned function runs after parsing, so it may read the variables the options were bound to.
using Runner = std::function<int()>;
using CommandSetup = Runner (*)(CLI::App& sub);

struct CommandEntry {
  std::string name;
  std::string description;
  CommandSetup setup;
};

std::vector<CommandEntry>& CommandTable();

struct CommandRegistrar {
  CommandRegistrar(std::string name, std::string description, CommandSetup setup) {
    CommandTable().push_back({std::move(name), std::move(description), setup});
  }
};

// Exit codes, documented in docs/usage.md ("Bad input and exit codes").
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the command could not do its job (bad arguments, I/O, DB)
inline constexpr int kExitRejects = 3;  // the job finished but some input records were rejected

}  // namespace revsum::cli

#define REVSUM_COMMAND(name, description, setup) \
  static ::revsum::cli::CommandRegistrar revsum_command_registrar_(name, description, setup)
