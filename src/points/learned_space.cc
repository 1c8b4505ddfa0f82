// Sentence vectors from word vectors learned on the scope itself (points.h, "learned space"):
// PPMI over co-occurring units, truncated SVD, SIF-weighted sums.
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 GEMM kernels
// (-march=native builds), as in src/score/attention.cc (and "uninitialized" in the sparse
// products, as in src/embed/use_lite_encoder.cc).
#if !defined(__clang__)  // clang has neither false positive (nor the first flag)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>

#include <Eigen/Sparse>

#include "revsum/points.h"
#include "revsum/text.h"
#include "revsum/utf8.h"

namespace revsum {

namespace {

// The units of a sentence, in order: CJK character bigrams (a lone CJK character stands as
// itself) and lowercased ASCII words; everything else separates.
std::vector<std::string> Units(std::string_view text) {
  std::vector<std::string> units;
  std::vector<std::string> run;  // current CJK run, one character per entry
  std::string word;
  auto flush_run = [&] {
    for (size_t i = 0; i < run.size(); ++i) {
      units.push_back(run[i]);
      if (i + 1 < run.size()) units.push_back(run[i] + run[i + 1]);
    }
    run.clear();
  };
  auto flush_word = [&] {
    if (!word.empty()) units.push_back(std::move(word));
    word.clear();
  };
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    const int32_t c = NextCodePoint(text, &i);
    if (c < 0) {
      flush_run();
      flush_word();
      continue;
    }
    if (IsCjk(static_cast<char32_t>(c))) {
      flush_word();
      run.emplace_back(text.substr(start, i - start));
    } else if (c < 0x80 && std::isalnum(c)) {
      flush_run();
      word += static_cast<char>(std::tolower(c));
    } else {
      flush_run();
      flush_word();
    }
  }
  flush_run();
  flush_word();
  return units;
}

using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Orthonormal basis of the columns of Y (thin Q of a QR decomposition).
RowMatrixXf Orthonormal(const RowMatrixXf& Y) {
  Eigen::HouseholderQR<Eigen::MatrixXf> qr(Y);
  return qr.householderQ() * Eigen::MatrixXf::Identity(Y.rows(), Y.cols());
}

// Row o of the result = sum over the stored entries (o, i, v) of A's outer vector o of
// v * Q.row(i): A * Q for a row-major A, A^T * Q for a column-major one. One pass over A's
// entries, each adding a contiguous row of Q (Eigen's sparse x dense products traverse A once
// per column of Q, or row by row through a transposed view: most of this file's time on a
// 9,000-sentence product).
template <typename Sparse>
RowMatrixXf GatherRows(const Sparse& A, const RowMatrixXf& Q) {
  RowMatrixXf out = RowMatrixXf::Zero(A.outerSize(), Q.cols());
  for (Eigen::Index o = 0; o < A.outerSize(); ++o) {
    auto row = out.row(o);
    for (typename Sparse::InnerIterator it(A, o); it; ++it)
      row.noalias() += it.value() * Q.row(it.index());
  }
  return out;
}

}  // namespace

Matrix LearnedSentenceVectors(const std::vector<std::string>& texts, const LearnedSpaceOptions& o,
                              const std::function<bool(std::string_view)>& polar) {
  const size_t n = texts.size();
  // Training sample: every k-th sentence, so the cost is bounded whatever the scope's size.
  const size_t stride = std::max<size_t>(
      1, (n + o.max_training_sentences - 1) / std::max<size_t>(1, o.max_training_sentences));
  // Each distinct unit is looked up once per occurrence and then known by its index: its text
  // (the map's key, stable while the map lives) and its count in the training sample.
  std::unordered_map<std::string, int32_t> unit_index;
  std::vector<std::string_view> unit_text;
  std::vector<double> freq;
  std::vector<std::vector<int32_t>> units(n);
  double total_units = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool counted = i % stride == 0;
    for (std::string& u : Units(texts[i])) {
      const auto [it, fresh] =
          unit_index.try_emplace(std::move(u), static_cast<int32_t>(unit_text.size()));
      if (fresh) {
        unit_text.push_back(it->first);
        freq.push_back(0);
      }
      units[i].push_back(it->second);
      if (counted) {
        freq[static_cast<size_t>(it->second)] += 1;
        total_units += 1;
      }
    }
  }
  // Vocabulary: units seen at least twice, the most frequent first (ties by text: deterministic).
  std::vector<int32_t> ranked;  // unit indices
  for (size_t u = 0; u < freq.size(); ++u) {
    if (freq[u] >= 2) ranked.push_back(static_cast<int32_t>(u));
  }
  std::sort(ranked.begin(), ranked.end(), [&](int32_t a, int32_t b) {
    const double fa = freq[static_cast<size_t>(a)], fb = freq[static_cast<size_t>(b)];
    return fa != fb ? fa > fb
                    : unit_text[static_cast<size_t>(a)] < unit_text[static_cast<size_t>(b)];
  });
  if (ranked.size() > o.max_vocabulary) ranked.resize(o.max_vocabulary);
  const Eigen::Index V = static_cast<Eigen::Index>(ranked.size());
  Matrix out = Matrix::Zero(static_cast<Eigen::Index>(n), std::max<Eigen::Index>(1, o.dimensions));
  if (V < 4) return out;
  std::vector<int32_t> id(unit_text.size(), -1);  // unit index -> vocabulary index
  for (Eigen::Index v = 0; v < V; ++v)
    id[static_cast<size_t>(ranked[static_cast<size_t>(v)])] = static_cast<int32_t>(v);
  std::vector<std::vector<int32_t>> seq(n);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t u : units[i]) {
      if (id[static_cast<size_t>(u)] >= 0) seq[i].push_back(id[static_cast<size_t>(u)]);
    }
  }
  units = {};

  // Co-occurrence counts within `window` units, both directions, built column by column: a
  // first pass counts each unit's co-occurrences, a second lists the partners in one array (a
  // counting sort by column), then each column's partners are counted and its distinct ones sorted
  // (triplets through setFromTriplets, and before them a hash map of pairs, were most of this
  // function's time on a 9,000-sentence product). Counts are sums of ones, exact in float.
  auto for_each_pair = [&](auto&& visit) {
    for (size_t i = 0; i < n; i += stride) {
      const std::vector<int32_t>& s = seq[i];
      for (size_t a = 0; a < s.size(); ++a) {
        for (size_t b = a + 1; b < s.size() && b <= a + static_cast<size_t>(o.window); ++b) {
          if (s[a] != s[b]) visit(s[a], s[b]);
        }
      }
    }
  };
  std::vector<int64_t> start(static_cast<size_t>(V) + 1, 0);
  for_each_pair([&](int32_t a, int32_t b) {
    ++start[static_cast<size_t>(a) + 1];
    ++start[static_cast<size_t>(b) + 1];
  });
  for (size_t v = 0; v < static_cast<size_t>(V); ++v) start[v + 1] += start[v];
  std::vector<int32_t> partners(static_cast<size_t>(start.back()));
  {
    std::vector<int64_t> next(start.begin(), start.end() - 1);
    for_each_pair([&](int32_t a, int32_t b) {
      partners[static_cast<size_t>(next[static_cast<size_t>(b)]++)] = a;  // (row a, column b)
      partners[static_cast<size_t>(next[static_cast<size_t>(a)]++)] = b;  // (row b, column a)
    });
  }
  Eigen::SparseMatrix<float> M(V, V);
  M.reserve(static_cast<Eigen::Index>(partners.size()));
  std::vector<int32_t> count(static_cast<size_t>(V), 0);  // zero between columns
  std::vector<int32_t> rows;                              // a column's distinct partners
  for (Eigen::Index col = 0; col < V; ++col) {
    M.startVec(col);
    rows.clear();
    for (int64_t j = start[static_cast<size_t>(col)]; j < start[static_cast<size_t>(col) + 1];
         ++j) {
      const int32_t r = partners[static_cast<size_t>(j)];
      if (count[static_cast<size_t>(r)]++ == 0) rows.push_back(r);
    }
    std::sort(rows.begin(), rows.end());
    for (int32_t r : rows) {
      M.insertBack(r, col) = static_cast<float>(count[static_cast<size_t>(r)]);
      count[static_cast<size_t>(r)] = 0;
    }
  }
  M.finalize();
  M.data().squeeze();  // reserved for every co-occurrence; holds the distinct ones
  partners = {};
  // PPMI with context-distribution smoothing (Levy, Goldberg & Dagan 2015, TACL 3: cds = 0.75).
  Eigen::VectorXd row = Eigen::VectorXd::Zero(V);
  double sum = 0;
  for (Eigen::Index col = 0; col < M.outerSize(); ++col) {
    for (Eigen::SparseMatrix<float>::InnerIterator it(M, col); it; ++it) {
      row(it.row()) += it.value();
      sum += it.value();
    }
  }
  if (sum == 0) return out;
  Eigen::VectorXd ctx = row.array().pow(o.smoothing);
  const double ctx_sum = ctx.sum();
  for (Eigen::Index col = 0; col < M.outerSize(); ++col) {
    for (Eigen::SparseMatrix<float>::InnerIterator it(M, col); it; ++it) {
      const double c = it.value();
      const double pmi = std::log((c / sum) / ((row(it.row()) / sum) * (ctx(col) / ctx_sum)));
      it.valueRef() = pmi > 0 ? static_cast<float>(pmi) : 0.0f;
    }
  }
  M.prune(0.0f, 0.0f);  // keeps the positive values (|v| > 0), drops the rest

  // Truncated SVD by random projection with two power iterations (Halko, Martinsson & Tropp
  // 2011, Algorithm 4.4); fixed seed: deterministic.
  const Eigen::Index k = std::min<Eigen::Index>(o.dimensions, V - 2);
  const Eigen::Index sketch = std::min<Eigen::Index>(k + 10, V);
  std::mt19937 rng(12345);
  std::normal_distribution<float> normal;
  RowMatrixXf omega(V, sketch);
  for (Eigen::Index j = 0; j < sketch; ++j)
    for (Eigen::Index i = 0; i < V; ++i) omega(i, j) = normal(rng);
  const Eigen::SparseMatrix<float, Eigen::RowMajor> M_rows = M;  // M * Q by rows
  RowMatrixXf Q = Orthonormal(GatherRows(M_rows, omega));
  for (int it = 0; it < 2; ++it) {
    Q = Orthonormal(GatherRows(M, Q));  // M^T * Q
    Q = Orthonormal(GatherRows(M_rows, Q));
  }
  const Eigen::MatrixXf B = GatherRows(M, Q).transpose();  // (M^T Q)^T: sketch x V
  Eigen::JacobiSVD<Eigen::MatrixXf> svd(B, Eigen::ComputeThinU);
  // Word vectors W = U_k sqrt(Sigma_k) (symmetric weighting, Levy et al.), rows normalised.
  Eigen::MatrixXf W = (Q * svd.matrixU()).leftCols(k);
  W = W * svd.singularValues().head(k).cwiseSqrt().asDiagonal();
  for (Eigen::Index v = 0; v < V; ++v) {
    const float norm = W.row(v).norm();
    if (norm > 0) W.row(v) /= norm;
  }

  // Sentence vectors: SIF weights a / (a + p(u)), then the first principal component of the
  // sentence vectors is removed (Arora, Liang & Ma 2017, ICLR), rows normalised.
  Eigen::VectorXf weight(V);
  for (Eigen::Index v = 0; v < V; ++v) {
    const size_t u = static_cast<size_t>(ranked[static_cast<size_t>(v)]);
    weight(v) = static_cast<float>(o.sif_a / (o.sif_a + freq[u] / total_units));
    if (polar && polar(unit_text[u])) weight(v) *= static_cast<float>(o.polar_weight);
  }
  Matrix S = Matrix::Zero(static_cast<Eigen::Index>(n), k);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t v : seq[i]) S.row(static_cast<Eigen::Index>(i)) += weight(v) * W.row(v);
  }
  Eigen::VectorXf pc = Eigen::VectorXf::Ones(k) / std::sqrt(static_cast<float>(k));
  for (int it = 0; it < (o.remove_first_component ? 20 : 0); ++it) {
    Eigen::VectorXf next = Eigen::VectorXf::Zero(k);
    for (size_t i = 0; i < n; i += stride) {
      const auto r = S.row(static_cast<Eigen::Index>(i));
      next += r.dot(pc) * r.transpose();
    }
    const float norm = next.norm();
    if (norm == 0) break;
    pc = next / norm;
  }
  for (Eigen::Index i = 0; i < S.rows(); ++i) {
    if (o.remove_first_component) S.row(i) -= S.row(i).dot(pc) * pc.transpose();
    const float norm = S.row(i).norm();
    if (norm > 1e-6f)
      S.row(i) /= norm;
    else
      S.row(i).setZero();
  }
  return S;
}

}  // namespace revsum
