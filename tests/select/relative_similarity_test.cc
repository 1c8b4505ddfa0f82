// Specification of scope-relative redundancy in the selector (SelectorOptions::
// relative_similarity, include/revsum/select.h): the choice must not depend on how high an
// embedder's cosines sit, only on how a pair compares with the scope's typical pair.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "revsum/select.h"

namespace revsum {
namespace {

// Sentences of four words each, unit rows in four clusters, peaked weights.
struct Scope {
  std::vector<std::string> texts;
  Eigen::VectorXf weights;
  Matrix E;
};

Scope ClusteredScope(Eigen::Index n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> uniform(0.5f, 1.f);
  const Eigen::Index d = 24;
  Matrix centres(4, d);
  for (Eigen::Index i = 0; i < 4; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) centres(i, j) = normal(rng);
    centres.row(i).normalize();
  }
  Scope s;
  s.E.resize(n, d);
  s.weights.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) s.E(i, j) = centres(i % 4, j) + 0.3f * normal(rng);
    s.E.row(i).normalize();
    s.weights(i) =
        std::exp(-0.1f * static_cast<float>(i)) * uniform(rng);  // peaked, like attention
    s.texts.push_back("sentence " + std::to_string(i) + " says something");
  }
  s.weights /= s.weights.sum();
  return s;
}

// cos' = c + (1 - c) cos: the same sentences from an embedder with higher, flatter cosines.
Matrix WithSharedComponent(const Matrix& E, float c) {
  Matrix out(E.rows(), E.cols() + 1);
  out.col(0).setConstant(std::sqrt(c));
  out.rightCols(E.cols()) = std::sqrt(1.f - c) * E;
  return out;
}

std::vector<size_t> Chosen(const BudgetedSelector& selector, const Scope& s, const Matrix& E) {
  std::vector<size_t> out;
  for (const Selected& x :
       selector.Select(s.texts, s.weights, E, Budget{Budget::Unit::kWords, 24})) {
    out.push_back(x.index);
  }
  return out;
}

TEST(RelativeSimilarityTest, SelectionDoesNotDependOnTheEmbeddersCosineOffset) {
  const Scope s = ClusteredScope(40, 11);
  const BudgetedSelector selector(SelectorOptions{}, CountWhitespaceTokens);
  const std::vector<size_t> base = Chosen(selector, s, s.E);
  EXPECT_EQ(base.size(), 6u);  // 24 words / 4 words per sentence
  EXPECT_EQ(Chosen(selector, s, WithSharedComponent(s.E, 0.5f)), base);
}

TEST(RelativeSimilarityTest, RawCosinesStopEarlyWhenEveryPairLooksRelated) {
  const Scope s = ClusteredScope(40, 11);
  SelectorOptions raw;
  raw.relative_similarity = false;
  const BudgetedSelector selector(raw, CountWhitespaceTokens);
  // With cosines raised to >= 0.7, the MMR term outweighs every relevance but the top ones and
  // the budget is left unused.
  EXPECT_LT(Chosen(selector, s, WithSharedComponent(s.E, 0.7f)).size(),
            Chosen(selector, s, s.E).size());
}

}  // namespace
}  // namespace revsum
