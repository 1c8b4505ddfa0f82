// The base variant of the USE-lite matrix product (use_lite_matmul.h), compiled with the build's
// own flags only (x86-64 baseline in a portable build); every CPU can run it.
#define REVSUM_MATMUL_ISA base
#include "use_lite_matmul.inc"
