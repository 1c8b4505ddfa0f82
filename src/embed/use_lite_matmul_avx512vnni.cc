// The avx512vnni variant of the USE-lite matrix products (use_lite_matmul.h), compiled with the
// avx512 variant's flags plus -mavx512vnni (CMakeLists.txt): the same float product, and the int8
// product on VPDPBUSD. Built without those flags, Compiled() is false and it is never selected.
#define REVSUM_MATMUL_ISA avx512vnni
#define REVSUM_MATMUL_NEEDS_AVX512VNNI 1
#include "use_lite_matmul.inc"
