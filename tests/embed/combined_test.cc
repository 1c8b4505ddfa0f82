// Specification of the combined embedder (include/revsum/combined.h), over two real lexical
// embedders that hash into different spaces (different seeds and widths).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "revsum/combined.h"
#include "revsum/lexical.h"
#include "revsum/use_lite.h"
#include "use_lite_test_support.h"

namespace revsum {
namespace {

const std::vector<std::string> kSentences = {
    "The battery lasts all day and charges fast.",
    "Battery life is great, it lasts two days.",
    "The screen scratches easily.",
    "电池很耐用，物流很快。",
    "Great price for a phone this good.",
};

LexicalOptions Second() {
  LexicalOptions o;
  o.dim = 512;
  o.seed = 0xBEEF;
  o.light_stem = false;
  return o;
}

TEST(CombinedEmbedderTest, CosineIsTheWeightedMixOfBothCosines) {
  LexicalEmbedder first, second(Second());
  const Matrix x = first.Embed(kSentences);
  const Matrix y = second.Embed(kSentences);
  for (float a : {0.f, 0.3f, 0.8f, 1.f}) {
    CombinedEmbedder combined(first, second, CombinedOptions{a});
    const Matrix c = combined.Embed(kSentences);
    ASSERT_EQ(c.cols(), x.cols() + y.cols());
    for (Eigen::Index i = 0; i < c.rows(); ++i) {
      for (Eigen::Index j = 0; j < c.rows(); ++j) {
        const float expected = a * x.row(i).dot(x.row(j)) + (1 - a) * y.row(i).dot(y.row(j));
        EXPECT_NEAR(c.row(i).dot(c.row(j)), expected, 1e-5f) << "a=" << a << " " << i << "," << j;
      }
    }
  }
}

TEST(CombinedEmbedderTest, RowsAreUnitLengthEvenWhenOneHalfIsZero) {
  LexicalEmbedder first, second(Second());
  CombinedEmbedder combined(first, second, CombinedOptions{0.8f});
  // "!!!" has no lexical features in either: an all-zero row stays zero.
  const Matrix c = combined.Embed({"Works great.", "!!!", ""});
  EXPECT_NEAR(c.row(0).norm(), 1.f, 1e-5f);
  EXPECT_EQ(c.row(1).norm(), 0.f);
  EXPECT_EQ(c.row(2).norm(), 0.f);
}

// The pairing the run pipeline uses: lexical finds no features in "!!!" or emoji, USE-lite
// still gives a row; the combined row is then USE-lite's alone, renormalised to unit length.
TEST(CombinedEmbedderTest, LexicalPlusUseLiteKeepsUnitRowsWhenLexicalSeesNothing) {
  UseLiteEmbedder* use_lite = testing::SharedUseLite();
  ASSERT_NE(use_lite, nullptr);
  LexicalEmbedder lexical;
  CombinedEmbedder combined(lexical, *use_lite, CombinedOptions{0.8f});
  const std::vector<std::string> texts = {"Battery life is great.", "!!!", "\xF0\x9F\x91\x8D"};
  const Matrix c = combined.Embed(texts);
  const Matrix y = use_lite->Embed(texts);
  ASSERT_EQ(c.cols(), 4096 + kUseLiteDim);
  for (Eigen::Index i = 0; i < c.rows(); ++i) EXPECT_NEAR(c.row(i).norm(), 1.f, 1e-5f) << i;
  // Rows without lexical features are exactly the USE-lite rows.
  EXPECT_NEAR(c.row(1).rightCols(kUseLiteDim).dot(y.row(1)), 1.f, 1e-5f);
  EXPECT_EQ(c.row(1).leftCols(4096).norm(), 0.f);
}

TEST(CombinedEmbedderTest, DimIsTheWidthOfEveryRowBeforeEmbedding) {
  LexicalEmbedder first, second(Second());
  CombinedEmbedder combined(first, second, CombinedOptions{0.8f});
  EXPECT_EQ(first.dim(), 4096);
  EXPECT_EQ(second.dim(), 512);
  EXPECT_EQ(combined.dim(), 4096 + 512);
  EXPECT_EQ(combined.Embed(kSentences).cols(), combined.dim());
  EXPECT_EQ(combined.Embed({}).cols(), combined.dim());
  UseLiteEmbedder* use_lite = testing::SharedUseLite();
  ASSERT_NE(use_lite, nullptr);
  EXPECT_EQ(use_lite->dim(), kUseLiteDim);
  EXPECT_EQ(use_lite->Embed(kSentences).cols(), use_lite->dim());
}

// EmbedRows takes the first embedder's rows (moved in) and runs the second on the listed rows
// only: with every row listed it is Embed; an unlisted row keeps its first half, renormalised.
TEST(CombinedEmbedderTest, EmbedRowsRunsTheSecondOnTheListedRowsOnly) {
  LexicalEmbedder first, second(Second());
  CombinedEmbedder combined(first, second, CombinedOptions{0.8f});
  const Matrix all = combined.Embed(kSentences);
  EXPECT_EQ(combined.EmbedRows(kSentences, first.Embed(kSentences), {0, 1, 2, 3, 4}), all);
  const Matrix x = first.Embed(kSentences);
  const Matrix some = combined.EmbedRows(kSentences, x, {0, 2});
  ASSERT_EQ(some.rows(), all.rows());
  ASSERT_EQ(some.cols(), all.cols());
  // The second embedder saw the listed rows alone (this one fits its IDF on what it is given).
  const Matrix y = second.Embed({kSentences[0], kSentences[2]});
  for (Eigen::Index k : {0, 1}) {
    const Eigen::Index i = 2 * k;
    EXPECT_NEAR(some.row(i).norm(), 1.f, 1e-5f) << i;
    EXPECT_NEAR(some.row(i).leftCols(4096).dot(x.row(i)), std::sqrt(0.8f), 1e-5f) << i;
    EXPECT_NEAR(some.row(i).rightCols(512).dot(y.row(k)), std::sqrt(0.2f), 1e-5f) << i;
  }
  for (Eigen::Index i : {1, 3, 4}) {
    EXPECT_EQ(some.row(i).rightCols(512).norm(), 0.f) << i;
    EXPECT_NEAR(some.row(i).leftCols(4096).dot(x.row(i)), 1.f, 1e-5f) << i;
  }
  EXPECT_THROW(combined.EmbedRows(kSentences, x, {2, 1}), std::invalid_argument);
  EXPECT_THROW(combined.EmbedRows(kSentences, x, {}), std::invalid_argument);
  EXPECT_THROW(combined.EmbedRows({"one"}, x, {0}), EmbedError);
}

// The embedders' output matrices: zero at every size, including those advised for huge pages.
TEST(ZeroMatrixTest, IsZeroAtEverySize) {
  for (const auto& [rows, cols] :
       {std::pair<Eigen::Index, Eigen::Index>{0, 0}, {3, 4}, {2048, 1024}, {4097, 1031}}) {
    const Matrix m = ZeroMatrix(rows, cols);
    ASSERT_EQ(m.rows(), rows);
    ASSERT_EQ(m.cols(), cols);
    EXPECT_TRUE((m.array() == 0.f).all()) << rows << " x " << cols;
  }
}

TEST(CombinedEmbedderTest, NameAndHashNameBothParts) {
  LexicalEmbedder first, second(Second());
  CombinedEmbedder combined(first, second, CombinedOptions{0.8f});
  EXPECT_EQ(combined.name(), "combined");
  EXPECT_THAT(combined.model_hash(), ::testing::StartsWith("combined:a=0.8:lexical="));
  EXPECT_THAT(combined.model_hash(), ::testing::HasSubstr("dim=512"));
}

TEST(CombinedEmbedderTest, ShareOutsideZeroOneIsRejected) {
  LexicalEmbedder first, second(Second());
  EXPECT_THROW(CombinedEmbedder(first, second, CombinedOptions{1.5f}), std::invalid_argument);
  EXPECT_THROW(CombinedEmbedder(first, second, CombinedOptions{-0.1f}), std::invalid_argument);
}

}  // namespace
}  // namespace revsum
