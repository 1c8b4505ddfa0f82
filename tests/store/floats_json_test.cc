// scores.head_weights text (store_internal::FloatsJson): every value exactly as printf's "%.6g"
// of the double writes it, the format stores were written in before FloatsJson used to_chars.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/store/statement.h"

namespace revsum {
namespace {

std::string PrintfJson(const std::vector<float>& values) {
  std::string out = "[";
  char buf[64];
  for (size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.6g", i ? "," : "", static_cast<double>(values[i]));
    out += buf;
  }
  return out + "]";
}

TEST(FloatsJson, IsPrintfPercentSixGForEdgeValues) {
  const std::vector<float> edges = {0.f,
                                    -0.f,
                                    1.f,
                                    -1.f,
                                    0.1f,
                                    0.5f,
                                    1e-5f,
                                    1e-4f,
                                    0.0001234565f,
                                    123456.f,
                                    999999.5f,
                                    1234567.f,
                                    1e6f,
                                    1e-6f,
                                    3.4028235e38f,
                                    1.17549435e-38f,
                                    1.4e-45f,
                                    std::numeric_limits<float>::infinity(),
                                    -std::numeric_limits<float>::infinity(),
                                    0.99999952f,
                                    9.9999949e-5f};
  EXPECT_EQ(store_internal::FloatsJson({}), "[]");
  EXPECT_EQ(store_internal::FloatsJson({0.25f, -1.5f}), "[0.25,-1.5]");
  for (float v : edges) {
    EXPECT_EQ(store_internal::FloatsJson({v}), PrintfJson({v})) << v;
  }
  EXPECT_EQ(store_internal::FloatsJson(edges), PrintfJson(edges));
}

TEST(FloatsJson, IsPrintfPercentSixGForMillionsOfRandomFloats) {
  std::mt19937 rng(7);  // fixed: the same values on every run
  size_t mismatches = 0;
  std::vector<float> row(8);
  for (int k = 0; k < 250000; ++k) {
    for (float& v : row) {
      // Weights in [0, 1] (most stored values), and any finite bit pattern.
      if (k % 2) {
        v = static_cast<float>(rng()) / 4294967296.0f;
      } else {
        const uint32_t bits = static_cast<uint32_t>(rng());
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) v = 0.5f;
      }
    }
    const std::string got = store_internal::FloatsJson(row);
    const std::string want = PrintfJson(row);
    if (got != want && ++mismatches <= 5) ADD_FAILURE() << got << " vs printf " << want;
  }
  EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace revsum
