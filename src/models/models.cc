#include "revsum/models.h"

#include <cstdlib>
#include <system_error>
#include <vector>

namespace revsum {
namespace {

namespace fs = std::filesystem;

// A folder counts as a models folder when it holds one of the manifests (the data files beside
// them may still be missing; the loaders then say which and how to fetch them).
bool HoldsManifests(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "use-lite.manifest", ec) ||
         fs::is_regular_file(dir / "tiktoken.manifest", ec);
}

// <folder of the running executable>/../share/revsum, or empty when /proc/self/exe is unreadable.
fs::path InstalledDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  return (exe.parent_path().parent_path() / "share" / "revsum").lexically_normal();
}

}  // namespace

fs::path ModelsDir() {
  if (const char* env = std::getenv("REVSUM_MODELS_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::vector<fs::path> tried;
  if (fs::path installed = InstalledDir(); !installed.empty()) {
    if (HoldsManifests(installed)) return installed;
    tried.push_back(installed);
  }
#ifdef REVSUM_MODELS_SOURCE_DIR
  const fs::path source = REVSUM_MODELS_SOURCE_DIR;
  if (HoldsManifests(source)) return source;
  tried.push_back(source);
#endif
  std::string message =
      "no revsum models folder found: REVSUM_MODELS_DIR is not set, and no use-lite.manifest or "
      "tiktoken.manifest in";
  for (size_t i = 0; i < tried.size(); ++i) message += (i ? ", " : " ") + tried[i].string();
  message +=
      "; install revsum (cmake --install, or the .deb) or set REVSUM_MODELS_DIR to a folder "
      "holding the manifests, use-lite/, tiktoken/ and seeds/";
  throw ModelsError(message);
}

std::string DefaultSeedsPath(std::string_view name) {
  fs::path dir;
  try {
    dir = ModelsDir();
  } catch (const ModelsError&) {
    dir = "<no models folder: set REVSUM_MODELS_DIR>";
  }
  return (dir / "seeds" / name).string();
}

}  // namespace revsum
