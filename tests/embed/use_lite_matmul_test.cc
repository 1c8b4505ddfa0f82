// The run-time dispatched USE-lite matrix products (src/embed/use_lite_matmul.h): every variant
// this CPU can run gives each row the same bits whatever the other rows, the FMA variants
// (avx512vnni, avx512, avx2) agree bit for bit, and every variant's int8 product (base included)
// equals an exact integer reference, so the choice never changes an embedding on CPUs with FMA.

#include "../../src/embed/use_lite_matmul.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using revsum::use_lite::Int8MatMulFn;
using revsum::use_lite::MatMulFn;

struct Variant {
  std::string name;
  MatMulFn fn;
  Int8MatMulFn int8;
};

// The variants compiled for their instruction set that this CPU runs.
std::vector<Variant> Runnable() {
  __builtin_cpu_init();
  std::vector<Variant> out;
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("fma");
  if (revsum::use_lite::avx512vnni::Compiled() && avx512 && __builtin_cpu_supports("avx512vnni")) {
    out.push_back({"avx512vnni", revsum::use_lite::avx512vnni::MatMul,
                   revsum::use_lite::avx512vnni::MatMulInt8});
  }
  if (revsum::use_lite::avx512::Compiled() && avx512) {
    out.push_back(
        {"avx512", revsum::use_lite::avx512::MatMul, revsum::use_lite::avx512::MatMulInt8});
  }
  if (revsum::use_lite::avx2::Compiled() && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma")) {
    out.push_back({"avx2", revsum::use_lite::avx2::MatMul, revsum::use_lite::avx2::MatMulInt8});
  }
  out.push_back({"base", revsum::use_lite::base::MatMul, revsum::use_lite::base::MatMulInt8});
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
  fn(a.data(), kDepth, b.data(), kCols, c.data(), kCols, rows, kDepth, kCols, {});
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

// The int8 product's contract, written out: rows and columns quantised symmetrically to 127
// levels (round to nearest even), an exact integer sum, then sum * (row scale * column scale).
std::vector<float> Int8Reference(const std::vector<float>& a, const std::vector<float>& b,
                                 int64_t rows, int64_t depth, int64_t cols) {
  auto quantise = [](float x, float maxabs) {
    const float inv = maxabs > 0 ? 127.0f / maxabs : 0.0f;
    return static_cast<int32_t>(std::nearbyint(x * inv));
  };
  std::vector<float> col_max(cols, 0.0f), row_max(rows, 0.0f);
  for (int64_t k = 0; k < depth; ++k) {
    for (int64_t j = 0; j < cols; ++j)
      col_max[j] = std::max(col_max[j], std::fabs(b[k * cols + j]));
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < depth; ++k)
      row_max[r] = std::max(row_max[r], std::fabs(a[r * depth + k]));
  }
  std::vector<float> c(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) {
      int64_t sum = 0;
      for (int64_t k = 0; k < depth; ++k) {
        sum += quantise(a[r * depth + k], row_max[r]) * quantise(b[k * cols + j], col_max[j]);
      }
      c[r * cols + j] = static_cast<float>(sum) * ((row_max[r] / 127.0f) * (col_max[j] / 127.0f));
    }
  }
  return c;
}

// Shapes that reach every path: 4-row tiles and every remainder (1, 2, 3 rows), 64- and 16-column
// tiles and a per-element remainder, a depth that is not a multiple of 4 or 16; a zero row, and a
// row and a column whose scale is 1 with values halfway between two levels (rounded to even).
TEST(UseLiteMatMul, Int8VariantsEqualTheExactIntegerReference) {
  struct Shape {
    int64_t rows, depth, cols;
  };
  for (const Shape& shape :
       {Shape{13, 96, 200}, Shape{7, 37, 70}, Shape{10, 40, 130}, Shape{1, 1536, 512}}) {
    std::vector<float> a = Random(shape.rows * shape.depth, 5);
    std::vector<float> b = Random(shape.depth * shape.cols, 6);
    const float ties[] = {127.0f, 0.5f, 1.5f, 2.5f, -2.5f, -0.5f, 126.5f};
    if (shape.rows > 1) {
      for (int64_t k = 0; k < shape.depth; ++k) a[shape.depth + k] = ties[k % 7];  // row 1
    }
    for (int64_t k = 0; k < shape.depth; ++k) b[k * shape.cols] = ties[(k + 3) % 7];  // column 0
    b[0] = 127.0f;
    for (int64_t k = 0; k < shape.depth; ++k) a[k] = 0.0f;  // row 0: all zero
    const std::vector<float> want = Int8Reference(a, b, shape.rows, shape.depth, shape.cols);
    const revsum::use_lite::Int8Matrix q =
        revsum::use_lite::QuantizeColumns(b.data(), shape.cols, shape.depth, shape.cols);
    for (const Variant& v : Runnable()) {
      std::vector<float> got(shape.rows * shape.cols, -1.0f);
      std::vector<int8_t> scratch(shape.rows * q.depth4);
      std::vector<float> scales(shape.rows);
      v.int8(a.data(), shape.depth, revsum::use_lite::View(q), got.data(), shape.cols, shape.rows,
             scratch.data(), scales.data(), {});
      EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0)
          << v.name << " " << shape.rows << "x" << shape.depth << "x" << shape.cols;
      // Each row alone gives the same bits as in the batch.
      std::vector<float> alone(shape.cols);
      const int64_t last = shape.rows - 1;
      v.int8(a.data() + last * shape.depth, shape.depth, revsum::use_lite::View(q), alone.data(),
             shape.cols, 1, scratch.data(), scales.data(), {});
      EXPECT_EQ(
          std::memcmp(alone.data(), want.data() + last * shape.cols, shape.cols * sizeof(float)), 0)
          << v.name;
    }
  }
}

// Quantisation error is what 8 bits promise: the selected int8 product is within a few percent of
// the float product's scale.
TEST(UseLiteMatMul, Int8ProductIsCloseToTheFloatProduct) {
  const std::vector<float> a = Random(kRows * kDepth, 7), b = Random(kDepth * kCols, 8);
  const std::vector<float> exact = Product(revsum::use_lite::base::MatMul, a, b, kRows);
  const revsum::use_lite::Int8Matrix q =
      revsum::use_lite::QuantizeColumns(b.data(), kCols, kDepth, kCols);
  std::vector<float> approx(kRows * kCols);
  std::vector<int8_t> scratch(kRows * q.depth4);
  std::vector<float> scales(kRows);
  revsum::use_lite::SelectedMatMulInt8()(a.data(), kDepth, revsum::use_lite::View(q), approx.data(),
                                         kCols, kRows, scratch.data(), scales.data(), {});
  double err = 0, norm = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    err += (exact[i] - approx[i]) * (exact[i] - approx[i]);
    norm += exact[i] * exact[i];
  }
  EXPECT_LT(std::sqrt(err / norm), 0.02);
}

// The epilogue (bias, ReLU, residual) gives the bits of the separate passes it replaces, in every
// variant, float and int8, on tiles and on the per-element columns alike.
TEST(UseLiteMatMul, EpilogueEqualsTheSeparatePasses) {
  const std::vector<float> a = Random(kRows * kDepth, 11), b = Random(kDepth * kCols, 12);
  std::vector<float> bias = Random(kCols, 13);
  const std::vector<float> residual = Random(kRows * (kCols + 3), 14);
  const revsum::use_lite::Int8Matrix q =
      revsum::use_lite::QuantizeColumns(b.data(), kCols, kDepth, kCols);
  std::vector<int8_t> scratch(kRows * q.depth4);
  std::vector<float> scales(kRows);
  for (const Variant& v : Runnable()) {
    for (const bool int8 : {false, true}) {
      std::vector<float> plain(kRows * kCols);
      auto product = [&](float* c, const revsum::use_lite::Epilogue& e) {
        if (int8) {
          v.int8(a.data(), kDepth, revsum::use_lite::View(q), c, kCols, kRows, scratch.data(),
                 scales.data(), e);
        } else {
          v.fn(a.data(), kDepth, b.data(), kCols, c, kCols, kRows, kDepth, kCols, e);
        }
      };
      product(plain.data(), {});
      bias[5] = -plain[kCols + 5];  // an element the bias cancels exactly, at ReLU's edge
      for (const bool relu : {false, true}) {
        for (const bool add : {false, true}) {
          revsum::use_lite::Epilogue e;
          e.bias = bias.data();
          e.relu = relu;
          if (add) {
            e.add = residual.data();
            e.ld_add = kCols + 3;
          }
          std::vector<float> want(plain);
          for (int64_t r = 0; r < kRows; ++r) {
            for (int64_t j = 0; j < kCols; ++j) {
              float x = want[r * kCols + j] + bias[j];
              if (relu) x = std::max(x, 0.0f);  // Eigen's cwiseMax(0.0f)
              if (add) x = x + residual[r * (kCols + 3) + j];
              want[r * kCols + j] = x;
            }
          }
          std::vector<float> got(kRows * kCols, -1.0f);
          product(got.data(), e);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0)
              << v.name << (int8 ? " int8" : " float") << " relu=" << relu << " add=" << add;
        }
      }
    }
  }
}
