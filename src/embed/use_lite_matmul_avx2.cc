// The avx2 variant of the USE-lite matrix product (use_lite_matmul.h), compiled with
// -mavx2 -mfma (CMakeLists.txt). Built without those flags (e.g. by tests/fuzz), Compiled() is
// false and the dispatcher never selects it.
#define REVSUM_MATMUL_ISA avx2
#define REVSUM_MATMUL_NEEDS_AVX2 1
#include "use_lite_matmul.inc"
