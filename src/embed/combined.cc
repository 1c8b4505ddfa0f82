// CombinedEmbedder: weighted concatenation (see include/revsum/combined.h).
#include "revsum/combined.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace revsum {

CombinedEmbedder::CombinedEmbedder(Embedder& first, Embedder& second, CombinedOptions options)
    : first_(first), second_(second), options_(options) {
  if (!(options_.first_share >= 0.f && options_.first_share <= 1.f)) {
    throw std::invalid_argument("CombinedEmbedder: first_share must be in [0, 1], got " +
                                std::to_string(options_.first_share));
  }
}

std::string CombinedEmbedder::model_hash() const {
  std::ostringstream out;
  out << "combined:a=" << options_.first_share << ':' << first_.name() << '=' << first_.model_hash()
      << ';' << second_.name() << '=' << second_.model_hash();
  return out.str();
}

Matrix CombinedEmbedder::Embed(const std::vector<std::string>& sentences) {
  const Matrix x = first_.Embed(sentences);
  std::vector<size_t> all(sentences.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return EmbedRows(sentences, x, all);
}

Matrix CombinedEmbedder::EmbedRows(const std::vector<std::string>& sentences,
                                   const Matrix& first_rows,
                                   const std::vector<size_t>& second_rows) {
  const Eigen::Index n = static_cast<Eigen::Index>(sentences.size());
  if (first_rows.rows() != n) {
    throw EmbedError("CombinedEmbedder: an embedder returned the wrong number of rows");
  }
  if (n > 0 && second_rows.empty()) {
    // The second half's width comes from the second embedder's rows.
    throw std::invalid_argument("CombinedEmbedder::EmbedRows: no row for the second embedder");
  }
  std::vector<std::string> chosen;
  chosen.reserve(second_rows.size());
  for (size_t i = 0; i < second_rows.size(); ++i) {
    if (second_rows[i] >= sentences.size() || (i > 0 && second_rows[i] <= second_rows[i - 1])) {
      throw std::invalid_argument(
          "CombinedEmbedder::EmbedRows: rows must be ascending and in range");
    }
    chosen.push_back(sentences[second_rows[i]]);
  }
  const Matrix y = second_.Embed(chosen);
  if (y.rows() != static_cast<Eigen::Index>(chosen.size())) {
    throw EmbedError("CombinedEmbedder: an embedder returned the wrong number of rows");
  }
  const float wx = std::sqrt(options_.first_share);
  const float wy = std::sqrt(1.f - options_.first_share);
  Matrix out = Matrix::Zero(n, first_rows.cols() + y.cols());
  out.leftCols(first_rows.cols()) = wx * first_rows;
  for (size_t i = 0; i < second_rows.size(); ++i) {
    out.row(static_cast<Eigen::Index>(second_rows[i])).rightCols(y.cols()) =
        wy * y.row(static_cast<Eigen::Index>(i));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const float norm = out.row(i).norm();
    // Exactly 1 when both halves are unit rows; otherwise one half is zero (or a weight is 0).
    if (norm > 0.f) out.row(i) /= norm;
  }
  return out;
}

}  // namespace revsum
