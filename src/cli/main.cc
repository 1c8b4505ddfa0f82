// revsum: extractive review summaries in SQLite. See README.md for the commands.
#include <algorithm>
#include <exception>
#include <iostream>

#include "command.h"
#include "revsum/escape.h"

namespace revsum::cli {
std::vector<CommandEntry>& CommandTable() {
  static std::vector<CommandEntry> table;
  return table;
}
}  // namespace revsum::cli

int main(int argc, char** argv) {
  using namespace revsum::cli;
  CLI::App app{"revsum: extractive, attributable summaries of customer reviews, kept in SQLite"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "revsum 0.1.0");

  auto& table = CommandTable();
  std::sort(table.begin(), table.end(),
            [](const CommandEntry& a, const CommandEntry& b) { return a.name < b.name; });
  Runner chosen;
  for (const CommandEntry& entry : table) {
    CLI::App* sub = app.add_subcommand(entry.name, entry.description);
    Runner run = entry.setup(*sub);
    sub->callback([&chosen, run] { chosen = run; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return chosen ? chosen() : kExitFailure;
  } catch (const std::exception& e) {
    // Messages may quote dump strings (product keys, paths).
    std::cerr << "revsum: error: " << revsum::TerminalSafe(e.what()) << "\n";
    return kExitFailure;
  }
}
