// The avx512 variant of the USE-lite matrix product (use_lite_matmul.h), compiled with
// -mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma (CMakeLists.txt). Built without those flags
// (e.g. by tests/fuzz), Compiled() is false and the dispatcher never selects it.
#define REVSUM_MATMUL_ISA avx512
#define REVSUM_MATMUL_NEEDS_AVX512 1
#include "use_lite_matmul.inc"
