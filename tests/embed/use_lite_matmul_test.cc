// The run-time dispatched USE-lite matrix product (src/embed/use_lite_matmul.h): every variant
// this CPU can run gives each row the same bits whatever the other rows, and the FMA variants
// (avx512, avx2) agree bit for bit, so the choice never changes an embedding on a given CPU class.

#include "../../src/embed/use_lite_matmul.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using revsum::use_lite::MatMulFn;

struct Variant {
  std::string name;
  MatMulFn fn;
};

// The variants compiled for their instruction set that this CPU runs.
std::vector<Variant> Runnable() {
  __builtin_cpu_init();
  std::vector<Variant> out;
  if (revsum::use_lite::avx512::Compiled() && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma")) {
    out.push_back({"avx512", revsum::use_lite::avx512::MatMul});
  }
  if (revsum::use_lite::avx2::Compiled() && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma")) {
    out.push_back({"avx2", revsum::use_lite::avx2::MatMul});
  }
  out.push_back({"base", revsum::use_lite::base::MatMul});
  return out;
}

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// 13 rows (two full 6-row tiles and a single row), 200 columns (three 64-column panels and 8 left
// over for the per-element loop), depth 96.
constexpr int64_t kRows = 13, kDepth = 96, kCols = 200;

std::vector<float> Product(MatMulFn fn, const std::vector<float>& a, const std::vector<float>& b,
                           int64_t rows) {
  std::vector<float> c(rows * kCols, -1.0f);
  fn(a.data(), kDepth, b.data(), kCols, c.data(), kCols, rows, kDepth, kCols);
  return c;
}

}  // namespace

TEST(UseLiteMatMul, SelectedVariantIsOneThisCpuRuns) {
  const std::string selected = revsum::use_lite::SelectedMatMulName();
  bool found = false;
  for (const Variant& v : Runnable()) found = found || v.name == selected;
  EXPECT_TRUE(found) << selected;
  // The variant a portable x86-64 build reaches on a CPU with AVX-512 or AVX2.
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    EXPECT_NE(selected, "base");
  }
}

TEST(UseLiteMatMul, EachRowDependsOnlyOnItsOwnInputs) {
  const std::vector<float> a = Random(kRows * kDepth, 1), b = Random(kDepth * kCols, 2);
  for (const Variant& v : Runnable()) {
    const std::vector<float> all = Product(v.fn, a, b, kRows);
    for (int64_t r = 0; r < kRows; ++r) {
      const std::vector<float> row(a.begin() + r * kDepth, a.begin() + (r + 1) * kDepth);
      const std::vector<float> alone = Product(v.fn, row, b, 1);
      EXPECT_EQ(std::memcmp(alone.data(), all.data() + r * kCols, kCols * sizeof(float)), 0)
          << v.name << " row " << r;
    }
  }
}

TEST(UseLiteMatMul, FmaVariantsAgreeBitForBitWithAFusedChain) {
  const std::vector<float> a = Random(kRows * kDepth, 3), b = Random(kDepth * kCols, 4);
  std::vector<float> expected(kRows * kCols, 0.0f);
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t j = 0; j < kCols; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < kDepth; ++k)
        acc = __builtin_fmaf(a[r * kDepth + k], b[k * kCols + j], acc);
      expected[r * kCols + j] = acc;
    }
  }
  for (const Variant& v : Runnable()) {
    if (v.name == "base") continue;  // fused only when the build targets FMA
    EXPECT_EQ(std::memcmp(Product(v.fn, a, b, kRows).data(), expected.data(),
                          expected.size() * sizeof(float)),
              0)
        << v.name;
  }
}
