// The USE-lite encoder's matrix product, compiled several times for different instruction sets
// (use_lite_matmul_{avx512,avx2,base}.cc, each from use_lite_matmul.inc with its own compiler
// flags, set in CMakeLists.txt) and chosen once at run time from what the CPU supports. So a
// portable build (no -march=native) still runs the AVX-512 or AVX2 code on CPUs that have it.
//
// Contract of every variant: C[rows, cols] = A[rows, depth] * B[depth, cols], row-major with
// leading dimensions lda, ldb, ldc. Every element is one chain of fused multiply-adds over
// k = 0..depth-1 starting from 0, whatever the row count or the code path, so a row's result
// depends on that row's inputs only (a sentence's embedding does not depend on its batch), and
// the avx512 and avx2 variants give the same bits. The base variant fuses only when compiled for
// a target with FMA; otherwise it rounds the product and the sum separately.
#pragma once

#include <cstdint>

namespace revsum::use_lite {

using MatMulFn = void (*)(const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                          int64_t ldc, int64_t rows, int64_t depth, int64_t cols);

#define REVSUM_DECLARE_MATMUL(isa)                                                             \
  namespace isa {                                                                              \
  /* True when this file was compiled with the flags of its instruction set. */                \
  bool Compiled();                                                                             \
  void MatMul(const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc, \
              int64_t rows, int64_t depth, int64_t cols);                                      \
  }
REVSUM_DECLARE_MATMUL(avx512)
REVSUM_DECLARE_MATMUL(avx2)
REVSUM_DECLARE_MATMUL(base)
#undef REVSUM_DECLARE_MATMUL

// The variant used by the encoder: the first of avx512, avx2, base that was compiled for its
// instruction set and that the CPU supports (__builtin_cpu_supports), chosen on the first call.
// REVSUM_USE_LITE_ISA=avx512|avx2|base in the environment forces a lower variant (for tests and
// benchmarks); a variant the CPU cannot run is never chosen.
MatMulFn SelectedMatMul();

// The name of SelectedMatMul()'s variant: "avx512", "avx2" or "base".
const char* SelectedMatMulName();

}  // namespace revsum::use_lite
