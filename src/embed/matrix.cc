// ZeroMatrix: a zero matrix whose memory may come in huge pages (see include/revsum/embed.h).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "revsum/embed.h"

namespace revsum {

Matrix ZeroMatrix(Eigen::Index rows, Eigen::Index cols) {
  Matrix out(rows, cols);
#ifdef MADV_HUGEPAGE
  constexpr size_t kAdviseFrom = size_t{4} << 20;  // two huge pages of 2 MiB
  const size_t bytes = static_cast<size_t>(out.size()) * sizeof(float);
  if (bytes >= kAdviseFrom) {
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<uintptr_t>(out.data());
    const uintptr_t first = (begin + page - 1) & ~(page - 1);
    const uintptr_t last = (begin + bytes) & ~(page - 1);
    // Advice: where the kernel does not take it (no transparent huge pages), nothing changes.
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
  out.setZero();
  return out;
}

}  // namespace revsum
