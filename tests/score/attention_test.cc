// Specification of the multi-head attention scorer (include/revsum/score.h).
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 kernels when built
// with -march=native (as src/score/attention.cc notes); they are not ours.
#if !defined(__clang__)  // clang has neither false positive (nor the first flag)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cmath>
#include <functional>
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/score.h"

namespace revsum {
namespace {

// n random unit rows of dimension d, from a fixed seed.
Matrix RandomUnitRows(Eigen::Index n, Eigen::Index d, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  Matrix S(n, d);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) S(i, j) = normal(rng);
    S.row(i).normalize();
  }
  return S;
}

// Three topical clusters plus noise: a realistic small scope.
Matrix ClusteredRows(uint32_t seed) {
  Matrix centres = RandomUnitRows(3, 32, seed);
  Matrix noise = RandomUnitRows(12, 32, seed + 1);
  Matrix S(12, 32);
  for (Eigen::Index i = 0; i < 12; ++i) {
    S.row(i) = centres.row(i % 3) + 0.6f * noise.row(i);
    S.row(i).normalize();
  }
  return S;
}

std::vector<HeadAnchor> TwoAnchors(Eigen::Index d) {
  Eigen::VectorXf a = Eigen::VectorXf::Zero(d), b = Eigen::VectorXf::Zero(d);
  a(0) = 1.f;
  b(1) = 1.f;
  return {{"opinion", a}, {"aspect:price", b}};
}

TEST(AttentionScorerTest, WeightsOfEveryHeadSumToOne) {
  const Matrix S = ClusteredRows(7);
  const AttentionScorer scorer({}, TwoAnchors(S.cols()));
  for (Scope scope : {Scope::kReview, Scope::kProduct}) {
    const Weights w = scorer.Score(S, scope);
    EXPECT_NEAR(w.final.sum(), 1.f, 1e-5f);
    ASSERT_EQ(w.per_head.cols(), static_cast<Eigen::Index>(w.head_names.size()));
    for (Eigen::Index h = 0; h < w.per_head.cols(); ++h) {
      EXPECT_NEAR(w.per_head.col(h).sum(), 1.f, 1e-5f) << w.head_names[h];
      EXPECT_GE(w.per_head.col(h).minCoeff(), 0.f);
    }
    float mix = 0;
    for (float m : w.head_mix) mix += m;
    EXPECT_NEAR(mix, 1.f, 1e-5f);
  }
}

TEST(AttentionScorerTest, ProductScopeAddsConsensusHeadReviewScopeDoesNot) {
  const Matrix S = ClusteredRows(3);
  const AttentionScorer scorer({}, TwoAnchors(S.cols()));
  EXPECT_THAT(scorer.Score(S, Scope::kProduct).head_names,
              ::testing::ElementsAre("centroid", "opinion", "aspect:price", "consensus"));
  EXPECT_THAT(scorer.Score(S, Scope::kReview).head_names,
              ::testing::ElementsAre("centroid", "opinion", "aspect:price"));
}

TEST(AttentionScorerTest, ReorderingSentencesReordersWeightsTheSameWay) {
  const Matrix S = ClusteredRows(11);
  std::vector<int> perm(static_cast<size_t>(S.rows()));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
  std::mt19937 rng(5);
  std::shuffle(perm.begin(), perm.end(), rng);
  Matrix P(S.rows(), S.cols());
  for (Eigen::Index i = 0; i < S.rows(); ++i) P.row(i) = S.row(perm[static_cast<size_t>(i)]);
  const AttentionScorer scorer({}, TwoAnchors(S.cols()));
  const Weights a = scorer.Score(S, Scope::kProduct);
  const Weights b = scorer.Score(P, Scope::kProduct);
  for (Eigen::Index i = 0; i < S.rows(); ++i) {
    EXPECT_NEAR(b.final(i), a.final(perm[static_cast<size_t>(i)]), 1e-6f);
    for (Eigen::Index h = 0; h < a.per_head.cols(); ++h) {
      EXPECT_NEAR(b.per_head(i, h), a.per_head(perm[static_cast<size_t>(i)], h), 1e-6f);
    }
  }
}

TEST(AttentionScorerTest, SentenceEqualToCentroidGetsHighestOverallWeight) {
  Matrix S = RandomUnitRows(9, 16, 21);
  Matrix with_centroid(10, 16);
  with_centroid.topRows(9) = S;
  with_centroid.row(9) = S.colwise().mean().normalized();
  ScorerOptions options;
  options.consensus_mix = 0.f;
  const Weights w = AttentionScorer(options).Score(with_centroid, Scope::kProduct);
  ASSERT_THAT(w.head_names, ::testing::ElementsAre("centroid"));
  Eigen::Index best = -1;
  w.final.maxCoeff(&best);
  EXPECT_EQ(best, 9);
}

TEST(AttentionScorerTest, ConsensusFavoursSentencesOthersRepeat) {
  // Rows 0-3 say nearly the same thing; rows 4-7 touch on it but each adds its own point, so
  // their nearest neighbours are the common rows. (A row's attention always sums to 1, so what
  // makes a sentence win is attention from sentences outside its own cluster.)
  Matrix S = RandomUnitRows(8, 32, 4);
  const Eigen::RowVectorXf common = S.row(0);
  for (Eigen::Index i = 1; i < 8; ++i) {
    S.row(i) = common + (i < 4 ? 0.1f : 1.2f) * S.row(i);
    S.row(i).normalize();
  }
  const Eigen::VectorXf r = ConsensusAttention(S, 0.05f, 4000);
  EXPECT_NEAR(r.sum(), 1.f, 1e-5f);
  for (Eigen::Index i = 0; i < 4; ++i) {
    for (Eigen::Index j = 4; j < 8; ++j) EXPECT_GT(r(i), r(j)) << i << " vs " << j;
  }
}

TEST(AttentionScorerTest, AnchoredHeadPrefersSentencesAlongItsAnchor) {
  Matrix S = Matrix::Zero(3, 4);
  S.row(0) << 1, 0, 0, 0;        // the topic, no opinion
  S.row(1) << 0.8f, 0.6f, 0, 0;  // the topic, with opinion (dim 1)
  S.row(2) << 0.8f, 0, 0.6f, 0;  // the topic, something else
  Eigen::VectorXf opinion = Eigen::VectorXf::Zero(4);
  opinion(1) = 1.f;
  ScorerOptions options;
  options.consensus_mix = 0.f;
  const Weights w = AttentionScorer(options, {{"opinion", opinion}}).Score(S, Scope::kReview);
  Eigen::Index best = -1;
  w.per_head.col(1).maxCoeff(&best);
  EXPECT_EQ(w.head_names[1], "opinion");
  EXPECT_EQ(best, 1);
}

TEST(AttentionScorerTest, SingleAndEmptyScopes) {
  const AttentionScorer scorer;
  const Weights one = scorer.Score(RandomUnitRows(1, 8, 1), Scope::kProduct);
  ASSERT_EQ(one.final.size(), 1);
  EXPECT_FLOAT_EQ(one.final(0), 1.f);
  const Weights none = scorer.Score(Matrix(0, 8), Scope::kProduct);
  EXPECT_EQ(none.final.size(), 0);
}

TEST(AttentionScorerTest, RejectsAnchorOfWrongDimension) {
  const AttentionScorer scorer({}, TwoAnchors(5));
  EXPECT_THROW(scorer.Score(RandomUnitRows(4, 8, 1), Scope::kReview), std::invalid_argument);
}

TEST(AttentionScorerTest, FiftyThousandSentencesFinishAndStayNormalised) {
  // Above max_exact_consensus the consensus is computed from a strided sample of voter rows.
  const Matrix S = RandomUnitRows(50000, 64, 99);
  const AttentionScorer scorer({}, TwoAnchors(S.cols()));
  const Weights w = scorer.Score(S, Scope::kProduct);
  ASSERT_EQ(w.final.size(), 50000);
  EXPECT_NEAR(w.final.sum(), 1.f, 1e-3f);
  for (Eigen::Index h = 0; h < w.per_head.cols(); ++h) {
    EXPECT_NEAR(w.per_head.col(h).sum(), 1.f, 1e-3f) << w.head_names[h];
  }
  EXPECT_TRUE(w.final.allFinite());
}

TEST(AttentionScorerTest, SampledConsensusAgreesWithExactOnClusteredData) {
  // The sampled approximation must rank like the exact computation: the clustered rows still
  // receive more attention than the noise rows.
  Matrix S = RandomUnitRows(3000, 32, 8);
  const Eigen::RowVectorXf common = S.row(0);
  for (Eigen::Index i = 1; i < 3000; ++i) {
    S.row(i) = common + (i < 600 ? 0.3f : 1.5f) * S.row(i);
    S.row(i).normalize();
  }
  const Eigen::VectorXf exact = ConsensusAttention(S, 0.1f, 4000);
  const Eigen::VectorXf sampled = ConsensusAttention(S, 0.1f, 1000);
  EXPECT_NEAR(sampled.sum(), 1.f, 1e-4f);
  EXPECT_GT(sampled.head(600).mean(), 2.f * sampled.tail(2400).mean());
  EXPECT_GT(exact.head(600).mean(), 2.f * exact.tail(2400).mean());
}

TEST(TopicAnchorsTest, FirstTopicSeparatesTheTwoThemesAndPointsAtTheDenserOne) {
  // 30 sentences near theme A, 10 near theme B: the top principal direction separates A from B,
  // and its heavier tail is the smaller, farther group B.
  Matrix themes = RandomUnitRows(2, 32, 17);
  Matrix noise = RandomUnitRows(40, 32, 18);
  Matrix S(40, 32);
  for (Eigen::Index i = 0; i < 40; ++i) {
    S.row(i) = themes.row(i < 30 ? 0 : 1) + 0.2f * noise.row(i);
    S.row(i).normalize();
  }
  const std::vector<HeadAnchor> topics = TopicAnchors(S, 2);
  ASSERT_EQ(topics.size(), 2u);
  EXPECT_EQ(topics[0].name, "topic:1");
  const Eigen::VectorXf u = topics[0].anchor.normalized();
  const Eigen::VectorXf b_minus_a = (themes.row(1) - themes.row(0)).transpose().normalized();
  EXPECT_GT(u.dot(b_minus_a), 0.9f);
  EXPECT_TRUE(TopicAnchors(S, 0).empty());
  EXPECT_TRUE(TopicAnchors(S.topRows(2), 3).empty());
}

TEST(ParseSeedsTest, ReadsSectionsAndLanguage) {
  const SeedSet seeds = ParseSeeds(
      "# lang: en\n[opinion]\nGreat.\n\n[neutral]\nIt came.\n[aspect:price]\nCheap.\nPricey.\n",
      "test.txt");
  EXPECT_EQ(seeds.lang, "en");
  EXPECT_THAT(seeds.opinion, ::testing::ElementsAre("Great."));
  EXPECT_THAT(seeds.neutral, ::testing::ElementsAre("It came."));
  ASSERT_EQ(seeds.aspects.size(), 1u);
  EXPECT_EQ(seeds.aspects[0].first, "price");
  EXPECT_THAT(SeedSentences(seeds),
              ::testing::ElementsAre("Great.", "It came.", "Cheap.", "Pricey."));
}

TEST(ParseSeedsTest, ErrorsNameFileAndLine) {
  try {
    ParseSeeds("# c\nGreat.\n", "seeds/en.txt");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("seeds/en.txt:2:"));
  }
  EXPECT_THROW(ParseSeeds("[bogus]\nx\n", "f"), std::runtime_error);
  EXPECT_THROW(ParseSeeds("[opinion]\n[neutral]\nx\n", "f"), std::runtime_error);
}

TEST(ParseSeedsTest, ShippedEnglishSeedsParse) {
  const SeedSet seeds = LoadSeeds(std::string(REVSUM_SOURCE_DIR) + "/models/seeds/en.txt");
  EXPECT_EQ(seeds.lang, "en");
  EXPECT_GE(seeds.opinion.size(), 8u);
  EXPECT_GE(seeds.neutral.size(), 8u);
  EXPECT_EQ(seeds.aspects.size(), 7u);
}

TEST(BuildAnchorsTest, OpinionAnchorPointsFromNeutralToOpinion) {
  SeedSet seeds;
  seeds.opinion = {"a", "b"};
  seeds.neutral = {"c"};
  seeds.aspects = {{"price", {"d"}}};
  Matrix E = Matrix::Zero(4, 3);
  E.row(0) << 1, 0, 0;
  E.row(1) << 1, 0, 0;
  E.row(2) << 0, 1, 0;
  E.row(3) << 0, 0, 1;
  const std::vector<HeadAnchor> anchors = BuildAnchors(seeds, E);
  ASSERT_EQ(anchors.size(), 2u);
  EXPECT_EQ(anchors[0].name, "opinion");
  EXPECT_FLOAT_EQ(anchors[0].anchor(0), 1.f);
  EXPECT_FLOAT_EQ(anchors[0].anchor(1), -1.f);
  EXPECT_EQ(anchors[1].name, "aspect:price");
  EXPECT_FLOAT_EQ(anchors[1].anchor(2), 1.f);
}

// A small product keeps S S^T (Weights::gram) and its consensus head reads it: the same bits as
// ConsensusAttention on S with the temperature from PairCosineStats; a bigger one keeps none.
TEST(AttentionScorerTest, SmallProductsShareTheirGramMatrixWithTheSameConsensus) {
  ScorerOptions options;
  const AttentionScorer scorer(options, {});
  const Matrix S = RandomUnitRows(kSharedGramRows, 48, 5);
  const Weights w = scorer.Score(S, Scope::kProduct);
  ASSERT_EQ(w.gram.rows(), kSharedGramRows);
  for (Eigen::Index i = 0; i < S.rows(); ++i) {
    for (Eigen::Index j = 0; j < S.rows(); ++j)
      ASSERT_NEAR(w.gram(i, j), S.row(i).dot(S.row(j)), 1e-5f) << i << " " << j;
  }
  EXPECT_EQ(GramCosineStats(w.gram).mean, PairCosineStats(S).mean);
  EXPECT_EQ(GramCosineStats(w.gram).stddev, PairCosineStats(S).stddev);
  const float t = options.standardise
                      ? options.z_temperature * std::max(PairCosineStats(S).stddev, 1e-4f)
                      : options.temperature;
  const Eigen::VectorXf direct = ConsensusAttention(S, t, options.max_exact_consensus);
  const Eigen::VectorXf shared = w.per_head.col(w.per_head.cols() - 1);
  for (Eigen::Index i = 0; i < S.rows(); ++i) EXPECT_EQ(shared(i), direct(i)) << i;
  EXPECT_EQ(scorer.Score(S, Scope::kReview).gram.rows(), 0);
  EXPECT_EQ(scorer.Score(RandomUnitRows(kSharedGramRows + 1, 48, 5), Scope::kProduct).gram.rows(),
            0);
}

}  // namespace
}  // namespace revsum

namespace revsum {
namespace {

// Rows like the lexical embedder's: `nonzero` random entries of `d`, L2-normalised.
Matrix SparseUnitRows(Eigen::Index n, Eigen::Index d, int nonzero, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<Eigen::Index> column(0, d - 1);
  Matrix S = Matrix::Zero(n, d);
  for (Eigen::Index i = 0; i < n; ++i) {
    // A shared "topic" column block makes the rows overlap, as review sentences do.
    for (int k = 0; k < nonzero; ++k) S(i, k % 3 == 0 ? k % 30 : column(rng)) = normal(rng);
    S.row(i).normalize();
  }
  return S;
}

// Consensus in double precision, every row voting: the reference for the float paths.
Eigen::VectorXd ReferenceConsensus(const Matrix& S, double temperature) {
  const Eigen::MatrixXd X = S.cast<double>();
  const Eigen::MatrixXd logits = X * X.transpose() / temperature;
  const Eigen::Index n = S.rows();
  Eigen::VectorXd received = Eigen::VectorXd::Zero(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    double max = -1e300, sum = 0;
    for (Eigen::Index j = 0; j < n; ++j)
      if (j != k) max = std::max(max, logits(k, j));
    Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j != k) sum += e(j) = std::exp(logits(k, j) - max);
    }
    received += e / sum;
  }
  return received / static_cast<double>(n);
}

// The scorer's products of S against the dense arithmetic in double precision, up to float
// rounding, for a small product (shared Gram matrix) and a larger one (blocked consensus): the Gram
// matrix, the consensus head (also as ConsensusAttention computes it alone) and the centroid head.
void ExpectTheDenseProductsUpToRounding(const std::function<Matrix(Eigen::Index)>& rows) {
  ScorerOptions options;
  options.standardise = false;
  const AttentionScorer scorer(options, {});
  for (const Eigen::Index n : {Eigen::Index{200}, kSharedGramRows + 44}) {
    const Matrix S = rows(n);
    const Weights w = scorer.Score(S, Scope::kProduct);
    if (n <= kSharedGramRows) {
      ASSERT_EQ(w.gram.rows(), n);
      for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j < n; ++j) {
          ASSERT_NEAR(w.gram(i, j), S.row(i).cast<double>().dot(S.row(j).cast<double>()), 1e-6)
              << i << " " << j;
        }
      }
      EXPECT_EQ(GramCosineStats(w.gram).mean, PairCosineStats(S).mean);
    } else {
      EXPECT_EQ(w.gram.rows(), 0);
    }
    const Eigen::VectorXd reference = ReferenceConsensus(S, options.temperature);
    const Eigen::VectorXf consensus = w.per_head.col(w.per_head.cols() - 1);
    const Eigen::VectorXf direct = ConsensusAttention(S, options.temperature, 4000);
    for (Eigen::Index i = 0; i < n; ++i) {
      EXPECT_NEAR(consensus(i), reference(i), 1e-4 * reference(i)) << n << " " << i;
      EXPECT_EQ(consensus(i), direct(i)) << n << " " << i;
    }
    // The centroid head: softmax of cosines to the mean row.
    const Eigen::VectorXd q = S.cast<double>().colwise().mean().transpose().normalized();
    Eigen::VectorXd centroid = (S.cast<double>() * q / options.temperature).array().exp();
    centroid /= centroid.sum();
    for (Eigen::Index i = 0; i < n; ++i)
      EXPECT_NEAR(w.per_head(i, 0), centroid(i), 1e-4 * centroid(i)) << n << " " << i;
  }
}

// Sparse rows (the lexical embedder's) take the scorer's sparse products.
TEST(AttentionScorerTest, SparseRowsGetTheDenseProductsUpToRounding) {
  ExpectTheDenseProductsUpToRounding(
      [](Eigen::Index n) { return SparseUnitRows(n, 4096, 40, 11); });
  // The sparse Gram matrix is exactly symmetric.
  const Matrix S = SparseUnitRows(100, 4096, 40, 12);
  const Weights w = AttentionScorer({}, {}).Score(S, Scope::kProduct);
  ASSERT_EQ(w.gram.rows(), 100);
  for (Eigen::Index i = 0; i < 100; ++i) {
    for (Eigen::Index j = 0; j < 100; ++j) ASSERT_EQ(w.gram(i, j), w.gram(j, i)) << i << " " << j;
  }
}

// Rows like the combined embedder's (combined.h), a sparse lexical part beside a dense part, take
// the sparse product of the one and the dense product of the other; their sum is S S^T.
TEST(AttentionScorerTest, CombinedRowsGetTheDenseProductsUpToRounding) {
  ExpectTheDenseProductsUpToRounding([](Eigen::Index n) {
    const Matrix lexical = SparseUnitRows(n, 4096, 40, 13);
    const Matrix centre = RandomUnitRows(1, 512, 14);
    Matrix dense = RandomUnitRows(n, 512, 15);
    for (Eigen::Index i = 0; i < n; ++i) {
      dense.row(i) += centre.row(0);  // USE-lite's cosines of review sentences sit around 0.4
      dense.row(i).normalize();
    }
    Matrix S(n, 4096 + 512);
    S << std::sqrt(0.5f) * lexical, std::sqrt(0.5f) * dense;
    return S;
  });
}

TEST(AddLogitHeadTest, AddsANormalisedHeadAndKeepsTheMixesSummingToOne) {
  const Matrix S = ClusteredRows(7);
  const AttentionScorer scorer({}, TwoAnchors(S.cols()));
  Weights w = scorer.Score(S, Scope::kProduct);
  const Eigen::VectorXf before = w.final;
  Eigen::VectorXf logits = Eigen::VectorXf::Zero(S.rows());
  logits(3) = 2.f;
  AddLogitHead(&w, "salience", logits, 0.2f, 0.8f);
  ASSERT_EQ(w.head_names.back(), "salience");
  const Eigen::VectorXf head = w.per_head.col(w.per_head.cols() - 1);
  EXPECT_NEAR(head.sum(), 1.f, 1e-5f);
  Eigen::Index top = 0;
  head.maxCoeff(&top);
  EXPECT_EQ(top, 3);
  float mix = 0;
  for (float m : w.head_mix) mix += m;
  EXPECT_NEAR(mix, 1.f, 1e-5f);
  EXPECT_NEAR(w.final.sum(), 1.f, 1e-5f);
  EXPECT_NEAR(w.final(3), 0.8f * before(3) + 0.2f * head(3), 1e-6f);
}

TEST(AddLogitHeadTest, MixZeroExplainsWithoutChangingTheFinalWeights) {
  const Matrix S = ClusteredRows(7);
  Weights w = AttentionScorer({}, TwoAnchors(S.cols())).Score(S, Scope::kReview);
  const Eigen::VectorXf before = w.final;
  AddLogitHead(&w, "salience", Eigen::VectorXf::LinSpaced(S.rows(), -1.f, 1.f), 0.f, 0.8f);
  EXPECT_EQ(w.final, before);
  EXPECT_EQ(w.per_head.cols(), static_cast<Eigen::Index>(w.head_names.size()));
  EXPECT_THROW(AddLogitHead(&w, "x", Eigen::VectorXf::Zero(2), 0.f, 0.8f), std::invalid_argument);
}

}  // namespace
}  // namespace revsum
