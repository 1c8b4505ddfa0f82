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
  std::vector<size_t> all(sentences.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return EmbedRows(sentences, first_.Embed(sentences), all);
}

// The output is sized from dim() and filled one half at a time, each part freed before the next is
// made: a scope holds the output and the larger part (the first's, lexical, 1,024 of 1,536
// columns in a large hotel), not the output and both parts.
Matrix CombinedEmbedder::EmbedRows(const std::vector<std::string>& sentences, Matrix first_rows,
                                   const std::vector<size_t>& second_rows) {
  const Eigen::Index n = static_cast<Eigen::Index>(sentences.size());
  if (first_rows.rows() != n) {
    throw EmbedError("CombinedEmbedder: an embedder returned the wrong number of rows");
  }
  if (n > 0 && second_rows.empty()) {
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
  const float wx = std::sqrt(options_.first_share);
  const float wy = std::sqrt(1.f - options_.first_share);
  const Eigen::Index first_width = first_rows.cols();
  Matrix out = ZeroMatrix(n, first_width + second_.dim());
  out.leftCols(first_width) = wx * first_rows;
  first_rows = Matrix();
  const Matrix y = second_.Embed(chosen);
  if (y.rows() != static_cast<Eigen::Index>(chosen.size()) || y.cols() != second_.dim()) {
    throw EmbedError("CombinedEmbedder: an embedder returned the wrong number of rows or columns");
  }
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
