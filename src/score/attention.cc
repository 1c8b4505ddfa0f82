// Multi-head attention scorer; the formulas and head constructions are documented in
// include/revsum/score.h.
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 GEMM kernels
// (_mm512_undefined_ps in ptranspose) when built with -march=native; they are not ours.
#if !defined(__clang__)  // clang has neither false positive (nor the first flag)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <Eigen/SparseCore>

#include "revsum/models.h"
#include "revsum/score.h"

namespace revsum {
namespace {

// Numerically stable softmax of x[0..n) in place.
void SoftmaxInPlace(float* x, Eigen::Index n) {
  if (n == 0) return;
  float max = x[0];
  for (Eigen::Index i = 1; i < n; ++i) max = std::max(max, x[i]);
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    x[i] = std::exp(x[i] - max);
    sum += x[i];
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (Eigen::Index i = 0; i < n; ++i) x[i] *= inv;
}

Eigen::VectorXf Normalised(const Eigen::VectorXf& v) {
  const float norm = v.norm();
  if (norm <= 0.f) return v;
  return v / norm;
}

// The products the scorer takes of a scope's rows S (n x d): S v, and dot products of some rows
// with all rows (consensus votes, the Gram matrix, pair statistics). Rows come in three kinds:
//   sparse  the lexical embedder's hashed TF-IDF: about 60 of 4,096 entries non-zero;
//   split   combined rows (combined.h): such a lexical part beside USE-lite's dense 512;
//   dense   anything else (USE-lite alone).
// Sparse rows, and the sparse columns of split rows, are multiplied as sparse matrices (Eigen
// SparseCore); the dense columns of split rows as a dense block. A combined hotel's consensus then
// costs its 512 dense columns' product instead of all 4,608 columns' (that product was 37 % of a
// default summarise of hotel reviews, `perf`). A sparse or split product sums the same terms in
// another order than the dense kernels (whose order depends on the CPU's cache sizes), so the
// weights can differ in the last bits, not in what is selected.
class RowProducts {
 public:
  explicit RowProducts(const Matrix& S);

  // S v.
  Eigen::VectorXf Times(const Eigen::VectorXf& v) const;
  // The count x n dot products of rows rows[0..count) with every row, divided by `divisor`
  // (row-major: a row's products are contiguous).
  Matrix RowsWithAll(const Eigen::Index* rows, Eigen::Index count, float divisor) const;
  // The m x m Gram matrix of the m rows `rows`.
  Matrix RowsGram(const std::vector<Eigen::Index>& rows) const;
  // S S^T.
  Matrix Gram() const;

 private:
  using SparseRows = Eigen::SparseMatrix<float, Eigen::RowMajor, Eigen::Index>;
  // Sparse rows hold at most this share of non-zero entries (of the sparse columns, for split
  // rows): the sparse products then cost a small fraction of the dense ones.
  static constexpr double kSparseShare = 1.0 / 16;
  // A column is dense when more than this share of the rows are non-zero in it. Split only scopes
  // of at least kMinSplitRows rows (in fewer, the count says little and the product is cheap)
  // whose dense columns are at most a quarter of all.
  static constexpr double kDenseColumnShare = 1.0 / 4;
  static constexpr Eigen::Index kMinSplitRows = 64;

  // Builds sparse_ from the columns that dense_column_ does not mark (all, when it is empty).
  void BuildSparse(Eigen::Index reserve);
  // Rows rows[0..count) of sparse_, in that order.
  SparseRows PickSparseRows(const Eigen::Index* rows, Eigen::Index count) const;
  // Rows rows[0..count) of `from`, in that order.
  static Matrix PickDenseRows(const Matrix& from, const Eigen::Index* rows, Eigen::Index count);

  const Matrix& S_;
  std::optional<SparseRows> sparse_;  // sparse and split rows: the sparse columns
  std::vector<char> dense_column_;    // split rows: 1 for a dense column
  std::vector<Eigen::Index> dense_columns_;
  Matrix dense_;  // split rows: the dense columns, n x dense_columns_.size()
};

RowProducts::RowProducts(const Matrix& S) : S_(S) {
  const Eigen::Index n = S.rows(), d = S.cols();
  if (S.size() == 0) return;
  // Non-zero entries per column, in one pass in storage order (-0 counts as zero).
  std::vector<int32_t> nonzero(static_cast<size_t>(d), 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    const float* row = S.row(i).data();
    for (Eigen::Index j = 0; j < d; ++j) nonzero[j] += row[j] != 0.f;
  }
  Eigen::Index total = 0;
  for (const int32_t c : nonzero) total += c;
  if (total <= static_cast<Eigen::Index>(kSparseShare * static_cast<double>(S.size()))) {
    BuildSparse(total);
    return;
  }
  if (n < kMinSplitRows) return;
  dense_column_.assign(static_cast<size_t>(d), 0);
  Eigen::Index in_sparse = 0;
  for (Eigen::Index j = 0; j < d; ++j) {
    if (nonzero[j] > kDenseColumnShare * static_cast<double>(n)) {
      dense_column_[j] = 1;
      dense_columns_.push_back(j);
    } else {
      in_sparse += nonzero[j];
    }
  }
  const auto k = static_cast<Eigen::Index>(dense_columns_.size());
  if (k > d / 4 ||
      in_sparse > static_cast<Eigen::Index>(kSparseShare * static_cast<double>(n * (d - k)))) {
    dense_column_.clear();
    dense_columns_.clear();
    return;
  }
  dense_.resize(n, k);
  for (Eigen::Index c = 0; c < k; ++c) dense_.col(c) = S.col(dense_columns_[c]);
  BuildSparse(in_sparse);
}

void RowProducts::BuildSparse(Eigen::Index reserve) {
  sparse_.emplace(S_.rows(), S_.cols());
  SparseRows& sparse = *sparse_;
  sparse.reserve(reserve);
  // Skips 16 zero floats at a time (Eigen's sparseView() checks and inserts entry by entry and took
  // a tenth of a lexical run).
  constexpr Eigen::Index kChunk = 16;
  for (Eigen::Index i = 0; i < S_.rows(); ++i) {
    sparse.startVec(i);
    const float* row = S_.row(i).data();
    for (Eigen::Index j0 = 0; j0 < S_.cols(); j0 += kChunk) {
      const Eigen::Index j1 = std::min(S_.cols(), j0 + kChunk);
      if (j1 - j0 == kChunk) {
        // The bits of 16 floats OR-ed without their sign bits (so -0 counts as zero): integer
        // arithmetic the compiler vectorises, where a float compare per entry is scalar.
        uint32_t bits[kChunk];
        std::memcpy(bits, row + j0, sizeof bits);
        uint32_t any = 0;
        for (uint32_t b : bits) any |= b << 1;
        if (any == 0) continue;
      }
      for (Eigen::Index j = j0; j < j1; ++j) {
        if (row[j] == 0.f || (!dense_column_.empty() && dense_column_[j])) continue;
        sparse.insertBack(i, j) = row[j];
      }
    }
  }
  sparse.finalize();
}

RowProducts::SparseRows RowProducts::PickSparseRows(const Eigen::Index* rows,
                                                    Eigen::Index count) const {
  SparseRows picked(count, sparse_->cols());
  for (Eigen::Index k = 0; k < count; ++k) {
    picked.startVec(k);
    for (SparseRows::InnerIterator it(*sparse_, rows[k]); it; ++it)
      picked.insertBack(k, it.col()) = it.value();
  }
  picked.finalize();
  return picked;
}

Matrix RowProducts::PickDenseRows(const Matrix& from, const Eigen::Index* rows,
                                  Eigen::Index count) {
  Matrix picked(count, from.cols());
  for (Eigen::Index k = 0; k < count; ++k) picked.row(k) = from.row(rows[k]);
  return picked;
}

Eigen::VectorXf RowProducts::Times(const Eigen::VectorXf& v) const {
  if (!sparse_) return S_ * v;
  Eigen::VectorXf out = *sparse_ * v;
  if (!dense_columns_.empty()) out.noalias() += dense_ * v(dense_columns_);
  return out;
}

Matrix RowProducts::RowsWithAll(const Eigen::Index* rows, Eigen::Index count, float divisor) const {
  Matrix out;
  if (!sparse_) {
    out.noalias() = (PickDenseRows(S_, rows, count) * S_.transpose()) / divisor;
    return out;
  }
  out = PickSparseRows(rows, count) * sparse_->transpose();
  if (!dense_columns_.empty())
    out.noalias() += PickDenseRows(dense_, rows, count) * dense_.transpose();
  out /= divisor;
  return out;
}

Matrix RowProducts::RowsGram(const std::vector<Eigen::Index>& rows) const {
  const auto m = static_cast<Eigen::Index>(rows.size());
  if (!sparse_) {
    const Matrix X = PickDenseRows(S_, rows.data(), m);
    return X * X.transpose();
  }
  const SparseRows X = PickSparseRows(rows.data(), m);
  Matrix out = X * X.transpose();
  if (!dense_columns_.empty()) {
    const Matrix D = PickDenseRows(dense_, rows.data(), m);
    out.noalias() += D * D.transpose();
  }
  return out;
}

Matrix RowProducts::Gram() const {
  // Assigned, not constructed: constructing a Matrix from the dense product gave other last bits
  // than the consensus block
  // (AttentionScorerTest.SmallProductsShareTheirGramMatrixWithTheSameConsensus).
  Matrix out;
  if (!sparse_) {
    out = S_ * S_.transpose();
    return out;
  }
  out = *sparse_ * sparse_->transpose();
  if (!dense_columns_.empty()) out.noalias() += dense_ * dense_.transpose();
  return out;
}

std::string_view Trim(std::string_view s) {
  const char* ws = " \t\r\n";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

}  // namespace

Eigen::VectorXf OverallAttention(const Matrix& S, const Eigen::VectorXf& query, float temperature) {
  Eigen::VectorXf logits = (S * Normalised(query)) / temperature;
  SoftmaxInPlace(logits.data(), logits.size());
  return logits;
}

namespace {

// ConsensusAttention and PairCosineStats with S's RowProducts already made, so the scorer scans S
// once for all of its products.
Eigen::VectorXf ConsensusOf(const Matrix& S, const RowProducts& products, float temperature,
                            int max_exact) {
  const Eigen::Index n = S.rows();
  Eigen::VectorXf received = Eigen::VectorXf::Zero(n);
  if (n == 0) return received;
  if (n == 1) {
    received(0) = 1.f;
    return received;
  }
  // Voter rows: all of them up to max_exact, else an evenly strided deterministic sample.
  Eigen::Index voters = n;
  if (max_exact > 0 && n > max_exact) {
    const double pairs = static_cast<double>(max_exact) * max_exact;
    voters = std::max<Eigen::Index>(64, static_cast<Eigen::Index>(pairs / n));
    voters = std::min(voters, n);
  }
  const double stride = static_cast<double>(n) / voters;
  // Voter rows per block: 256, fewer for huge scopes so the block's logits stay under 16M floats
  // (64 MB) — 256 rows of a 215,000-sentence scope would take 220 MB.
  const Eigen::Index kBlock = std::clamp<Eigen::Index>((Eigen::Index{1} << 24) / n, 1, 256);
  const float neg_inf = -std::numeric_limits<float>::infinity();
  std::vector<Eigen::Index> rows(kBlock);
  Matrix logits;
  for (Eigen::Index start = 0; start < voters; start += kBlock) {
    const Eigen::Index count = std::min(kBlock, voters - start);
    for (Eigen::Index k = 0; k < count; ++k)
      rows[k] = static_cast<Eigen::Index>((start + k) * stride);
    logits = products.RowsWithAll(rows.data(), count, temperature);
    for (Eigen::Index k = 0; k < count; ++k) {
      logits(k, rows[k]) = neg_inf;      // a sentence does not vote for itself
      SoftmaxInPlace(&logits(k, 0), n);  // row-major: row k is contiguous
      received += logits.row(k).transpose();
    }
  }
  received /= static_cast<float>(voters);
  return received;
}

// ConsensusAttention with every row voting, from S S^T already computed.
Eigen::VectorXf ConsensusFromGram(const Matrix& gram, float temperature) {
  const Eigen::Index n = gram.rows();
  Eigen::VectorXf received = Eigen::VectorXf::Zero(n);
  if (n == 1) received(0) = 1.f;
  if (n <= 1) return received;
  const float neg_inf = -std::numeric_limits<float>::infinity();
  Eigen::RowVectorXf logits(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    logits = gram.row(k) / temperature;
    logits(k) = neg_inf;  // a sentence does not vote for itself
    SoftmaxInPlace(logits.data(), n);
    received += logits.transpose();
  }
  received /= static_cast<float>(n);
  return received;
}

CosineStats PairStatsOf(const Matrix& S, const RowProducts& products, int max_rows) {
  const Eigen::Index n = S.rows();
  if (n < 2) return CosineStats{};
  const Eigen::Index m = std::min<Eigen::Index>(n, std::max(2, max_rows));
  const double stride = static_cast<double>(n) / m;
  std::vector<Eigen::Index> rows(static_cast<size_t>(m));
  for (Eigen::Index i = 0; i < m; ++i) rows[i] = static_cast<Eigen::Index>(i * stride);
  return GramCosineStats(products.RowsGram(rows));
}

}  // namespace

Eigen::VectorXf ConsensusAttention(const Matrix& S, float temperature, int max_exact) {
  return ConsensusOf(S, RowProducts(S), temperature, max_exact);
}

CosineStats PairCosineStats(const Matrix& S, int max_rows) {
  return PairStatsOf(S, RowProducts(S), max_rows);
}

CosineStats GramCosineStats(const Matrix& gram) {
  CosineStats stats;
  const Eigen::Index m = gram.rows();
  if (m < 2) return stats;
  double sum = 0, sum_sq = 0;
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index j = 0; j < m; ++j) {
      if (i == j) continue;
      sum += gram(i, j);
      sum_sq += static_cast<double>(gram(i, j)) * gram(i, j);
    }
  }
  const double pairs = static_cast<double>(m) * (m - 1);
  const double mean = sum / pairs;
  stats.mean = static_cast<float>(mean);
  stats.stddev = static_cast<float>(std::sqrt(std::max(0.0, sum_sq / pairs - mean * mean)));
  return stats;
}

AttentionScorer::AttentionScorer(ScorerOptions options, std::vector<HeadAnchor> anchors)
    : options_(options), anchors_(std::move(anchors)) {
  if (!(options_.temperature > 0.f) || !(options_.z_temperature > 0.f)) {
    throw std::invalid_argument("AttentionScorer: temperature and z_temperature must be > 0");
  }
  for (auto& a : anchors_) {
    const float norm = a.anchor.norm();
    if (!(norm > 0.f)) {
      throw std::invalid_argument("AttentionScorer: anchor '" + a.name + "' is all zero");
    }
    a.anchor /= norm;
  }
}

namespace {

// Cosines whose spread is below this are treated as ties (a scope of identical sentences): the
// standardised temperature falls back to this spread instead of dividing by ~0.
constexpr float kMinSpread = 1e-4f;

// Standard deviation of the entries of v.
float StdDev(const Eigen::VectorXf& v) {
  if (v.size() < 2) return 0.f;
  const double mean = v.cast<double>().mean();
  double sq = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i) sq += (v(i) - mean) * (v(i) - mean);
  return static_cast<float>(std::sqrt(sq / static_cast<double>(v.size())));
}

}  // namespace

Weights AttentionScorer::Score(const Matrix& S, Scope scope) const {
  Weights w;
  const Eigen::Index n = S.rows();
  const bool standardise = options_.standardise;
  const RowProducts products(S);
  // One overall head: softmax over cosines to the normalised query, at the fixed temperature or
  // standardised by the spread of those cosines.
  auto overall = [&](const Eigen::VectorXf& query) -> Eigen::VectorXf {
    if (n == 0) return Eigen::VectorXf();
    const Eigen::VectorXf unit = Normalised(query);
    Eigen::VectorXf logits = products.Times(unit);
    const float t = standardise ? options_.z_temperature * std::max(StdDev(logits), kMinSpread)
                                : options_.temperature;
    logits /= t;
    SoftmaxInPlace(logits.data(), logits.size());
    return logits;
  };
  const bool consensus = scope == Scope::kProduct && options_.consensus_mix > 0.f && n >= 2;
  const float overall_share = consensus ? 1.f - options_.consensus_mix : 1.f;

  std::vector<Eigen::VectorXf> columns;
  // Centroid head: the query is the overall review itself.
  const Eigen::VectorXf q =
      n > 0 ? Normalised(S.colwise().mean().transpose()) : Eigen::VectorXf::Zero(S.cols());
  const float centroid_share =
      anchors_.empty() ? overall_share : overall_share * options_.centroid_mix;
  if (overall_share > 0.f) {
    w.head_names.push_back("centroid");
    w.head_mix.push_back(centroid_share);
    columns.push_back(overall(q));
    // Anchored heads: the overall query pulled towards a seed direction.
    if (!anchors_.empty()) {
      const float share =
          overall_share * (1.f - options_.centroid_mix) / static_cast<float>(anchors_.size());
      for (const HeadAnchor& a : anchors_) {
        if (a.anchor.size() != S.cols()) {
          throw std::invalid_argument("AttentionScorer: anchor '" + a.name + "' has " +
                                      std::to_string(a.anchor.size()) + " dims, embeddings have " +
                                      std::to_string(S.cols()));
        }
        w.head_names.push_back(a.name);
        w.head_mix.push_back(share);
        const Eigen::VectorXf query = q + options_.anchor_strength * a.anchor;
        columns.push_back(overall(query));
      }
    }
  }
  if (consensus) {
    w.head_names.push_back("consensus");
    w.head_mix.push_back(options_.consensus_mix);
    // A small product multiplies S S^T once: its statistics, its consensus votes and (through
    // Weights::gram) the later stages read it. The product is the one PairCosineStats and
    // ConsensusAttention's single block would compute, so the weights are the same bits.
    if (n <= kSharedGramRows && n <= options_.max_exact_consensus) {
      w.gram = products.Gram();
    }
    const float t = standardise
                        ? options_.z_temperature *
                              std::max((w.gram.rows() ? GramCosineStats(w.gram)
                                                      : PairStatsOf(S, products, kPairCosineRows))
                                           .stddev,
                                       kMinSpread)
                        : options_.temperature;
    columns.push_back(w.gram.rows() ? ConsensusFromGram(w.gram, t)
                                    : ConsensusOf(S, products, t, options_.max_exact_consensus));
  }

  const Eigen::Index heads = static_cast<Eigen::Index>(columns.size());
  w.per_head.resize(n, heads);
  for (Eigen::Index h = 0; h < heads; ++h) w.per_head.col(h) = columns[h];
  Eigen::VectorXf mix(heads);
  for (Eigen::Index h = 0; h < heads; ++h) mix(h) = w.head_mix[h];
  w.final = n > 0 ? Eigen::VectorXf(w.per_head * mix) : Eigen::VectorXf();
  if (n > 0) {
    // Guard against float drift so that a scope's weights sum to 1 exactly enough for storage.
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) sum += w.final(i);
    if (sum > 0) w.final /= static_cast<float>(sum);
  }
  return w;
}

SeedSet ParseSeeds(std::string_view text, std::string_view origin) {
  SeedSet seeds;
  std::vector<std::string>* current = nullptr;
  std::string current_name;
  int line_no = 0;
  auto fail = [&](const std::string& problem) {
    throw ScoreError(std::string(origin) + ":" + std::to_string(line_no) + ": " + problem);
  };
  auto check_not_empty = [&]() {
    if (current != nullptr && current->empty()) fail("section [" + current_name + "] is empty");
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line.front() == '#') {
      std::string_view body = Trim(line.substr(1));
      if (body.rfind("lang:", 0) == 0) seeds.lang = std::string(Trim(body.substr(5)));
      continue;
    }
    if (line.front() == '[') {
      if (line.back() != ']') fail("unterminated section header '" + std::string(line) + "'");
      check_not_empty();
      current_name = std::string(Trim(line.substr(1, line.size() - 2)));
      if (current_name == "opinion") {
        current = &seeds.opinion;
      } else if (current_name == "neutral") {
        current = &seeds.neutral;
      } else if (current_name.rfind("aspect:", 0) == 0 && current_name.size() > 7) {
        seeds.aspects.emplace_back(current_name.substr(7), std::vector<std::string>{});
        current = &seeds.aspects.back().second;
      } else {
        fail("unknown section [" + current_name +
             "] (expected [opinion], [neutral] or [aspect:<name>])");
      }
      continue;
    }
    if (current == nullptr) fail("seed sentence before any [section] header");
    current->emplace_back(line);
  }
  check_not_empty();
  return seeds;
}

SeedSet LoadSeeds(const std::string& path) {
  const std::optional<std::string> text = ReadWholeFile(path);
  if (!text) throw ModelsError(path + ": cannot open seed file");
  return ParseSeeds(*text, path);
}

std::vector<std::string> SeedSentences(const SeedSet& seeds) {
  std::vector<std::string> all(seeds.opinion);
  all.insert(all.end(), seeds.neutral.begin(), seeds.neutral.end());
  for (const auto& [name, sentences] : seeds.aspects) {
    all.insert(all.end(), sentences.begin(), sentences.end());
  }
  return all;
}

std::vector<HeadAnchor> BuildAnchors(const SeedSet& seeds, const Matrix& E) {
  if (static_cast<size_t>(E.rows()) != SeedSentences(seeds).size()) {
    throw std::invalid_argument("BuildAnchors: " + std::to_string(E.rows()) +
                                " seed embeddings for " +
                                std::to_string(SeedSentences(seeds).size()) + " seed sentences");
  }
  auto mean_rows = [&](Eigen::Index begin, Eigen::Index count) -> Eigen::VectorXf {
    if (count == 0) return Eigen::VectorXf::Zero(E.cols());
    return E.middleRows(begin, count).colwise().mean().transpose();
  };
  std::vector<HeadAnchor> anchors;
  Eigen::Index row = 0;
  const Eigen::Index n_op = static_cast<Eigen::Index>(seeds.opinion.size());
  const Eigen::Index n_ne = static_cast<Eigen::Index>(seeds.neutral.size());
  if (n_op > 0) {
    Eigen::VectorXf dir = mean_rows(0, n_op) - mean_rows(n_op, n_ne);
    if (dir.norm() > 0.f) anchors.push_back({"opinion", dir});
  }
  row = n_op + n_ne;
  for (const auto& [name, sentences] : seeds.aspects) {
    const Eigen::Index count = static_cast<Eigen::Index>(sentences.size());
    Eigen::VectorXf dir = mean_rows(row, count);
    row += count;
    if (dir.norm() > 0.f) anchors.push_back({"aspect:" + name, dir});
  }
  return anchors;
}

}  // namespace revsum

namespace revsum {

std::vector<HeadAnchor> TopicAnchors(const Matrix& S, int heads, int max_rows) {
  std::vector<HeadAnchor> anchors;
  const Eigen::Index n = S.rows();
  if (heads <= 0 || n < 3) return anchors;
  // A deterministic strided sample of at most max_rows rows, centred.
  const Eigen::Index m = std::min<Eigen::Index>(n, std::max(3, max_rows));
  const double stride = static_cast<double>(n) / m;
  Matrix X(m, S.cols());
  for (Eigen::Index i = 0; i < m; ++i) X.row(i) = S.row(static_cast<Eigen::Index>(i * stride));
  const Eigen::RowVectorXf mean = X.colwise().mean();
  X.rowwise() -= mean;
  // Principal directions through the m x m Gram matrix: X^T v / |X^T v| for its top eigenvectors.
  const Eigen::MatrixXf gram = X * X.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXf> solver(gram);
  const Eigen::Index k = std::min<Eigen::Index>(heads, m - 1);
  for (Eigen::Index h = 0; h < k; ++h) {
    const Eigen::Index col = m - 1 - h;  // eigenvalues ascend
    if (solver.eigenvalues()(col) <= 1e-6f) break;
    Eigen::VectorXf u = X.transpose() * solver.eigenvectors().col(col);
    // Orient each direction towards its heavier tail (positive third moment of the projections):
    // the pole where a group of sentences sits, not the diffuse rest.
    const Eigen::VectorXf proj = X * u;
    double third = 0;
    for (Eigen::Index i = 0; i < proj.size(); ++i) third += std::pow(proj(i), 3.0);
    if (third < 0) u = -u;
    anchors.push_back({"topic:" + std::to_string(h + 1), u});
  }
  return anchors;
}

void AddLogitHead(Weights* w, const std::string& name, const Eigen::VectorXf& logits, float mix,
                  float z_temperature) {
  const Eigen::Index n = w->final.size();
  if (logits.size() != n) throw std::invalid_argument("AddLogitHead: " + name + ": size mismatch");
  if (!(mix >= 0.f && mix <= 1.f)) throw std::invalid_argument("AddLogitHead: mix outside [0, 1]");
  if (n == 0) return;
  Eigen::VectorXf head = logits / (z_temperature * std::max(StdDev(logits), kMinSpread));
  SoftmaxInPlace(head.data(), head.size());
  const Eigen::Index h = w->per_head.cols();
  w->per_head.conservativeResize(n, h + 1);
  w->per_head.col(h) = head;
  w->head_names.push_back(name);
  for (float& m : w->head_mix) m *= 1.f - mix;
  w->head_mix.push_back(mix);
  if (mix > 0.f) w->final = (1.f - mix) * w->final + mix * head;
}

}  // namespace revsum
