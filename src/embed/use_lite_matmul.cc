// Run-time choice of the USE-lite matrix product variant (use_lite_matmul.h). Compiled with the
// build's own flags, so it runs on every CPU the build targets.

#include "use_lite_matmul.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace revsum::use_lite {
namespace {

struct Variant {
  const char* name;
  MatMulFn fn;
  Int8MatMulFn int8;
};

bool CpuRuns(const char* name) {
  if (std::strcmp(name, "avx512vnni") == 0) {
    return CpuRuns("avx512") && __builtin_cpu_supports("avx512vnni");
  }
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
  const Variant variants[] = {{"avx512vnni", avx512vnni::MatMul, avx512vnni::MatMulInt8},
                              {"avx512", avx512::MatMul, avx512::MatMulInt8},
                              {"avx2", avx2::MatMul, avx2::MatMulInt8},
                              {"base", base::MatMul, base::MatMulInt8}};
  const bool compiled[] = {avx512vnni::Compiled(), avx512::Compiled(), avx2::Compiled(),
                           base::Compiled()};
  const char* forced = std::getenv("REVSUM_USE_LITE_ISA");
  bool reached = forced == nullptr || *forced == '\0';
  for (size_t i = 0; i < 4; ++i) {
    if (!reached && std::strcmp(forced, variants[i].name) == 0) reached = true;
    if (reached && compiled[i] && CpuRuns(variants[i].name)) return variants[i];
  }
  return variants[3];
}

const Variant& Selected() {
  static const Variant chosen = Choose();  // thread-safe initialisation, once per process
  return chosen;
}

}  // namespace

Int8Matrix QuantizeColumns(const float* b, int64_t ldb, int64_t depth, int64_t cols) {
  Int8Matrix m;
  m.depth = depth;
  m.depth4 = (depth + 3) / 4 * 4;
  m.cols = cols;
  m.packed.assign(m.depth4 * cols, 0);
  m.scale.assign(cols, 0.0f);
  m.col_sum.assign(cols, 0);
  for (int64_t j = 0; j < cols; ++j) {
    float maxabs = 0.0f;
    for (int64_t k = 0; k < depth; ++k) maxabs = std::max(maxabs, std::fabs(b[k * ldb + j]));
    const float inv = maxabs > 0.0f ? 127.0f / maxabs : 0.0f;
    m.scale[j] = maxabs / 127.0f;
    for (int64_t k = 0; k < depth; ++k) {
      const int q = static_cast<int>(std::nearbyint(b[k * ldb + j] * inv));
      m.packed[((k / 4) * cols + j) * 4 + k % 4] = static_cast<int8_t>(q);
      m.col_sum[j] += q;
    }
  }
  return m;
}

MatMulFn SelectedMatMul() { return Selected().fn; }
Int8MatMulFn SelectedMatMulInt8() { return Selected().int8; }
const char* SelectedMatMulName() { return Selected().name; }

}  // namespace revsum::use_lite
