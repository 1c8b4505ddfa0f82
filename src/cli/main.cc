// revsum: extractive review summaries in SQLite. Commands: README.md and docs/usage.md.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "revsum/escape.h"

namespace revsum::cli {
std::vector<CommandEntry>& CommandTable() {
  static std::vector<CommandEntry> table;
  return table;
}

namespace {

// std::cout's buffer for the whole run: writes to descriptor 1 and remembers the first write error.
// The standard stream only keeps a fail bit, and by the time it is checked errno belongs to some
// later call; writing to std::cerr (tied to std::cout) may have flushed, and failed, long before.
class StdoutBuffer : public std::streambuf {
 public:
  StdoutBuffer() { Reset(); }
  // errno of the first failed write, or 0.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return Drain() ? 0 : -1; }

 private:
  void Reset() { setp(buffer_, buffer_ + sizeof buffer_); }
  // Writes the buffered bytes. After a failure everything further is discarded.
  bool Drain() {
    const char* p = pbase();
    size_t left = static_cast<size_t>(pptr() - pbase());
    Reset();
    while (left > 0 && !error_) {
      const ssize_t n = ::write(STDOUT_FILENO, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        break;
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    return !error_;
  }

  char buffer_[1 << 16];
  int error_ = 0;
};

// Flushes standard output and closes its descriptor. Returns false with the system's message in
// *error when any write to it failed (a full disk, a closed descriptor, an I/O error on close), so
// that `revsum export > file` never exits 0 with a truncated file.
bool FinishStdout(StdoutBuffer& buffer, std::string* error) {
  std::cout.flush();
  int err = buffer.error();
  if (!err && std::cout.fail()) err = EIO;
  errno = 0;
  if (std::fflush(stdout) != 0 && !err) err = errno ? errno : EIO;  // any stdio writer
  if (std::ferror(stdout) && !err) err = EIO;
  // Some file systems report a failed write only on close. Nothing is written to stdout after
  // this point; a descriptor that was never open (EBADF) is an error only if it was written to,
  // which the checks above caught.
  if (::close(STDOUT_FILENO) != 0 && errno != EBADF && !err) err = errno;
  if (!err) return true;
  *error = std::strerror(err);
  return false;
}

// The message for a command-line error: the unknown command or option when there is one (CLI11
// reports a missing required option first, which hides a misspelt one), else CLI11's own.
std::string ParseErrorMessage(CLI::App& app, const CLI::ParseError& e,
                              const std::vector<CommandEntry>& table, std::string* usage) {
  std::string commands;
  for (const CommandEntry& entry : table) commands += (commands.empty() ? "" : ", ") + entry.name;
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty()) {
    *usage = "commands: " + commands + "; run 'revsum COMMAND --help' for a command's options";
    const std::vector<std::string> extras = app.remaining();
    if (extras.empty()) return "a command is required";
    if (extras.front().size() > 1 && extras.front()[0] == '-') {
      return "unknown option '" + extras.front() + "'";
    }
    return "unknown command '" + extras.front() + "'";
  }
  CLI::App* sub = chosen.front();
  const std::string name = sub->get_name();
  *usage = "run 'revsum " + name + " --help' for its options";
  std::vector<std::string> extras = sub->remaining();
  const std::vector<std::string> top = app.remaining();
  extras.insert(extras.end(), top.begin(), top.end());
  for (const std::string& arg : extras) {
    if (arg.size() > 1 && arg[0] == '-') {
      // A search query may start with '-' (-word means NOT word): it goes after "--".
      const std::string hint = name == "search" && arg.rfind("--", 0) != 0
                                   ? "; a query that starts with '-' goes after --: revsum search "
                                     "-- '" +
                                         arg + "'"
                                   : "";
      return name + ": unknown option '" + arg + "'" + hint;
    }
  }
  if (!extras.empty()) return name + ": unexpected argument '" + extras.front() + "'";
  return name + ": " + e.what();
}

// glibc gives every thread its own malloc arena (up to 8 per core), and each keeps the memory
// its thread freed: with --threads 64 on two cores that alone was ~0.3 GB of peak RSS (0.87 GB
// instead of 0.61 GB on 3,000 hotel reviews). Two arenas per hardware thread keep the allocator
// uncontended on any machine while the thread count no longer sets the memory.
void LimitMallocArenas() {
#if defined(__GLIBC__)
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  mallopt(M_ARENA_MAX, static_cast<int>(std::min(2 * cores, 1024u)));
#endif
}

}  // namespace
}  // namespace revsum::cli

int main(int argc, char** argv) {
  using namespace revsum::cli;
  LimitMallocArenas();
  static StdoutBuffer stdout_buffer;
  std::streambuf* const standard_buffer = std::cout.rdbuf(&stdout_buffer);
  if (isatty(STDOUT_FILENO)) std::cout.setf(std::ios::unitbuf);  // interactive: no delay
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
  int code = kExitFailure;
  try {
    app.parse(argc, argv);
    code = chosen ? chosen() : kExitFailure;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      code = app.exit(e);
    } else {
      // Every command-line error is exit code 1 (docs/usage.md, "exit codes"), whatever CLI11's
      // kind.
      std::string usage;
      const std::string message = ParseErrorMessage(app, e, table, &usage);
      std::cerr << "revsum: error: " << revsum::TerminalSafe(message) << "\n" << usage << "\n";
      code = kExitFailure;
    }
  } catch (const std::exception& e) {
    // Messages may quote dump strings (product keys, paths).
    std::cerr << "revsum: error: " << revsum::TerminalSafe(e.what()) << "\n";
    code = kExitFailure;
  }
  std::string error;
  const bool written = FinishStdout(stdout_buffer, &error);
  std::cout.rdbuf(standard_buffer);
  if (!written) {
    std::cerr << "revsum: error: writing standard output: " << error << "\n";
    return kExitFailure;
  }
  return code;
}
