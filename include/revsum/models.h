// Where revsum finds its data files: the USE-lite model, the tiktoken tables and the seed
// sentences. One resolver, used by every stage that reads such a file, so that a binary works the
// same from the build tree, from an installed prefix, and from a package.
//
// Layout of a models folder <models>:
//   <models>/use-lite.manifest, <models>/use-lite/   (scripts/fetch-use-lite)
//   <models>/tiktoken.manifest, <models>/tiktoken/   (scripts/fetch-tiktoken)
//   <models>/seeds/en.txt, <models>/seeds/zh.txt     (committed)
// `cmake --install` copies all of it to <prefix>/share/revsum/.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace revsum {

// No models folder was found; the message lists every place that was tried and how to fix it.
class ModelsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The models folder, the first of:
//   1. $REVSUM_MODELS_DIR when set and non-empty (returned as is, even if it does not exist, so
//      that the loaders report the missing file by its full path);
//   2. <folder of the running executable>/../share/revsum, when it holds use-lite.manifest or
//      tiktoken.manifest (the installed layout: <prefix>/bin/revsum + <prefix>/share/revsum);
//   3. the source tree's models/ folder, when it holds one of those manifests (a binary run from
//      its build tree; the only place the source path is known, fixed when the library is built).
// Throws ModelsError naming what it looked for when none applies. Thread-safe; reads the
// environment and the file system on every call (cheap: a few stat calls).
std::filesystem::path ModelsDir();

// ModelsDir() / "seeds" / name, e.g. DefaultSeedsPath("en.txt"). Never throws: when no models
// folder is found it returns a path that names the problem, "<no models folder: set
// REVSUM_MODELS_DIR>/seeds/<name>", so that whoever opens it fails with a clear message, and so
// that options structs can take it as a default without throwing on construction.
std::string DefaultSeedsPath(std::string_view name);

}  // namespace revsum
