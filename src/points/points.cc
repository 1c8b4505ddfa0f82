// Points of a product scope (points.h): average linkage within each side, support, aspect and
// polarity.
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 GEMM kernels
// (-march=native builds), as in src/score/attention.cc.
#if !defined(__clang__)  // clang has neither false positive (nor the first flag)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "revsum/points.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/SparseCore>

#include "revsum/text.h"

namespace revsum {

namespace {

// The cluster space: S or its last `cols` columns, rows renormalised (zero rows stay zero).
// The cluster space: S or its last `cols` columns; with `centre`, minus `centre` times the mean
// of the non-zero rows; rows renormalised (zero rows stay zero).
Matrix ClusterSpace(const Matrix& S, int cols, float centre) {
  Matrix out = cols <= 0 || cols >= S.cols() ? S : Matrix(S.rightCols(cols));
  auto normalise = [&out] {
    for (Eigen::Index i = 0; i < out.rows(); ++i) {
      const float norm = out.row(i).norm();
      if (norm > 0) out.row(i) /= norm;
    }
  };
  normalise();
  if (centre > 0) {
    Eigen::RowVectorXf mean = Eigen::RowVectorXf::Zero(out.cols());
    Eigen::Index rows = 0;
    for (Eigen::Index i = 0; i < out.rows(); ++i) {
      if (out.row(i).squaredNorm() == 0) continue;
      mean += out.row(i);
      ++rows;
    }
    if (rows > 0) mean /= static_cast<float>(rows);
    for (Eigen::Index i = 0; i < out.rows(); ++i) {
      if (out.row(i).squaredNorm() > 0) out.row(i) -= centre * mean;
    }
    normalise();
  }
  return out;
}

// ClusterSpace of a sparse S (the lexical embedder's hashed word features), kept sparse: the
// normalised rows U, the mean m that centring takes off them and each row's u.m. Centred rows are
// dense, and their products took about half of summarising's CPU with --embedder lexical (4,096
// columns); the Gram matrix of any of them follows from U U^T and the dot products with m:
//   x_i.x_j = (u_i.u_j - c u_i.m - c u_j.m + c^2 m.m) / (|u_i - c m| |u_j - c m|),
// equal to ClusterSpace's rows' products up to rounding.
class SparseClusterSpace {
 public:
  // Empty when S (or its last `cols` columns) has more than one nonzero in kMaxDensity.
  static std::optional<SparseClusterSpace> Of(const Matrix& S, int cols, float centre) {
    const Eigen::Index width = cols <= 0 || cols >= S.cols() ? S.cols() : cols;
    const auto block = S.rightCols(width);
    // Count first (a dense S gives up after about an eighth of its rows), then build.
    Eigen::Index nonzeros = 0;
    for (Eigen::Index i = 0; i < S.rows(); ++i) {
      nonzeros += (block.row(i).array() != 0.0f).count();
      if (nonzeros * kMaxDensity > S.rows() * width) return {};
    }
    std::vector<Eigen::Triplet<float>> entries;
    entries.reserve(static_cast<size_t>(nonzeros));
    Eigen::RowVectorXf mean = Eigen::RowVectorXf::Zero(width);
    Eigen::Index rows = 0;
    for (Eigen::Index i = 0; i < S.rows(); ++i) {
      const float norm = block.row(i).norm();
      if (norm == 0) continue;
      for (Eigen::Index j = 0; j < width; ++j) {
        if (block(i, j) == 0) continue;
        entries.emplace_back(i, j, block(i, j) / norm);
        mean(j) += block(i, j) / norm;
      }
      ++rows;
    }
    SparseClusterSpace out;
    out.centre_ = centre;
    out.U_.resize(S.rows(), width);
    out.U_.setFromTriplets(entries.begin(), entries.end());
    if (rows > 0) mean /= static_cast<float>(rows);
    out.um_ = out.U_ * mean.transpose();
    out.mm_ = mean.squaredNorm();
    out.mean_ = std::move(mean);
    return out;
  }

  Eigen::Index cols() const { return U_.cols(); }

  // Whether row i is zero in the cluster space (ClusterSpace's zero rows).
  bool Empty(size_t row) const { return InverseNorm(row) == 0; }

  // sum += x_i, the row's centred and normalised vector s_i (u_i - c m).
  void AddTo(size_t row, Eigen::RowVectorXf& sum) const {
    const float s = InverseNorm(row);
    if (s == 0) return;
    for (Eigen::SparseMatrix<float, Eigen::RowMajor>::InnerIterator it(
             U_, static_cast<Eigen::Index>(row));
         it; ++it) {
      sum(it.col()) += s * it.value();
    }
    const float c = std::max(centre_, 0.0f);
    if (c > 0) sum -= (s * c) * mean_;
  }

  // x_i . v.
  float Dot(size_t row, const Eigen::RowVectorXf& v) const {
    const float s = InverseNorm(row);
    if (s == 0) return 0;
    float uv = 0;
    for (Eigen::SparseMatrix<float, Eigen::RowMajor>::InnerIterator it(
             U_, static_cast<Eigen::Index>(row));
         it; ++it) {
      uv += it.value() * v(it.col());
    }
    const float c = std::max(centre_, 0.0f);
    return s * (c > 0 ? uv - c * mean_.dot(v) : uv);
  }

  // The cluster-space Gram matrix of `rows` (rows of S).
  Matrix Gram(const std::vector<size_t>& rows) const {
    const auto k = static_cast<Eigen::Index>(rows.size());
    std::vector<Eigen::Triplet<float>> entries;
    for (Eigen::Index r = 0; r < k; ++r) {
      for (Eigen::SparseMatrix<float, Eigen::RowMajor>::InnerIterator it(
               U_, static_cast<Eigen::Index>(rows[static_cast<size_t>(r)]));
           it; ++it) {
        entries.emplace_back(r, it.col(), it.value());
      }
    }
    Eigen::SparseMatrix<float, Eigen::RowMajor> R(k, U_.cols());
    R.setFromTriplets(entries.begin(), entries.end());
    Matrix G = R * Matrix(R.transpose());
    if (centre_ <= 0) return G;
    const float c = centre_;
    Eigen::VectorXf a(k), inv(k);
    for (Eigen::Index r = 0; r < k; ++r) {
      const size_t row = rows[static_cast<size_t>(r)];
      a(r) = um_(static_cast<Eigen::Index>(row));
      inv(r) = InverseNorm(row);
    }
    for (Eigen::Index i = 0; i < k; ++i) {
      for (Eigen::Index j = 0; j < k; ++j) {
        G(i, j) = (G(i, j) - c * a(i) - c * a(j) + c * c * mm_) * inv(i) * inv(j);
      }
    }
    return G;
  }

  // The products of groups' means in the cluster space: entry (g, h) is the dot product of the
  // mean of the rows a[g] with the mean of the rows b[h] (rows of S, no list empty), equal to the
  // product of the dense means up to rounding. A centred row is x_i = s_i (u_i - c m) with
  // s_i = 1 / |u_i - c m|, so a group's mean is (sum of s_i u_i - c m sum of s_i) / size: a sparse
  // row and two numbers.
  Matrix MeanProducts(const std::vector<const std::vector<size_t>*>& a,
                      const std::vector<const std::vector<size_t>*>& b) const {
    const GroupMeans ma = MeansOf(a), mb = MeansOf(b);
    Matrix P = ma.rows * Matrix(mb.rows.transpose());
    const float c = std::max(centre_, 0.0f);
    for (Eigen::Index h = 0; h < P.cols(); ++h) {
      for (Eigen::Index g = 0; g < P.rows(); ++g) {
        P(g, h) += c * (c * ma.scale(g) * mb.scale(h) * mm_ - mb.scale(h) * ma.dot_mean(g) -
                        ma.scale(g) * mb.dot_mean(h));
      }
    }
    return P;
  }

 private:
  // Groups' means as MeanProducts takes them: rows(g) = sum of s_i u_i / size, scale(g) = sum of
  // s_i / size and dot_mean(g) = rows(g).m.
  struct GroupMeans {
    Eigen::SparseMatrix<float, Eigen::RowMajor> rows;
    Eigen::VectorXf scale, dot_mean;
  };

  GroupMeans MeansOf(const std::vector<const std::vector<size_t>*>& groups) const {
    const auto k = static_cast<Eigen::Index>(groups.size());
    GroupMeans out;
    out.scale = Eigen::VectorXf::Zero(k);
    out.dot_mean = Eigen::VectorXf::Zero(k);
    std::vector<Eigen::Triplet<float>> entries;
    for (Eigen::Index g = 0; g < k; ++g) {
      const std::vector<size_t>& members = *groups[static_cast<size_t>(g)];
      const float size = static_cast<float>(members.size());
      for (size_t row : members) {
        const float s = InverseNorm(row) / size;
        for (Eigen::SparseMatrix<float, Eigen::RowMajor>::InnerIterator it(
                 U_, static_cast<Eigen::Index>(row));
             it; ++it) {
          entries.emplace_back(g, it.col(), s * it.value());
        }
        out.scale(g) += s;
        out.dot_mean(g) += s * um_(static_cast<Eigen::Index>(row));
      }
    }
    out.rows.resize(k, U_.cols());
    out.rows.setFromTriplets(entries.begin(), entries.end());  // sums repeated columns
    return out;
  }

  // s_i: 1 / |u_i - c m| (1 uncentred), 0 for an empty row (ClusterSpace leaves it zero).
  float InverseNorm(size_t row) const {
    const float c = std::max(centre_, 0.0f);
    const float norm2 = 1.0f - 2.0f * c * um_(static_cast<Eigen::Index>(row)) + c * c * mm_;
    const bool nonzero = U_.outerIndexPtr()[row + 1] > U_.outerIndexPtr()[row];
    return nonzero && norm2 > 0 ? 1.0f / std::sqrt(norm2) : 0.0f;
  }

  static constexpr Eigen::Index kMaxDensity = 8;
  Eigen::SparseMatrix<float, Eigen::RowMajor> U_;  // compressed (setFromTriplets)
  Eigen::VectorXf um_;
  Eigen::RowVectorXf mean_;  // m
  float mm_ = 0, centre_ = 0;
};

constexpr Eigen::Index kMaxRowSpaceRows = 160;
constexpr float kTypicalTie = 1e-4f;

// A face is no longer than this percentile of its point's member lengths, in points of at least
// kFaceLengthMinMembers candidates.
constexpr size_t kFaceLengthPercentile = 50;
constexpr size_t kFaceLengthMinMembers = 5;

// Coordinates of the rows of X in a space of X.rows() dimensions with the same dot products
// (up to rounding): every similarity the clustering takes is a dot product of rows or of sums of
// rows, and those depend only on the Gram matrix G = X X^T, which the rows of any C with
// C C^T = G reproduce. C comes from a Cholesky factorisation with diagonal pivoting that stops
// once what is left of the diagonal is below kRankTolerance of the largest: G is semidefinite
// (repeated or centred rows make it singular), and an unpivoted or LDL^T factorisation divides
// by rounding-sized pivots there. For a small product in a wide embedding (100 sentences x 4,096
// lexical dimensions) one n x n x d product replaces the n x K x d products of every round. (An
// eigendecomposition gives such coordinates too but costs ten times as much: a tenth of a lexical
// run on 20-review products.) Zero rows stay exactly zero (they join no point).
Matrix RowSpaceCoordinates(const Eigen::MatrixXd& gram) {
  constexpr double kRankTolerance = 1e-12;
  const Eigen::Index n = gram.rows();
  // Row-major: each new entry is a dot product of two rows' first k entries.
  using RowMajorXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajorXd c = RowMajorXd::Zero(n, n);
  Eigen::VectorXd left = gram.diagonal();  // G_ii minus what the columns so far explain
  std::vector<Eigen::Index> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const double largest = n > 0 ? left.maxCoeff() : 0.0;
  for (Eigen::Index k = 0; k < n; ++k) {
    auto best = order.begin() + k;
    for (auto it = best; it != order.end(); ++it) {
      if (left(*it) > left(*best)) best = it;
    }
    std::iter_swap(order.begin() + k, best);
    const Eigen::Index p = order[static_cast<size_t>(k)];
    if (!(left(p) > kRankTolerance * largest)) break;
    const double pivot = std::sqrt(left(p));
    c(p, k) = pivot;
    for (auto it = order.begin() + k + 1; it != order.end(); ++it) {
      const Eigen::Index i = *it;
      const double v = (gram(i, p) - c.row(i).head(k).dot(c.row(p).head(k))) / pivot;
      c(i, k) = v;
      left(i) -= v * v;
    }
  }
  Matrix out = c.cast<float>();
  for (Eigen::Index i = 0; i < gram.rows(); ++i) {
    if (gram(i, i) == 0) out.row(i).setZero();
  }
  return out;
}

// The Gram matrix of ClusterSpace(S, 0, centre) from G = S S^T alone: rows normalised
// (G_ij / |S_i| |S_j|), minus `centre` times the mean m of the non-zero rows
// (G_ij - c a_i - c a_j + c^2 |m|^2 with a_i = S_i . m), normalised again. Zero rows stay zero.
Eigen::MatrixXd ClusterSpaceGram(const Matrix& G, float centre) {
  const Eigen::Index n = G.rows();
  Eigen::MatrixXd g = G.cast<double>();
  Eigen::VectorXd norm(n);
  for (Eigen::Index i = 0; i < n; ++i) norm(i) = g(i, i) > 0 ? std::sqrt(g(i, i)) : 0.0;
  auto normalise = [&] {
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < n; ++j)
        g(i, j) = norm(i) > 0 && norm(j) > 0 ? g(i, j) / (norm(i) * norm(j)) : 0.0;
    }
  };
  normalise();
  if (centre > 0) {
    std::vector<Eigen::Index> live;
    for (Eigen::Index i = 0; i < n; ++i)
      if (norm(i) > 0) live.push_back(i);
    if (!live.empty()) {
      const double count = static_cast<double>(live.size());
      Eigen::VectorXd a = Eigen::VectorXd::Zero(n);  // S_i . m
      for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j : live) a(i) += g(i, j);
        a(i) /= count;
      }
      double mm = 0;  // |m|^2
      for (Eigen::Index j : live) mm += a(j);
      mm /= count;
      const double c = centre;
      for (Eigen::Index i : live) {
        for (Eigen::Index j : live) g(i, j) += -c * a(i) - c * a(j) + c * c * mm;
      }
      for (Eigen::Index i = 0; i < n; ++i) norm(i) = g(i, i) > 0 ? std::sqrt(g(i, i)) : 0.0;
      normalise();
    }
  }
  return g;
}

// A sentence without the number of the list item it opens ("2.屏幕颜色过渡柔和", "3、配置两电两充",
// "1) Great sound"): 1-2 digits and '.', '、' or ')' (ASCII or full-width ）), then spaces, before
// more text that does not start with a digit ("2.0版本" is not an item).
std::string WithoutListNumber(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && i < 2 && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == 0) return text;
  size_t after = i;
  if (after < text.size() && (text[after] == '.' || text[after] == ')')) {
    ++after;
  } else if (text.compare(after, 3, "\xE3\x80\x81") == 0 ||
             text.compare(after, 3, "\xEF\xBC\x89") == 0) {
    after += 3;  // 、 or ）
  } else {
    return text;
  }
  while (after < text.size() && text[after] == ' ') ++after;
  if (after >= text.size() || (text[after] >= '0' && text[after] <= '9')) return text;
  return text.substr(after);
}

// Whether a sentence has the form of a claim (points.h, "Faces"): not a question (its last mark,
// after closing quotes, brackets, spaces and '.', '!', '~', is '?' or '？', or what is left ends
// with the question particle 吗) and no hashtag ('#' before a letter or a non-ASCII character;
// "the #1 choice" stays).
bool ClaimForm(std::string_view text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    const unsigned char next = static_cast<unsigned char>(text[i + 1]);
    if (text[i] == '#' && (std::isalpha(next) || next >= 0x80)) return false;
  }
  static constexpr std::string_view kTrailing[] = {" ",
                                                   "\"",
                                                   "'",
                                                   ")",
                                                   "]",
                                                   ".",
                                                   "!",
                                                   "~",
                                                   "\xE3\x80\x82" /* 。 */,
                                                   "\xEF\xBC\x81" /* ！ */,
                                                   "\xEF\xBC\x89" /* ） */,
                                                   "\xEF\xBD\x9E" /* ～ */,
                                                   "\xE2\x80\x9D" /* ” */,
                                                   "\xE3\x80\x8D" /* 」 */};
  for (bool trimmed = true; trimmed && !text.empty();) {
    trimmed = false;
    for (std::string_view t : kTrailing) {
      if (text.ends_with(t)) {
        text.remove_suffix(t.size());
        trimmed = true;
      }
    }
  }
  return !text.ends_with("?") && !text.ends_with("\xEF\xBC\x9F" /* ？ */) &&
         !text.ends_with("\xE5\x90\x97" /* 吗 */);
}

// `lift`: the mean normalised rating of the point's rated reviews minus that of the scope's rated
// reviews outside it, each review once; none when either side has no rated review (the ratings
// cannot then tell the point from the rest).
Polarity Decide(const Point& p, const PointsOptions& o, double rated_share,
                std::optional<double> lift) {
  if (p.lexicon_coverage >= o.lexicon_min_coverage &&
      std::abs(p.lexicon) >= o.lexicon_min_agreement * p.lexicon_coverage) {
    // Said by a minority of the point's weight: the ratings, when there are any, must agree.
    const double side = p.lexicon > 0 ? 1 : -1;
    if (p.lexicon_coverage < o.lexicon_minority_coverage && p.rating && rated_share >= 0.5 &&
        (!lift || side * *lift < o.rating_min_lift))
      return Polarity::kNeutral;
    return p.lexicon > 0 ? Polarity::kPraise : Polarity::kComplaint;
  }
  if (p.rating && rated_share >= 0.5) {
    if (!lift) return Polarity::kNeutral;
    if (*p.rating >= o.rating_min_mean && *lift >= o.rating_min_lift) return Polarity::kPraise;
    if (*p.rating <= -o.rating_min_mean && *lift <= -o.rating_min_lift) return Polarity::kComplaint;
    return Polarity::kNeutral;
  }
  return Polarity::kUnknown;
}

// The learned space with each sentence's aspects (PolarityLexicon::Aspects) appended: row i
// becomes [x_i, g a_i] renormalised, a_i the indicator of its aspects scaled to unit length (zero
// when it names none); a zero x_i (no vocabulary unit) stays zero, so it still joins no point by
// its aspect alone. Cosines: PointsOptions::learned_aspect_weight.
Matrix WithAspects(const Matrix& X, const std::vector<std::vector<int>>& named, size_t k_aspects,
                   float g) {
  const Eigen::Index d = X.cols();
  const Eigen::Index k = static_cast<Eigen::Index>(k_aspects);
  if (k == 0) return X;
  Matrix out = Matrix::Zero(X.rows(), d + k);
  out.leftCols(d) = X;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    if (X.row(i).isZero()) continue;
    const std::vector<int>& aspects = named[static_cast<size_t>(i)];
    for (int a : aspects) out(i, d + a) = g / std::sqrt(static_cast<float>(aspects.size()));
    const float norm = out.row(i).norm();
    if (norm > 0) out.row(i) /= norm;
  }
  return out;
}

// Average linkage over the rows of a similarity matrix, cut at `cut`: the groups whose mean
// pairwise similarity is at least `cut` and which no further merge at that level would join. By
// nearest-neighbour chains (Murtagh 1983): average linkage is reducible (a merged group is never
// nearer to a third than the nearer of its parts), so reciprocal nearest neighbours may merge in
// any order and give the dendrogram of the global order; a group whose nearest neighbour is below
// the cut is final. O(m^2) time, the m x m matrix in place (Lance-Williams updates). Ties go to
// the lower index, so the result depends only on the matrix.
std::vector<std::vector<size_t>> AverageLinkage(Matrix similarities, float cut) {
  if (similarities.rows() != similarities.cols()) {
    throw std::invalid_argument("AverageLinkage: the similarity matrix is not square");
  }
  // The row-major buffer read in place column by column (the chain scans a column contiguously):
  // that is the transpose, sim(i, j) = similarities(j, i), and the same matrix once symmetric.
  // Converting it to a column-major copy instead read every float with a stride of a row, about
  // half of ClusterSample's time on a 2,000-sentence side.
  Eigen::Map<Eigen::MatrixXf> sim(similarities.data(), similarities.rows(), similarities.cols());
  const size_t m = static_cast<size_t>(sim.rows());
  // A product's two halves may round differently: the chain needs sim(a, b) == sim(b, a), or
  // its similarities need not rise along it and it could cycle. Both take similarities(a, b) for
  // a < b (the upper triangle of the matrix as given, which is the lower one of this view).
  // (In tiles, so that the transposed reads stay in cache.)
  constexpr Eigen::Index kTile = 64;
  for (Eigen::Index j0 = 0; j0 < sim.cols(); j0 += kTile) {
    for (Eigen::Index i0 = j0; i0 < sim.rows(); i0 += kTile) {
      for (Eigen::Index j = j0; j < std::min(j0 + kTile, sim.cols()); ++j)
        for (Eigen::Index i = std::max(i0, j + 1); i < std::min(i0 + kTile, sim.rows()); ++i)
          sim(j, i) = sim(i, j);
    }
  }
  std::vector<std::vector<size_t>> groups(m);
  for (size_t i = 0; i < m; ++i) groups[i] = {i};
  // The groups that may still merge, ascending: a group leaves when it is merged away or final.
  // Only these are scanned and updated, so each round costs what is left.
  std::vector<size_t> open(m);
  std::iota(open.begin(), open.end(), size_t{0});
  auto close = [&](size_t g) { open.erase(std::lower_bound(open.begin(), open.end(), g)); };
  // The nearest open group to `a`; on a tie the group before it on the chain (`prev`), so that
  // equal similarities cannot make the chain cycle.
  auto nearest = [&](size_t a, size_t prev) {
    size_t best = prev;
    float best_sim = prev < m ? sim(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(prev))
                              : -std::numeric_limits<float>::infinity();
    const float* column = sim.col(static_cast<Eigen::Index>(a)).data();
    for (size_t b : open) {
      if (b == a || b == prev) continue;
      if (column[b] > best_sim) best_sim = column[b], best = b;
    }
    return std::pair{best, best_sim};
  };
  std::vector<size_t> chain;
  while (open.size() > 1) {
    if (chain.empty()) chain.push_back(open.front());
    const size_t a = chain.back();
    const auto [b, s] = nearest(a, chain.size() >= 2 ? chain[chain.size() - 2] : m);
    if (b == m || s < cut) {  // nothing reaches `a` at the cut: final
      close(a);
      chain.pop_back();
      continue;
    }
    if (chain.size() < 2 || chain[chain.size() - 2] != b) {
      // Similarities rise strictly along the chain, so it never holds a group twice.
      if (chain.size() >= m) throw std::logic_error("AverageLinkage: the chain cycles");
      chain.push_back(b);
      continue;
    }
    chain.pop_back();
    chain.pop_back();
    const auto keep = static_cast<Eigen::Index>(std::min(a, b));
    const auto gone = static_cast<Eigen::Index>(std::max(a, b));
    const float na = static_cast<float>(groups[static_cast<size_t>(keep)].size());
    const float nb = static_cast<float>(groups[static_cast<size_t>(gone)].size());
    // Only open groups read a similarity again (a final group never merges).
    for (size_t k : open) {
      const auto kk = static_cast<Eigen::Index>(k);
      const float v = (na * sim(kk, keep) + nb * sim(kk, gone)) / (na + nb);
      sim(keep, kk) = v;
      sim(kk, keep) = v;
    }
    std::vector<size_t>& into = groups[static_cast<size_t>(keep)];
    std::vector<size_t>& from = groups[static_cast<size_t>(gone)];
    into.insert(into.end(), from.begin(), from.end());
    from.clear();
    close(static_cast<size_t>(gone));
  }
  std::vector<std::vector<size_t>> out;
  for (std::vector<size_t>& g : groups) {
    if (g.empty()) continue;
    std::sort(g.begin(), g.end());
    out.push_back(std::move(g));
  }
  return out;
}

// One product scope's points (points.h, header comment), step by step.
class PointFinder {
 public:
  PointFinder(const PointsInput& in, const PolarityLexicon& lexicon, const PointsOptions& o)
      : in_(in), lexicon_(lexicon), o_(o), texts_(*in.texts), w_(*in.weights), n_(texts_.size()) {}

  std::vector<Point> Run() {
    if (n_ == 0) return {};
    NameAspects();
    ChooseSpace();
    AssignSides();
    const std::vector<std::vector<size_t>> sides = Sides();
    std::vector<std::vector<Group>> clusters;
    for (const std::vector<size_t>& side : sides) clusters.push_back(ClusterSample(side));
    FoldRatedIntoUnsigned(clusters);
    FoldUnsignedIntoSigned(clusters);
    for (size_t k = 0; k < sides.size(); ++k)
      JoinRest(sides[k], KeepSupported(std::move(clusters[k])));
    std::vector<Point> points;
    for (Group& g : groups_) {
      if (std::optional<Point> p = Describe(g)) points.push_back(std::move(*p));
    }
    return Order(std::move(points));
  }

 private:
  struct Group {
    std::vector<size_t> members;  // rows of the scope
    Eigen::RowVectorXf sum;       // of the members' cluster-space rows
  };

  // 0. The aspects each sentence names (PolarityLexicon::Aspects), for the learned space and
  // rule 3.
  void NameAspects() {
    named_.resize(n_);
    named_in_scope_.assign(lexicon_.aspect_names().size(), 0);
    for (size_t i = 0; i < n_; ++i) {
      named_[i] = lexicon_.Aspects(texts_[i]);
      for (int k : named_[i]) ++named_in_scope_[static_cast<size_t>(k)];
    }
  }

  // 1. The cluster space X and its cut (points.h, "Cosine is taken in the cluster space").
  void ChooseSpace() {
    std::string joined;
    for (const std::string& t : texts_) (joined += t) += ' ';
    learned_ = CjkFraction(joined) >= o_.learned_min_cjk;
    small_ = !learned_ && in_.review_count <= o_.small_scope_reviews;
    const float centre = small_ ? std::max(o_.centre, o_.small_scope_centre) : o_.centre;
    // Few rows in a wide space: the same dot products in n dimensions (RowSpaceCoordinates), from
    // the scorer's S S^T (Weights::gram) when it is there.
    const Eigen::Index width =
        learned_ ? o_.learned.dimensions
        : o_.cluster_columns <= 0
            ? in_.embeddings->cols()
            : std::min<Eigen::Index>(o_.cluster_columns, in_.embeddings->cols());
    const bool row_space = !learned_ && static_cast<Eigen::Index>(n_) <= kMaxRowSpaceRows &&
                           static_cast<Eigen::Index>(n_) * 8 <= width;
    const bool from_gram = row_space && width == in_.embeddings->cols() &&
                           w_.gram.rows() == static_cast<Eigen::Index>(n_);
    if (learned_) {
      X_ = LearnedSentenceVectors(texts_, o_.learned,
                                  [this](std::string_view u) { return lexicon_.Score(u) != 0; });
      if (o_.learned_aspect_weight > 0)
        X_ = WithAspects(X_, named_, lexicon_.aspect_names().size(), o_.learned_aspect_weight);
    } else if (from_gram) {
      X_ = RowSpaceCoordinates(ClusterSpaceGram(w_.gram, centre));
    } else {
      // Sparse rows (lexical) are the space themselves: no dense n x 4,096 copy (40 % of a
      // large hotel's peak with --embedder lexical).
      if (!row_space) sparse_ = SparseClusterSpace::Of(*in_.embeddings, o_.cluster_columns, centre);
      if (!sparse_) {
        X_ = ClusterSpace(*in_.embeddings, o_.cluster_columns, centre);
        if (row_space) X_ = RowSpaceCoordinates((X_ * X_.transpose()).cast<double>());
      }
    }
    cut_ = learned_ ? o_.learned_threshold : small_ ? o_.small_scope_threshold : o_.threshold;
  }

  // 2. Each sentence's side: its opinion (PointsInput::opinions) or the word lists' sign; an
  // unsigned sentence of a clearly rated review (|v| >= rated_side) takes that rating's side.
  void AssignSides() {
    sign_.resize(n_);
    side_.resize(n_);
    const bool scored = in_.opinions.size() == n_;
    sentences_of_.assign(in_.review_count, 0);
    for (size_t r : in_.review_of) ++sentences_of_[r];
    for (size_t i = 0; i < n_; ++i) {
      if (scored) {
        sign_[i] = (in_.opinions[i] >= in_.opinion_band) - (in_.opinions[i] <= -in_.opinion_band);
      } else {
        const int s = lexicon_.Score(texts_[i]);
        sign_[i] = (s > 0) - (s < 0);
      }
      side_[i] = sign_[i];
      const size_t r = in_.review_of[i];
      if (sign_[i] == 0 && r < in_.ratings.size() && in_.ratings[r] &&
          Salience(i) >= o_.rated_side_salience) {
        const double v = in_.scale.Normalise(*in_.ratings[r]);
        side_[i] = (v >= o_.rated_side) - (v <= -o_.rated_side);
      }
    }
    for (const std::optional<double>& r : in_.ratings) {
      if (!r) continue;
      rating_sum_ += in_.scale.Normalise(*r);
      ++rated_reviews_;
    }
  }

  // Sentence i's share of its review's verdict (PointsInput::salience; without it, 1 for a
  // review's only sentence).
  float Salience(size_t i) const {
    if (in_.salience.size() == n_) return in_.salience[i];
    return sentences_of_[in_.review_of[i]] == 1 ? 1.0f : 0.0f;
  }

  // The sentences of each side: complaint, neither, praise (in that order, each in scope order,
  // possibly empty); zero rows (no cluster-space vector) join no point.
  std::vector<std::vector<size_t>> Sides() const {
    std::vector<std::vector<size_t>> sides(3);
    for (size_t i = 0; i < n_; ++i) {
      if (EmptyRow(i)) continue;
      sides[static_cast<size_t>(side_[i] + 1)].push_back(i);
    }
    return sides;
  }

  // The cluster space's rows, from X_ or from the sparse rows (sparse_, when X_ is not made).
  Eigen::Index Width() const { return sparse_ ? sparse_->cols() : X_.cols(); }
  bool EmptyRow(size_t i) const {
    return sparse_ ? sparse_->Empty(i) : X_.row(static_cast<Eigen::Index>(i)).squaredNorm() == 0;
  }
  void AddRow(size_t i, Eigen::RowVectorXf& sum) const {
    if (sparse_) {
      sparse_->AddTo(i, sum);
    } else {
      sum += X_.row(static_cast<Eigen::Index>(i));
    }
  }
  float RowDot(size_t i, const Eigen::RowVectorXf& v) const {
    return sparse_ ? sparse_->Dot(i, v) : X_.row(static_cast<Eigen::Index>(i)).dot(v);
  }

  Group MakeGroup(std::vector<size_t> members) const {
    Group g{std::move(members), Eigen::RowVectorXf::Zero(Width())};
    for (size_t i : g.members) AddRow(i, g.sum);
    return g;
  }

  // The groups' member means, a row each: the dot product of two rows is the groups' average
  // linkage (their mean cosine over pairs of members).
  Matrix Means(const std::vector<Group>& groups) const {
    Matrix means(static_cast<Eigen::Index>(groups.size()), Width());
    for (size_t k = 0; k < groups.size(); ++k) {
      means.row(static_cast<Eigen::Index>(k)) =
          groups[k].sum / static_cast<float>(groups[k].members.size());
    }
    return means;
  }

  // The average linkage of each of a's groups with each of b's: the products of their means
  // (from the sparse rows when the space has them: thousands of groups of 4,096 columns).
  Matrix Linkages(const std::vector<Group>& a, const std::vector<Group>& b) const {
    if (!sparse_) return Means(a) * Means(b).transpose();
    return sparse_->MeanProducts(MemberLists(a), MemberLists(b));
  }

  // The linkage of each of the rows [begin, end) of `rows` with each group (a row of the result
  // per row): from the sparse rows, or as the dense `means` (Means(groups)) times each row.
  Matrix LinkagesOfRows(const std::vector<Group>& groups, const Matrix& means,
                        const std::vector<size_t>& rows, size_t begin, size_t end) const {
    if (sparse_) {
      std::vector<std::vector<size_t>> singles;
      for (size_t k = begin; k < end; ++k) singles.push_back({rows[k]});
      std::vector<const std::vector<size_t>*> lists;
      for (const std::vector<size_t>& one : singles) lists.push_back(&one);
      return sparse_->MeanProducts(MemberLists(groups), lists).transpose();
    }
    Matrix out(static_cast<Eigen::Index>(end - begin), means.rows());
    for (size_t k = begin; k < end; ++k) {
      const Eigen::VectorXf sims = means * X_.row(static_cast<Eigen::Index>(rows[k])).transpose();
      out.row(static_cast<Eigen::Index>(k - begin)) = sims.transpose();
    }
    return out;
  }

  static std::vector<const std::vector<size_t>*> MemberLists(const std::vector<Group>& groups) {
    std::vector<const std::vector<size_t>*> out;
    for (const Group& g : groups) out.push_back(&g.members);
    return out;
  }

  static void Absorb(Group& into, const Group& from) {
    into.members.insert(into.members.end(), from.members.begin(), from.members.end());
    std::sort(into.members.begin(), into.members.end());
    into.sum += from.sum;
  }

  // 3. Average linkage over the side's sentences, or over an even sample of max_cluster_sentences
  // of them in a bigger side (the rest join in JoinRest). Groups as rows of the scope.
  std::vector<Group> ClusterSample(const std::vector<size_t>& side) const {
    if (side.empty()) return {};
    const size_t m = SampleSize(side);
    std::vector<size_t> sample(m);
    for (size_t k = 0; k < m; ++k) sample[k] = side[k * side.size() / m];
    Matrix sim;
    if (sparse_) {
      sim = sparse_->Gram(sample);
    } else {
      Matrix rows(static_cast<Eigen::Index>(m), X_.cols());
      for (size_t k = 0; k < m; ++k)
        rows.row(static_cast<Eigen::Index>(k)) = X_.row(static_cast<Eigen::Index>(sample[k]));
      sim = rows * rows.transpose();
    }
    std::vector<Group> groups;
    for (std::vector<size_t>& g : AverageLinkage(std::move(sim), cut_)) {
      for (size_t& k : g) k = sample[k];
      groups.push_back(MakeGroup(std::move(g)));
    }
    return groups;
  }

  // 4. A group of praise or complaint made mostly of unsigned sentences (sided by their reviews'
  // ratings alone) joins the unsigned group it is linked to at the cut, if any: a statement made
  // in reviews of every rating is no argument of one side, however its one-sentence reviews were
  // rated ("This replaced an old radio I had for years.", alone in a 5-star review and among
  // other sentences in 2-star ones).
  void FoldRatedIntoUnsigned(std::vector<std::vector<Group>>& clusters) const {
    std::vector<Group>& unsigned_groups = clusters[1];
    if (unsigned_groups.empty()) return;
    const Matrix means = Means(unsigned_groups);
    for (const size_t side : {size_t{0}, size_t{2}}) {
      std::erase_if(clusters[side], [&](const Group& g) {
        size_t signed_members = 0;
        for (size_t i : g.members) signed_members += sign_[i] != 0;
        if (2 * signed_members >= g.members.size()) return false;
        const Eigen::VectorXf links =
            means * (g.sum / static_cast<float>(g.members.size())).transpose();
        Eigen::Index best = 0;
        if (links.maxCoeff(&best) < cut_) return false;
        Absorb(unsigned_groups[static_cast<size_t>(best)], g);
        return true;
      });
    }
  }

  // 5. An unsigned group linked at the cut to groups of one side only joins its most linked group
  // there: the same claim, in words the opinion model could not sign ("屏幕显示细腻" beside
  // "屏幕很清晰,非常满意"). Linked to both sides, or to none, it stays apart.
  void FoldUnsignedIntoSigned(std::vector<std::vector<Group>>& clusters) const {
    // All linkages in two products (the sides hold thousands of groups, most of one sentence).
    const Matrix to_complaint = Linkages(clusters[1], clusters[0]);
    const Matrix to_praise = Linkages(clusters[1], clusters[2]);
    Eigen::Index row = 0;
    std::erase_if(clusters[1], [&](const Group& g) {
      const Eigen::Index r = row++;
      Eigen::Index bc = -1, bp = -1;
      const float lc = to_complaint.cols() ? to_complaint.row(r).maxCoeff(&bc) : -1.0f;
      const float lp = to_praise.cols() ? to_praise.row(r).maxCoeff(&bp) : -1.0f;
      if ((lc >= cut_) == (lp >= cut_)) return false;
      Absorb(
          lc >= cut_ ? clusters[0][static_cast<size_t>(bc)] : clusters[2][static_cast<size_t>(bp)],
          g);
      return true;
    });
  }

  // 6. The groups said by enough reviews: at least min_support, and min_share of the scope's
  // reviews. The others say no shared claim; their sentences join no point.
  std::vector<Group> KeepSupported(std::vector<Group> groups) const {
    const size_t need = std::max<size_t>(
        o_.min_support,
        static_cast<size_t>(std::ceil(o_.min_share * static_cast<double>(in_.review_count))));
    std::erase_if(groups, [&](const Group& g) { return Support(g.members) < need; });
    return groups;
  }

  // 7. The side's sentences outside the sample join the group whose members they are most
  // similar to on average (the dot product with the members' mean: the linkage of a one-sentence
  // group) when that is at least the cut, as average linkage would have joined them.
  void JoinRest(const std::vector<size_t>& side, std::vector<Group> kept) {
    const size_t m = SampleSize(side);
    if (!kept.empty() && side.size() > m) {
      std::vector<bool> placed(n_, false);
      for (size_t k = 0; k < m; ++k) placed[side[k * side.size() / m]] = true;
      std::vector<size_t> rest;
      for (size_t i : side) {
        if (!placed[i]) rest.push_back(i);
      }
      // Linked to the groups as sampled: members join after every row is linked.
      const Matrix means = sparse_ ? Matrix() : Means(kept);
      std::vector<Eigen::Index> best(rest.size(), -1);
      for (size_t begin = 0; begin < rest.size(); begin += kJoinBlock) {
        const size_t end = std::min(rest.size(), begin + kJoinBlock);
        const Matrix sims = LinkagesOfRows(kept, means, rest, begin, end);
        for (size_t k = begin; k < end; ++k) {
          Eigen::Index at = -1;
          if (sims.row(static_cast<Eigen::Index>(k - begin)).maxCoeff(&at) >= cut_) best[k] = at;
        }
      }
      for (size_t k = 0; k < rest.size(); ++k) {
        if (best[k] >= 0) kept[static_cast<size_t>(best[k])].members.push_back(rest[k]);
      }
      for (Group& g : kept) std::sort(g.members.begin(), g.members.end());
    }
    for (Group& g : kept) {
      g.sum.setZero();
      for (size_t i : g.members) AddRow(i, g.sum);
      groups_.push_back(std::move(g));
    }
  }

  static constexpr size_t kJoinBlock = 1024;  // rows JoinRest links at once

  // How many of a side's sentences ClusterSample takes (evenly spread: side[k * size / m]).
  size_t SampleSize(const std::vector<size_t>& side) const {
    return std::min(side.size(), std::max<size_t>(o_.max_cluster_sentences, 1));
  }

  size_t Support(const std::vector<size_t>& rows) const {
    std::set<size_t> reviews;
    for (size_t i : rows) reviews.insert(in_.review_of[i]);
    return reviews.size();
  }

  bool Fragment(size_t i) const { return o_.is_fragment && o_.is_fragment(texts_[i]); }
  // Whether sentence i can be a face: no fragment, and in the form of a claim (ClaimForm).
  bool CanFace(size_t i) const { return !Fragment(i) && ClaimForm(texts_[i]); }

  // The face among the members that `can` show it, CanFace and no longer than their
  // median (in bytes) with the highest cosine to the centroid plus face_weight times its
  // attention relative to the scope's mean (the most typical wording of a typical length that the
  // scorer also weighs; long sentences listing many things sit near a broad point's centre). Ties
  // (within kTypicalTie) go to the earlier sentence. kNone when no member qualifies.
  static constexpr size_t kNone = SIZE_MAX;
  template <typename Can>
  size_t TypicalFace(const std::vector<PointMember>& ms, const Can& can) const {
    std::vector<size_t> sizes;
    for (const PointMember& m : ms)
      if (CanFace(m.index) && can(m.index)) sizes.push_back(texts_[m.index].size());
    if (sizes.empty()) return kNone;
    const size_t at = (sizes.size() - 1) * kFaceLengthPercentile / 100;
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(at), sizes.end());
    const size_t cap = sizes.size() >= kFaceLengthMinMembers ? sizes[at] : SIZE_MAX;
    size_t face = kNone;
    float face_sim = 0;
    // The learned (CJK) space keeps the nearest to the centroid (PointsOptions::face_weight).
    const float face_weight = learned_ ? 0.0f : o_.face_weight;
    for (const PointMember& m : ms) {
      if (!CanFace(m.index) || !can(m.index) || texts_[m.index].size() > cap) continue;
      const float score = m.similarity + face_weight * static_cast<float>(n_) *
                                             w_.final(static_cast<Eigen::Index>(m.index));
      if (face == kNone || score > face_sim + kTypicalTie ||
          (score >= face_sim - kTypicalTie && m.index < face)) {
        face = m.index;
        face_sim = score;
      }
    }
    return face;
  }

  // 8. A group as a point: members by their cosine to the centroid, the face, support and share,
  // polarity (rule 4) and aspect (rule 3). None when no member can be its face (questions,
  // hashtags and fragments alone state no claim).
  std::optional<Point> Describe(const Group& g) const {
    Point p;
    const float norm = g.sum.norm();
    for (size_t i : g.members) {
      const float sim = norm > 0 ? RowDot(i, g.sum) / norm : 0.0f;
      p.members.push_back({i, sim});
    }
    std::stable_sort(
        p.members.begin(), p.members.end(),
        [](const PointMember& a, const PointMember& b) { return a.similarity > b.similarity; });
    p.representative = TypicalFace(p.members, [](size_t) { return true; });
    if (p.representative == kNone) {
      // No member can be a face: a group of fragments shows its first, one of questions and
      // hashtags alone states no claim.
      const auto claim =
          std::find_if(p.members.begin(), p.members.end(),
                       [&](const PointMember& m) { return ClaimForm(texts_[m.index]); });
      if (claim == p.members.end()) return std::nullopt;
      p.representative = claim->index;
    }
    if (small_ && o_.small_scope_member_min_similarity > 0) DropFarMembers(p);
    Measure(p);
    // A praise or complaint is shown by a member that says it when there is one.
    if (p.polarity == Polarity::kPraise || p.polarity == Polarity::kComplaint) {
      const int want = p.polarity == Polarity::kPraise ? 1 : -1;
      const size_t best = TypicalFace(p.members, [&](size_t i) { return sign_[i] == want; });
      if (best != kNone && sign_[p.representative] != want) p.representative = best;
    }
    p.text = WithoutListNumber(texts_[p.representative]);
    p.aspect = Aspect(p.members);
    return p;
  }

  // In a small scope, members whose cosine to the face is below
  // small_scope_member_min_similarity leave the point.
  void DropFarMembers(Point& p) const {
    Eigen::RowVectorXf face = Eigen::RowVectorXf::Zero(Width());
    AddRow(p.representative, face);
    std::erase_if(p.members, [&](const PointMember& m) {
      return m.index != p.representative &&
             RowDot(m.index, face) < o_.small_scope_member_min_similarity;
    });
  }

  // Support, share, weight, the lexicon and rating signals and the polarity (rule 4).
  void Measure(Point& p) const {
    std::set<size_t> reviews;
    double wsum = 0, lex = 0, covered = 0, rated = 0, rating = 0;
    for (const PointMember& m : p.members) {
      const size_t r = in_.review_of[m.index];
      reviews.insert(r);
      // Mixing coefficients: the attention weight, floored so a zero weight still counts a bit.
      const double wi = std::max<double>(w_.final(m.index), 1e-9);
      p.weight += w_.final(m.index);
      wsum += wi;
      lex += wi * sign_[m.index];
      if (sign_[m.index] != 0) covered += wi;
      if (r < in_.ratings.size() && in_.ratings[r]) {
        rated += wi;
        rating += wi * in_.scale.Normalise(*in_.ratings[r]);
      }
    }
    p.support = reviews.size();
    p.share = in_.review_count
                  ? static_cast<double>(p.support) / static_cast<double>(in_.review_count)
                  : 0;
    p.lexicon = lex / wsum;
    p.lexicon_coverage = covered / wsum;
    if (rated > 0) p.rating = rating / rated;
    double inside_sum = 0;
    size_t inside = 0;
    for (size_t r : reviews) {
      if (r < in_.ratings.size() && in_.ratings[r]) {
        inside_sum += in_.scale.Normalise(*in_.ratings[r]);
        ++inside;
      }
    }
    std::optional<double> lift;
    if (inside > 0 && rated_reviews_ > inside) {
      lift = inside_sum / static_cast<double>(inside) -
             (rating_sum_ - inside_sum) / static_cast<double>(rated_reviews_ - inside);
    }
    p.polarity = Decide(p, o_, rated / wsum, lift);
  }

  // Rule 3: the aspect most of the members name, when they name it more often than the scope's
  // sentences do (lift); else none.
  std::string Aspect(const std::vector<PointMember>& ms) const {
    std::vector<size_t> count(lexicon_.aspect_names().size(), 0);
    for (const PointMember& m : ms)
      for (int k : named_[m.index]) ++count[static_cast<size_t>(k)];
    size_t best = count.size();
    for (size_t k = 0; k < count.size(); ++k)
      if (count[k] > 0 && (best == count.size() || count[k] > count[best])) best = k;
    if (best == count.size()) return "";
    const double share = static_cast<double>(count[best]) / static_cast<double>(ms.size());
    const double scope = static_cast<double>(named_in_scope_[best]) / static_cast<double>(n_);
    return share >= o_.aspect_min_members && share >= o_.aspect_min_lift * scope
               ? lexicon_.aspect_names()[best]
               : "";
  }

  // 9. By support, then weight, without the points the member check left below min_support; a
  // scope with sentences keeps at least one point (its best group, or its heaviest sentence
  // alone when no group has support).
  std::vector<Point> Order(std::vector<Point> points) const {
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
      return a.support != b.support ? a.support > b.support : a.weight > b.weight;
    });
    // The small scope's member check (DropFarMembers) can leave a point below min_support.
    if (points.size() > 1) {
      const auto low = std::find_if(points.begin() + 1, points.end(),
                                    [&](const Point& p) { return p.support < o_.min_support; });
      points.erase(low, points.end());
    }
    if (points.empty()) {
      size_t best = kNone;
      for (size_t i = 0; i < n_; ++i) {
        if (!CanFace(i) && best != kNone) continue;
        if (best == kNone || (!CanFace(best) && CanFace(i)) || w_.final(i) > w_.final(best))
          best = i;
      }
      Point p;
      p.representative = best;
      p.members = {{best, 1.0f}};
      Measure(p);
      p.text = WithoutListNumber(texts_[best]);
      p.aspect = Aspect(p.members);
      points.push_back(std::move(p));
    }
    return points;
  }

  const PointsInput& in_;
  const PolarityLexicon& lexicon_;
  const PointsOptions& o_;
  const std::vector<std::string>& texts_;
  const Weights& w_;
  const size_t n_;
  bool learned_ = false, small_ = false;
  Matrix X_;                                  // empty when sparse_ holds the space
  std::optional<SparseClusterSpace> sparse_;  // the space as sparse rows (lexical)
  float cut_ = 0;
  std::vector<int> sign_;             // -1, 0, +1
  std::vector<size_t> sentences_of_;  // per review
  std::vector<int> side_;             // the sign, or an unsigned sentence's by its review's rating
  double rating_sum_ = 0;
  size_t rated_reviews_ = 0;
  std::vector<Group> groups_;
  std::vector<std::vector<int>> named_;  // per sentence, the aspects it names (NameAspects)
  std::vector<size_t> named_in_scope_;   // per aspect, the sentences that name it
};

}  // namespace

std::vector<Point> ComputePoints(const PointsInput& in, const PolarityLexicon& lexicon,
                                 const PointsOptions& o) {
  if (!in.texts || !in.embeddings || !in.weights) {
    throw std::invalid_argument("ComputePoints: texts, embeddings and weights are required");
  }
  const size_t n = in.texts->size();
  if (static_cast<size_t>(in.embeddings->rows()) != n ||
      static_cast<size_t>(in.weights->final.size()) != n || in.review_of.size() != n) {
    throw std::invalid_argument("ComputePoints: " + std::to_string(n) +
                                " texts but a different number of embeddings, weights or reviews");
  }
  for (size_t r : in.review_of) {
    if (r >= in.review_count)
      throw std::invalid_argument("ComputePoints: review index out of range");
  }
  return PointFinder(in, lexicon, o).Run();
}

}  // namespace revsum
