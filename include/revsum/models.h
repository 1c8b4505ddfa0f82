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
#include <optional>
#include <string>
#include <string_view>

#include "revsum/error.h"

namespace revsum {

// A model folder or file is missing, damaged or tampered with: no models folder was found (the
// message lists every place that was tried and how to fix it), or a file does not match its
// manifest (VerifiedModelFile). what() names the file and how to fetch it again.
class ModelsError : public Error {
 public:
  using Error::Error;
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

// --- Reading data files: the one way every stage reads a whole file -----------------------------

// The whole contents of `path` as bytes, or nullopt when it cannot be opened or read (a folder,
// a missing file, an I/O error). Callers say what the file was for in their own error.
std::optional<std::string> ReadWholeFile(const std::filesystem::path& path);

// The sha256 of `bytes`: 32 raw bytes, or 64 lowercase hex digits. Throw ModelsError only if
// OpenSSL itself fails.
std::string Sha256Digest(std::string_view bytes);
std::string Sha256Hex(std::string_view bytes);

// The verified model-file loader: reads `path` whole and checks that its sha256 is `expected`
// (hex, as the manifest `manifest` gives it). Throws ModelsError, naming the file:
//   "model file PATH is missing" / "... cannot be read", or
//   "model file PATH is corrupt or was modified (N bytes, sha256 GOT, expected WANT from
//    MANIFEST)", each followed by "; " + `how_to_fix` when that is not empty.
// Thread-safe.
std::string ReadVerifiedModelFile(const std::filesystem::path& path, std::string_view expected,
                                  const std::filesystem::path& manifest,
                                  std::string_view how_to_fix);

}  // namespace revsum
