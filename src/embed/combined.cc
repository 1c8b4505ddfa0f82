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
  const Matrix y = second_.Embed(sentences);
  const Eigen::Index n = static_cast<Eigen::Index>(sentences.size());
  if (x.rows() != n || y.rows() != n) {
    throw std::runtime_error("CombinedEmbedder: an embedder returned the wrong number of rows");
  }
  const float wx = std::sqrt(options_.first_share);
  const float wy = std::sqrt(1.f - options_.first_share);
  Matrix out(n, x.cols() + y.cols());
  out.leftCols(x.cols()) = wx * x;
  out.rightCols(y.cols()) = wy * y;
  for (Eigen::Index i = 0; i < n; ++i) {
    const float norm = out.row(i).norm();
    // Exactly 1 when both halves are unit rows; otherwise one half is zero (or a weight is 0).
    if (norm > 0.f) out.row(i) /= norm;
  }
  return out;
}

}  // namespace revsum
