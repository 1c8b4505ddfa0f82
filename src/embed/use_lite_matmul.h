// The USE-lite encoder's matrix products, compiled several times for different instruction sets
// (use_lite_matmul_{avx512vnni,avx512,avx2,base}.cc, each from use_lite_matmul.inc with its own
// compiler flags, set in CMakeLists.txt) and chosen once at run time from what the CPU supports. So
// a portable build (no -march=native) still runs the AVX-512 or AVX2 code on CPUs that have it.
//
// Contract of every variant: C[rows, cols] = A[rows, depth] * B[depth, cols], row-major with
// leading dimensions lda, ldb, ldc. Every element is one chain of fused multiply-adds over
// k = 0..depth-1 starting from 0, whatever the row count or the code path, so a row's result
// depends on that row's inputs only (a sentence's embedding does not depend on its batch), and
// the avx512 and avx2 variants give the same bits. The base variant fuses only when compiled for
// a target with FMA; otherwise it rounds the product and the sum separately.
#pragma once

#include <cstdint>
#include <vector>

namespace revsum::use_lite {

// What a product does to each element before storing it, in this order, each step optional:
//   v = product[r][j]; v = v + bias[j]; v = max(v, 0) (as Eigen's cwiseMax(0.0f): -0 stays -0);
//   v = v + add[r * ld_add + j]
// in float, one rounding per step: the same bits as the separate passes over C that it replaces
// (a dense layer's bias, ReLU and residual connection), without reading and writing C again.
struct Epilogue {
  const float* bias = nullptr;  // [cols]
  bool relu = false;
  const float* add = nullptr;  // [rows, ld_add]
  int64_t ld_add = 0;
};

using MatMulFn = void (*)(const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                          int64_t ldc, int64_t rows, int64_t depth, int64_t cols,
                          const Epilogue& epilogue);

// The int8 product of the quantised encoder (UseLitePrecision::kInt8). B[depth, cols] is quantised
// once per column: q[k][j] = rint(B[k][j] * (127 / m[j])) in [-127, 127] (float multiply, round
// to nearest even), m[j] = max_k |B[k][j]|, scale[j] = m[j] / 127 (q = 0 and scale 0 for a zero
// column). Each call quantises the rows of A the same way (per row, into the caller's scratch),
// sums the integer products exactly in 32 bits and writes
//   C[r][j] = float(sum_k qa[r][k] * q[k][j]) * (row_scale[r] * scale[j]).
// Integer sums are exact, so every variant (VNNI, AVX2, scalar) gives the same bits, and a row's
// result depends on that row only. A must be finite (the encoder's layer inputs are).
struct Int8Matrix {
  int64_t depth = 0;             // rows of B
  int64_t depth4 = 0;            // depth rounded up to a multiple of 4 (zero-padded)
  int64_t cols = 0;              // columns of B
  std::vector<int8_t> packed;    // [depth4 / 4][cols][4]: q[4g + i][j] at (g * cols + j) * 4 + i
  std::vector<float> scale;      // [cols]
  std::vector<int32_t> col_sum;  // [cols] sum over k of q[k][j] (the unsigned-offset correction)
};

// An Int8Matrix as raw pointers: what the variants read (they must not call std::vector's inline
// members, see use_lite_matmul.inc).
struct Int8View {
  const int8_t* packed;
  const float* scale;
  const int32_t* col_sum;
  int64_t depth, depth4, cols;
};
inline Int8View View(const Int8Matrix& m) {
  return {m.packed.data(), m.scale.data(), m.col_sum.data(), m.depth, m.depth4, m.cols};
}

// Quantises B[depth, cols] (row-major, leading dimension ldb) as Int8Matrix describes.
Int8Matrix QuantizeColumns(const float* b, int64_t ldb, int64_t depth, int64_t cols);

// C[rows, cols] = A[rows, b.depth] * B as above, then the epilogue. scratch_q holds
// rows * b.depth4 bytes and scratch_scale rows floats (the quantised rows of A and their scales).
using Int8MatMulFn = void (*)(const float* a, int64_t lda, const Int8View& b, float* c, int64_t ldc,
                              int64_t rows, int8_t* scratch_q, float* scratch_scale,
                              const Epilogue& epilogue);

#define REVSUM_DECLARE_MATMUL(isa)                                                             \
  namespace isa {                                                                              \
  /* True when this file was compiled with the flags of its instruction set. */                \
  bool Compiled();                                                                             \
  void MatMul(const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc, \
              int64_t rows, int64_t depth, int64_t cols, const Epilogue& epilogue);            \
  void MatMulInt8(const float* a, int64_t lda, const Int8View& b, float* c, int64_t ldc,       \
                  int64_t rows, int8_t* scratch_q, float* scratch_scale,                       \
                  const Epilogue& epilogue);                                                   \
  }
REVSUM_DECLARE_MATMUL(avx512vnni)
REVSUM_DECLARE_MATMUL(avx512)
REVSUM_DECLARE_MATMUL(avx2)
REVSUM_DECLARE_MATMUL(base)
#undef REVSUM_DECLARE_MATMUL

// The variant used by the encoder: the first of avx512vnni, avx512, avx2, base that was compiled
// for its instruction set and that the CPU supports (__builtin_cpu_supports), chosen on the first
// call. REVSUM_USE_LITE_ISA=avx512vnni|avx512|avx2|base in the environment forces a lower variant
// (for tests and benchmarks); a variant the CPU cannot run is never chosen. The float products of
// avx512vnni and avx512 are the same code; VNNI speeds up the int8 product only.
MatMulFn SelectedMatMul();
Int8MatMulFn SelectedMatMulInt8();

// The name of the selected variant: "avx512vnni", "avx512", "avx2" or "base".
const char* SelectedMatMulName();

}  // namespace revsum::use_lite
