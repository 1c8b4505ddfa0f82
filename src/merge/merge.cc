#include "revsum/merge.h"

#include <sys/stat.h>

#include <memory>
#include <string>

namespace revsum {

namespace {

std::unique_ptr<ReviewStore> OpenInput(const std::string& input) {
  StoreOptions options;
  options.read_only = true;
  try {
    return ReviewStore::Open(input, options);
  } catch (const StoreError& e) {
    throw StoreError("merge: cannot merge '" + input + "': " + e.what());
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace

void CheckMergeInput(const std::string& input) { OpenInput(input); }

MergeCounts MergeStore(ReviewStore& out, const std::string& input) {
  if (SameFile(out.path(), input)) {
    throw StoreError("merge: '" + input + "' is the output store itself; give another input");
  }
  std::unique_ptr<ReviewStore> in = OpenInput(input);
  return MergeStores(out, *in, input);
}

}  // namespace revsum
