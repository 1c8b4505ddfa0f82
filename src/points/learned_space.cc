// Sentence vectors from word vectors learned on the scope itself (points.h, "learned space"):
// PPMI over co-occurring units, truncated SVD, SIF-weighted sums.
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 GEMM kernels
// (-march=native builds), as in src/score/attention.cc (and "uninitialized" in the sparse
// products, as in src/embed/use_lite_encoder.cc).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <unicode/utf8.h>

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
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    const int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(s, i, length, c);
    if (c < 0) {
      flush_run();
      flush_word();
      continue;
    }
    if (IsCjk(static_cast<char32_t>(c))) {
      flush_word();
      run.emplace_back(text.substr(static_cast<size_t>(start), static_cast<size_t>(i - start)));
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

// Orthonormal basis of the columns of Y (thin Q of a QR decomposition).
Eigen::MatrixXf Orthonormal(const Eigen::MatrixXf& Y) {
  Eigen::HouseholderQR<Eigen::MatrixXf> qr(Y);
  return qr.householderQ() * Eigen::MatrixXf::Identity(Y.rows(), Y.cols());
}

}  // namespace

Matrix LearnedSentenceVectors(const std::vector<std::string>& texts, const LearnedSpaceOptions& o,
                              const std::function<bool(std::string_view)>& polar) {
  const size_t n = texts.size();
  std::vector<std::vector<std::string>> units(n);
  for (size_t i = 0; i < n; ++i) units[i] = Units(texts[i]);
  // Training sample: every k-th sentence, so the cost is bounded whatever the scope's size.
  const size_t stride = std::max<size_t>(
      1, (n + o.max_training_sentences - 1) / std::max<size_t>(1, o.max_training_sentences));
  std::unordered_map<std::string, double> freq;
  double total_units = 0;
  for (size_t i = 0; i < n; i += stride) {
    for (const std::string& u : units[i]) {
      freq[u] += 1;
      total_units += 1;
    }
  }
  // Vocabulary: units seen at least twice, the most frequent first (ties by text: deterministic).
  std::vector<std::pair<std::string, double>> ranked;
  for (const auto& [u, c] : freq) {
    if (c >= 2) ranked.emplace_back(u, c);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (ranked.size() > o.max_vocabulary) ranked.resize(o.max_vocabulary);
  const Eigen::Index V = static_cast<Eigen::Index>(ranked.size());
  Matrix out = Matrix::Zero(static_cast<Eigen::Index>(n), std::max<Eigen::Index>(1, o.dimensions));
  if (V < 4) return out;
  std::unordered_map<std::string, int32_t> id;
  for (Eigen::Index v = 0; v < V; ++v) id.emplace(ranked[static_cast<size_t>(v)].first, v);
  std::vector<std::vector<int32_t>> seq(n);
  for (size_t i = 0; i < n; ++i) {
    for (const std::string& u : units[i]) {
      const auto it = id.find(u);
      if (it != id.end()) seq[i].push_back(it->second);
    }
  }

  // Co-occurrence counts within `window` units, both directions: one triplet per co-occurrence,
  // summed by setFromTriplets (a bucket sort by column, linear; a hash map of pairs was half of
  // this function's time on a 9,000-sentence product). Counts are sums of ones, exact in float.
  std::vector<Eigen::Triplet<float>> triplets;
  for (size_t i = 0; i < n; i += stride) {
    const std::vector<int32_t>& s = seq[i];
    for (size_t a = 0; a < s.size(); ++a) {
      for (size_t b = a + 1; b < s.size() && b <= a + static_cast<size_t>(o.window); ++b) {
        if (s[a] == s[b]) continue;
        triplets.emplace_back(s[a], s[b], 1.0f);
        triplets.emplace_back(s[b], s[a], 1.0f);
      }
    }
  }
  Eigen::SparseMatrix<float> M(V, V);
  M.setFromTriplets(triplets.begin(), triplets.end());
  triplets = {};
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
  Eigen::MatrixXf omega(V, sketch);
  for (Eigen::Index j = 0; j < sketch; ++j)
    for (Eigen::Index i = 0; i < V; ++i) omega(i, j) = normal(rng);
  Eigen::MatrixXf Q = Orthonormal(M * omega);
  for (int it = 0; it < 2; ++it) {
    Q = Orthonormal(M.transpose() * Q);
    Q = Orthonormal(M * Q);
  }
  const Eigen::MatrixXf B = (M.transpose() * Q).transpose();  // sketch x V
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
    const auto& [unit, count] = ranked[static_cast<size_t>(v)];
    weight(v) = static_cast<float>(o.sif_a / (o.sif_a + count / total_units));
    if (polar && polar(unit)) weight(v) *= static_cast<float>(o.polar_weight);
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
