// Run-time choice of the USE-lite matrix product variant (use_lite_matmul.h). Compiled with the
// build's own flags, so it runs on every CPU the build targets.

#include "use_lite_matmul.h"

#include <cstdlib>
#include <cstring>

namespace revsum::use_lite {
namespace {

struct Variant {
  const char* name;
  MatMulFn fn;
};

bool CpuRuns(const char* name) {
  if (std::strcmp(name, "avx512") == 0) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("fma");
  }
  if (std::strcmp(name, "avx2") == 0) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }
  return true;
}

Variant Choose() {
  __builtin_cpu_init();
  const Variant variants[] = {
      {"avx512", avx512::MatMul}, {"avx2", avx2::MatMul}, {"base", base::MatMul}};
  const bool compiled[] = {avx512::Compiled(), avx2::Compiled(), base::Compiled()};
  const char* forced = std::getenv("REVSUM_USE_LITE_ISA");
  bool reached = forced == nullptr || *forced == '\0';
  for (size_t i = 0; i < 3; ++i) {
    if (!reached && std::strcmp(forced, variants[i].name) == 0) reached = true;
    if (reached && compiled[i] && CpuRuns(variants[i].name)) return variants[i];
  }
  return variants[2];
}

const Variant& Selected() {
  static const Variant chosen = Choose();  // thread-safe initialisation, once per process
  return chosen;
}

}  // namespace

MatMulFn SelectedMatMul() { return Selected().fn; }
const char* SelectedMatMulName() { return Selected().name; }

}  // namespace revsum::use_lite
