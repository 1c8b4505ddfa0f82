// Specification of the scorer's calibration (include/revsum/score.h, "Calibration") and of
// PairCosineStats: the same options must give the same weights whatever the scale and offset of
// an embedder's cosines.
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 kernels when built
// with -march=native (as src/score/attention.cc notes); they are not ours.
#if !defined(__clang__)  // clang has neither false positive (nor the first flag)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "revsum/score.h"

namespace revsum {
namespace {

// Three topical clusters plus noise (unit rows), like a small product scope.
Matrix ClusteredRows(Eigen::Index n, Eigen::Index d, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  Matrix centres(3, d), S(n, d);
  for (Eigen::Index i = 0; i < 3; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) centres(i, j) = normal(rng);
    centres.row(i).normalize();
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) S(i, j) = centres(i % 3, j) + 0.15f * normal(rng);
    S.row(i).normalize();
  }
  return S;
}

// The same sentences as an embedder whose cosines are all raised: every row gets a shared
// component, so cos'(i, j) = c + (1 - c) cos(i, j) — what USE-lite looks like next to TF-IDF.
Matrix WithSharedComponent(const Matrix& S, float c) {
  Matrix out(S.rows(), S.cols() + 1);
  out.col(0).setConstant(std::sqrt(c));
  out.rightCols(S.cols()) = std::sqrt(1.f - c) * S;
  return out;
}

TEST(PairCosineStatsTest, MeanAndDeviationOfDistinctPairs) {
  Matrix S(3, 2);
  S << 1, 0, 0, 1, 1, 0;  // pair cosines: 0, 1, 0
  const CosineStats stats = PairCosineStats(S);
  EXPECT_NEAR(stats.mean, 1.f / 3.f, 1e-6f);
  EXPECT_NEAR(stats.stddev, std::sqrt(2.f / 9.f), 1e-6f);
  EXPECT_EQ(PairCosineStats(S.topRows(1)).mean, 0.f);
}

TEST(PairCosineStatsTest, SharedComponentShiftsTheMeanAndShrinksTheSpread) {
  const Matrix S = ClusteredRows(60, 16, 3);
  const CosineStats a = PairCosineStats(S);
  const CosineStats b = PairCosineStats(WithSharedComponent(S, 0.5f));
  EXPECT_NEAR(b.mean, 0.5f + 0.5f * a.mean, 1e-4f);
  EXPECT_NEAR(b.stddev, 0.5f * a.stddev, 1e-4f);
}

TEST(CalibrationTest, StandardisedWeightsDoNotDependOnTheEmbeddersCosineScale) {
  const Matrix S = ClusteredRows(60, 16, 5);
  const Matrix raised = WithSharedComponent(S, 0.6f);
  const AttentionScorer scorer;  // standardise = true by default
  for (Scope scope : {Scope::kReview, Scope::kProduct}) {
    const Weights a = scorer.Score(S, scope);
    const Weights b = scorer.Score(raised, scope);
    ASSERT_EQ(a.per_head.cols(), b.per_head.cols());
    for (Eigen::Index i = 0; i < S.rows(); ++i) {
      EXPECT_NEAR(a.final(i), b.final(i), 1e-4f * a.final.maxCoeff()) << i;
    }
  }
}

TEST(CalibrationTest, RawCosinesAtAFixedTemperatureDoDependOnIt) {
  const Matrix S = ClusteredRows(60, 16, 5);
  const Matrix raised = WithSharedComponent(S, 0.6f);
  ScorerOptions raw;
  raw.standardise = false;
  const AttentionScorer scorer(raw);
  const Weights a = scorer.Score(S, Scope::kProduct);
  const Weights b = scorer.Score(raised, Scope::kProduct);
  // The raised scope's cosines are 0.4 times as spread: its weights are much flatter.
  EXPECT_GT(a.final.maxCoeff() / a.final.minCoeff(), 2.f * b.final.maxCoeff() / b.final.minCoeff());
}

TEST(CalibrationTest, IdenticalSentencesGetUniformWeights) {
  Matrix S = Matrix::Zero(5, 4);
  S.col(1).setOnes();  // every row the same unit vector: zero spread
  const Weights w = AttentionScorer().Score(S, Scope::kProduct);
  for (Eigen::Index i = 0; i < 5; ++i) EXPECT_NEAR(w.final(i), 0.2f, 1e-5f);
}

TEST(CalibrationTest, ZTemperatureMustBePositive) {
  ScorerOptions o;
  o.z_temperature = 0.f;
  EXPECT_THROW(AttentionScorer{o}, std::invalid_argument);
}

}  // namespace
}  // namespace revsum
