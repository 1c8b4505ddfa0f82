// Points of a product scope (points.h): leader clustering over the attention order, support,
// aspect and polarity.
// GCC 12 reports false "maybe-uninitialized" warnings inside Eigen's AVX-512 GEMM kernels
// (-march=native builds), as in src/score/attention.cc.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "revsum/points.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <stdexcept>

namespace revsum {

namespace {

// The cluster space: S or its last `cols` columns, rows renormalised (zero rows stay zero).
Matrix ClusterSpace(const Matrix& S, int cols) {
  if (cols <= 0 || cols >= S.cols()) return S;
  Matrix out = S.rightCols(cols);
  for (Eigen::Index i = 0; i < out.rows(); ++i) {
    const float norm = out.row(i).norm();
    if (norm > 0) out.row(i) /= norm;
  }
  return out;
}

Polarity Decide(const Point& p, const PointsOptions& o, double rated_share) {
  if (p.lexicon_coverage >= o.lexicon_min_coverage && std::abs(p.lexicon) >= o.lexicon_min_mean) {
    return p.lexicon > 0 ? Polarity::kPraise : Polarity::kComplaint;
  }
  if (p.rating && rated_share >= 0.5) {
    if (*p.rating >= o.rating_min_mean) return Polarity::kPraise;
    if (*p.rating <= -o.rating_min_mean) return Polarity::kComplaint;
    return Polarity::kNeutral;
  }
  return Polarity::kUnknown;
}

}  // namespace

std::vector<Point> ComputePoints(const PointsInput& in, const PolarityLexicon& lexicon,
                                 const PointsOptions& o) {
  if (!in.texts || !in.embeddings || !in.weights) {
    throw std::invalid_argument("ComputePoints: texts, embeddings and weights are required");
  }
  const std::vector<std::string>& texts = *in.texts;
  const size_t n = texts.size();
  const Weights& w = *in.weights;
  if (static_cast<size_t>(in.embeddings->rows()) != n || static_cast<size_t>(w.final.size()) != n ||
      in.review_of.size() != n) {
    throw std::invalid_argument("ComputePoints: " + std::to_string(n) +
                                " texts but a different number of embeddings, weights or reviews");
  }
  for (size_t r : in.review_of) {
    if (r >= in.review_count)
      throw std::invalid_argument("ComputePoints: review index out of range");
  }
  if (n == 0) return {};
  const Matrix X = ClusterSpace(*in.embeddings, o.cluster_columns);
  auto fragment = [&](size_t i) { return o.is_fragment && o.is_fragment(texts[i]); };

  // 1a. Leaders in decreasing attention weight.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return w.final(a) > w.final(b); });
  std::vector<size_t> leaders;
  for (size_t k = 0; k < std::min(n, o.max_scan) && leaders.size() < o.max_leaders; ++k) {
    const size_t i = order[k];
    if (fragment(i) || X.row(i).squaredNorm() == 0) continue;
    bool near = false;
    for (size_t l : leaders) {
      if (X.row(i).dot(X.row(l)) >= o.threshold) {
        near = true;
        break;
      }
    }
    if (!near) leaders.push_back(i);
  }
  if (leaders.empty()) leaders.push_back(order[0]);  // every sentence a fragment: still one point

  // 1b. Members: each sentence joins its most similar leader at or above the threshold.
  Matrix L(static_cast<Eigen::Index>(leaders.size()), X.cols());
  for (size_t k = 0; k < leaders.size(); ++k)
    L.row(static_cast<Eigen::Index>(k)) = X.row(leaders[k]);
  const Eigen::MatrixXf sims = X * L.transpose();  // n x K
  std::vector<std::vector<PointMember>> members(leaders.size());
  for (size_t i = 0; i < n; ++i) {
    Eigen::Index best = 0;
    const float s = sims.row(static_cast<Eigen::Index>(i)).maxCoeff(&best);
    const bool is_leader = leaders[static_cast<size_t>(best)] == i;
    if (s >= o.threshold || is_leader) members[static_cast<size_t>(best)].push_back({i, s});
  }
  for (size_t k = 0; k < leaders.size(); ++k) {
    const bool present = std::any_of(members[k].begin(), members[k].end(),
                                     [&](const PointMember& m) { return m.index == leaders[k]; });
    if (!present) members[k].push_back({leaders[k], 1.0f});  // a leader always belongs to itself
  }

  // Anchored aspect heads and their scope means.
  std::vector<std::pair<std::string, Eigen::Index>> aspects;
  for (size_t h = 0; h < w.head_names.size(); ++h) {
    if (w.head_names[h].rfind("aspect:", 0) == 0 &&
        static_cast<Eigen::Index>(h) < w.per_head.cols())
      aspects.emplace_back(w.head_names[h].substr(7), static_cast<Eigen::Index>(h));
  }

  std::vector<Point> points;
  for (size_t k = 0; k < leaders.size(); ++k) {
    std::vector<PointMember>& ms = members[k];
    std::stable_sort(ms.begin(), ms.end(), [](const PointMember& a, const PointMember& b) {
      return a.similarity > b.similarity;
    });
    Point p;
    p.representative = leaders[k];
    for (const PointMember& m : ms) {
      if (!fragment(m.index) && w.final(m.index) > w.final(p.representative))
        p.representative = m.index;
    }
    p.text = texts[p.representative];
    std::set<size_t> reviews;
    double wsum = 0, lex = 0, covered = 0, rated = 0, rating = 0;
    for (const PointMember& m : ms) {
      reviews.insert(in.review_of[m.index]);
      // Mixing coefficients: the attention weight, floored so a zero weight still counts a bit.
      const double wi = std::max<double>(w.final(m.index), 1e-9);
      p.weight += w.final(m.index);
      wsum += wi;
      const int s = lexicon.Score(texts[m.index]);
      const int sign = (s > 0) - (s < 0);
      lex += wi * sign;
      if (sign != 0) covered += wi;
      const size_t r = in.review_of[m.index];
      if (r < in.ratings.size() && in.ratings[r]) {
        rated += wi;
        rating += wi * in.scale.Normalise(*in.ratings[r]);
      }
    }
    p.members = ms;
    p.support = reviews.size();
    p.share =
        in.review_count ? static_cast<double>(p.support) / static_cast<double>(in.review_count) : 0;
    p.lexicon = lex / wsum;
    p.lexicon_coverage = covered / wsum;
    if (rated > 0) p.rating = rating / rated;
    p.polarity = Decide(p, o, rated / wsum);
    // Aspect: lift of each aspect head over the members vs its scope mean (1 / n).
    double best = 0, second = 0;
    std::string best_name;
    for (const auto& [name, col] : aspects) {
      double mean = 0;
      for (const PointMember& m : ms) mean += w.per_head(static_cast<Eigen::Index>(m.index), col);
      mean /= static_cast<double>(ms.size());
      const double lift = mean * static_cast<double>(n);
      if (lift > best) {
        second = best;
        best = lift;
        best_name = name;
      } else if (lift > second) {
        second = lift;
      }
    }
    if (best >= o.aspect_min_lift && best >= o.aspect_margin * second) p.aspect = best_name;
    points.push_back(std::move(p));
  }
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return a.support != b.support ? a.support > b.support : a.weight > b.weight;
  });
  std::vector<Point> kept;
  for (Point& p : points) {
    if (kept.size() >= o.max_points) break;
    if (p.support >= o.min_support || kept.empty()) kept.push_back(std::move(p));
  }
  return kept;
}

}  // namespace revsum
