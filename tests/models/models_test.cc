// ModelsDir(): the one place that says where models and seeds are (include/revsum/models.h).
// The installed layout is tested with a copy of this test binary placed in <prefix>/bin beside a
// <prefix>/share/revsum folder, run as a child process.

#include "revsum/models.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace fs = std::filesystem;

namespace {

// Sets or unsets REVSUM_MODELS_DIR for one test and restores it afterwards.
class ScopedModelsEnv {
 public:
  explicit ScopedModelsEnv(const char* value) {
    if (const char* old = std::getenv("REVSUM_MODELS_DIR")) old_ = old;
    if (value) {
      ::setenv("REVSUM_MODELS_DIR", value, 1);
    } else {
      ::unsetenv("REVSUM_MODELS_DIR");
    }
  }
  ~ScopedModelsEnv() {
    if (old_) {
      ::setenv("REVSUM_MODELS_DIR", old_->c_str(), 1);
    } else {
      ::unsetenv("REVSUM_MODELS_DIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

fs::path TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / (name + "." + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs `command` through the shell and returns its standard output.
std::string Output(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ::pclose(pipe);
  return out;
}

}  // namespace

TEST(ModelsDir, EnvironmentVariableComesFirstEvenWhenTheFolderIsMissing) {
  ScopedModelsEnv env("/nonexistent/revsum-models");
  EXPECT_EQ(revsum::ModelsDir(), fs::path("/nonexistent/revsum-models"));
  EXPECT_EQ(revsum::DefaultSeedsPath("en.txt"), "/nonexistent/revsum-models/seeds/en.txt");
}

TEST(ModelsDir, EmptyEnvironmentVariableIsIgnored) {
  ScopedModelsEnv env("");
  EXPECT_NE(revsum::ModelsDir(), fs::path(""));
}

TEST(ModelsDir, BuildTreeBinaryFindsTheSourceModelsAndSeeds) {
  ScopedModelsEnv env(nullptr);
  const fs::path dir = revsum::ModelsDir();
  EXPECT_TRUE(fs::equivalent(dir, fs::path(REVSUM_SOURCE_DIR) / "models")) << dir;
  EXPECT_TRUE(fs::is_regular_file(revsum::DefaultSeedsPath("en.txt")));
  EXPECT_TRUE(fs::is_regular_file(revsum::DefaultSeedsPath("zh.txt")));
}

// Not a test of its own: the child process of the next tests prints what it resolves.
TEST(ModelsDir, ChildPrintsTheResolvedFolder) {
  if (std::getenv("REVSUM_MODELS_TEST_CHILD") == nullptr) GTEST_SKIP() << "child process only";
  std::printf("MODELS=%s\n", revsum::ModelsDir().c_str());
}

class InstalledLayout : public ::testing::Test {
 protected:
  void SetUp() override {
    prefix_ = TempDir("revsum_models_test");
    fs::create_directories(prefix_ / "bin");
    fs::copy_file(fs::read_symlink("/proc/self/exe"), prefix_ / "bin" / "models_test");
  }
  void TearDown() override { fs::remove_all(prefix_); }

  // What the copy in <prefix>/bin resolves, run from another folder, environment `env`.
  std::string ChildModelsDir(const std::string& env) {
    const std::string out = Output("cd / && env -u REVSUM_MODELS_DIR REVSUM_MODELS_TEST_CHILD=1 " +
                                   env + " " + (prefix_ / "bin" / "models_test").string() +
                                   " --gtest_filter=ModelsDir.ChildPrintsTheResolvedFolder");
    const size_t at = out.find("MODELS=");
    if (at == std::string::npos) return "(no answer: " + out + ")";
    return out.substr(at + 7, out.find('\n', at) - at - 7);
  }

  fs::path prefix_;
};

TEST_F(InstalledLayout, BinaryFindsShareRevsumBesideItsBinFolder) {
  fs::create_directories(prefix_ / "share" / "revsum");
  std::ofstream(prefix_ / "share" / "revsum" / "use-lite.manifest") << "x\n";
  EXPECT_EQ(ChildModelsDir(""), (prefix_ / "share" / "revsum").string());
}

TEST_F(InstalledLayout, EnvironmentVariableOverridesTheInstalledFolder) {
  fs::create_directories(prefix_ / "share" / "revsum");
  std::ofstream(prefix_ / "share" / "revsum" / "tiktoken.manifest") << "x\n";
  EXPECT_EQ(ChildModelsDir("REVSUM_MODELS_DIR=/elsewhere"), "/elsewhere");
}

TEST_F(InstalledLayout, ShareFolderWithoutManifestsIsPassedOver) {
  fs::create_directories(prefix_ / "share" / "revsum");  // empty: not a models folder
  const std::string dir = ChildModelsDir("");
  EXPECT_NE(dir, (prefix_ / "share" / "revsum").string());
  EXPECT_TRUE(fs::equivalent(dir, fs::path(REVSUM_SOURCE_DIR) / "models")) << dir;
}
