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
#include <string>

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
Matrix WithAspects(const Matrix& X, const std::vector<std::string>& texts,
                   const PolarityLexicon& lexicon, float g) {
  const Eigen::Index d = X.cols();
  const Eigen::Index k = static_cast<Eigen::Index>(lexicon.aspect_names().size());
  if (k == 0) return X;
  Matrix out = Matrix::Zero(X.rows(), d + k);
  out.leftCols(d) = X;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    if (X.row(i).isZero()) continue;
    const std::vector<int> aspects = lexicon.Aspects(texts[static_cast<size_t>(i)]);
    for (int a : aspects)
      out(i, d + a) = g / std::sqrt(static_cast<float>(aspects.size()));
    const float norm = out.row(i).norm();
    if (norm > 0) out.row(i) /= norm;
  }
  return out;
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
  std::string joined;
  for (const std::string& t : texts) (joined += t) += ' ';
  const bool learned = CjkFraction(joined) >= o.learned_min_cjk;
  // A small scope (few reviews) is centred, with its own thresholds (PointsOptions::small_scope_*).
  const bool small = !learned && in.review_count <= o.small_scope_reviews;
  const float centre = small ? std::max(o.centre, o.small_scope_centre) : o.centre;
  // Few rows in a wide space: the same dot products in n dimensions (RowSpaceCoordinates). It pays
  // while n x n x d (the Gram matrix) is below the 3 x n x K x d of leaders and two refinement
  // rounds, and the n^2 r factorisation stays small. The scorer's S S^T (Weights::gram) gives that
  // Gram matrix without touching the d columns at all.
  const Eigen::Index width = learned ? o.learned.dimensions
                             : o.cluster_columns <= 0
                                 ? in.embeddings->cols()
                                 : std::min<Eigen::Index>(o.cluster_columns, in.embeddings->cols());
  const bool row_space = !learned && static_cast<Eigen::Index>(n) <= kMaxRowSpaceRows &&
                         static_cast<Eigen::Index>(n) * 8 <= width;
  const bool from_gram =
      row_space && width == in.embeddings->cols() && w.gram.rows() == static_cast<Eigen::Index>(n);
  Matrix X;
  if (learned) {
    X = LearnedSentenceVectors(texts, o.learned,
                               [&lexicon](std::string_view u) { return lexicon.Score(u) != 0; });
    if (o.learned_aspect_weight > 0)
      X = WithAspects(X, texts, lexicon, o.learned_aspect_weight);
  } else if (from_gram) {
    X = RowSpaceCoordinates(ClusterSpaceGram(w.gram, centre));
  } else {
    X = ClusterSpace(*in.embeddings, o.cluster_columns, centre);
    if (row_space) X = RowSpaceCoordinates((X * X.transpose()).cast<double>());
  }
  const float threshold = learned ? o.learned_threshold
                          : small ? o.small_scope_threshold
                                  : o.threshold;
  const float centroid_threshold = learned ? o.learned_centroid_threshold
                                   : small ? o.small_scope_threshold
                                           : o.centroid_threshold;
  const float merge_threshold = learned ? o.learned_merge_threshold
                                : small ? o.small_scope_threshold
                                        : o.merge_threshold;
  const float member_threshold = small ? o.small_scope_member_min_similarity : 0.0f;
  auto fragment = [&](size_t i) { return o.is_fragment && o.is_fragment(texts[i]); };
  // Each sentence's sign under the word lists: a praise and a complaint about the same thing are
  // near in any distributional space ("battery is great" ~ "battery is awful"), so a sentence
  // never joins a point whose leader has the opposite sign.
  std::vector<int> sign(n);
  if (in.opinions.size() == n) {
    for (size_t i = 0; i < n; ++i) {
      sign[i] = (in.opinions[i] >= in.opinion_band) - (in.opinions[i] <= -in.opinion_band);
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      const int s = lexicon.Score(texts[i]);
      sign[i] = (s > 0) - (s < 0);
    }
  }

  // The scope's rated reviews, summed: a point's ratings say something only where they differ
  // from those of the reviews outside it (PointsOptions::rating_min_lift).
  double rating_sum = 0;
  size_t rated_reviews = 0;
  for (const std::optional<double>& r : in.ratings) {
    if (!r) continue;
    rating_sum += in.scale.Normalise(*r);
    ++rated_reviews;
  }

  // 1a. Leaders in decreasing attention weight.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return w.final(a) > w.final(b); });
  // The first `scan` sentences of `order` that pass `eligible`, are no fragment nor a zero row,
  // and are below `threshold` to every sign-compatible leader so far; at most `limit`.
  auto pick_leaders = [&](size_t scan, size_t limit, const auto& eligible) {
    std::vector<size_t> picked;
    for (size_t k = 0; k < scan && picked.size() < limit; ++k) {
      const size_t i = order[k];
      if (!eligible(i) || fragment(i) || X.row(i).squaredNorm() == 0) continue;
      bool near = false;
      for (size_t l : picked) {
        if (sign[i] * sign[l] >= 0 && X.row(i).dot(X.row(l)) >= threshold) {
          near = true;
          break;
        }
      }
      if (!near) picked.push_back(i);
    }
    return picked;
  };
  // Which of K candidates sentence i joins (K = none) and its similarity: its own point when it
  // leads one, else the most similar sign-compatible one at `at_least` or more (the last of ties).
  auto choose = [&](size_t i, size_t K, float at_least, const auto& leader_of,
                    const auto& similarity) {
    std::pair<size_t, float> best{K, at_least};
    for (size_t k = 0; k < K; ++k) {
      const float sim = similarity(k);
      if (leader_of(k) == i) return std::pair<size_t, float>{k, sim};
      if (sign[i] * sign[leader_of(k)] >= 0 && sim >= best.second) best = {k, sim};
    }
    return best;
  };
  std::vector<size_t> leaders = pick_leaders(o.max_scan > 0 ? std::min(n, o.max_scan) : n,
                                             o.max_leaders, [](size_t) { return true; });
  if (leaders.empty()) leaders.push_back(order[0]);  // every sentence a fragment: still one point

  // 1b. Members: each sentence joins its most similar compatible leader at or above the
  // threshold. 1c. Then refine_rounds times: points whose centroids are at or above the merge
  // threshold merge (the bigger keeps its leader), and each sentence joins its most similar
  // compatible centroid at or above the centroid threshold.
  std::vector<std::vector<PointMember>> members(leaders.size());
  Matrix centres(static_cast<Eigen::Index>(leaders.size()), X.cols());
  auto assign = [&](float at_least) {
    const size_t K = leaders.size();
    const Eigen::MatrixXf sims = X * centres.topRows(static_cast<Eigen::Index>(K)).transpose();
    members.assign(K, {});
    for (size_t i = 0; i < n; ++i) {
      const auto [best, best_sim] = choose(
          i, K, at_least, [&](size_t k) { return leaders[k]; },
          [&](size_t k) {
            return sims(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k));
          });
      if (best < K) members[best].push_back({i, best_sim});
    }
  };
  auto recentre = [&] {
    for (size_t k = 0; k < leaders.size(); ++k) {
      Eigen::RowVectorXf c = Eigen::RowVectorXf::Zero(X.cols());
      for (const PointMember& m : members[k]) c += X.row(static_cast<Eigen::Index>(m.index));
      const float norm = c.norm();
      centres.row(static_cast<Eigen::Index>(k)) =
          norm > 0 ? Eigen::RowVectorXf(c / norm) : Eigen::RowVectorXf(X.row(leaders[k]));
    }
  };
  // Average linkage: the mean cosine over pairs of members of two points is the dot product of
  // their members' (unnormalised) mean vectors; unlike centroid cosine, a big loose point has a
  // short mean and does not swallow its neighbours one by one. Merges go one at a time, the most
  // linked pair first; only the merged point's mean and its linkages change, so each merge
  // recomputes one row of means and one row of linkages (each with the same arithmetic as from
  // scratch: a member sum in member order, the same dot product), not all of them.
  auto merge = [&] {
    const size_t K = leaders.size();
    Matrix means(static_cast<Eigen::Index>(K), X.cols());
    auto set_mean = [&](size_t k) {
      Eigen::RowVectorXf c = Eigen::RowVectorXf::Zero(X.cols());
      for (const PointMember& m : members[k]) c += X.row(static_cast<Eigen::Index>(m.index));
      means.row(static_cast<Eigen::Index>(k)) =
          members[k].empty() ? c : Eigen::RowVectorXf(c / static_cast<float>(members[k].size()));
    };
    for (size_t k = 0; k < K; ++k) set_mean(k);
    Eigen::MatrixXf linkage(static_cast<Eigen::Index>(K), static_cast<Eigen::Index>(K));
    auto set_linkage = [&](size_t a, size_t b) {
      linkage(static_cast<Eigen::Index>(std::min(a, b)),
              static_cast<Eigen::Index>(std::max(a, b))) =
          means.row(static_cast<Eigen::Index>(std::min(a, b)))
              .dot(means.row(static_cast<Eigen::Index>(std::max(a, b))));
    };
    for (size_t a = 0; a < K; ++a)
      for (size_t b = a + 1; b < K; ++b) set_linkage(a, b);
    std::vector<bool> alive(K, true);
    for (;;) {
      float best = merge_threshold;
      size_t ba = K, bb = K;
      for (size_t a = 0; a < K; ++a) {
        if (!alive[a]) continue;
        for (size_t b = a + 1; b < K; ++b) {
          if (!alive[b] || sign[leaders[a]] * sign[leaders[b]] < 0) continue;
          const float sim = linkage(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b));
          if (sim >= best) {
            best = sim;
            ba = a;
            bb = b;
          }
        }
      }
      if (ba == K) break;
      if (members[bb].size() > members[ba].size()) std::swap(ba, bb);
      members[ba].insert(members[ba].end(), members[bb].begin(), members[bb].end());
      members[bb].clear();
      alive[bb] = false;
      set_mean(ba);
      for (size_t k = 0; k < K; ++k)
        if (alive[k] && k != ba) set_linkage(ba, k);
    }
    size_t kept = 0;
    for (size_t k = 0; k < K; ++k) {
      if (!alive[k]) continue;
      if (kept != k) {  // (a vector moved onto itself would be emptied)
        leaders[kept] = leaders[k];
        members[kept] = std::move(members[k]);
      }
      ++kept;
    }
    leaders.resize(kept);
    members.resize(kept);
  };
  for (size_t k = 0; k < leaders.size(); ++k)
    centres.row(static_cast<Eigen::Index>(k)) = X.row(leaders[k]);
  assign(threshold);
  std::vector<bool> first_placed(n, false);  // a member after the leaders' own assignment
  for (const std::vector<PointMember>& ms : members)
    for (const PointMember& m : ms) first_placed[m.index] = true;
  for (int round = 0; round < o.refine_rounds; ++round) {
    merge();
    recentre();
    assign(centroid_threshold);
  }
  // 1c (end). Orphans: sentences that joined a leader at first but no centroid after the merges (a
  // small group merged into a bigger one whose centroid is far from it: the planted Chinese 5 %
  // "service" complaint merged into the 40 % "battery" one at the learned space's low merge
  // threshold and kept 1 of its 10 reviews) lead and join points of their own, as in 1a/1b.
  if (o.rescue_orphans) {
    std::vector<bool> placed(n, false);
    for (const std::vector<PointMember>& ms : members)
      for (const PointMember& m : ms) placed[m.index] = true;
    auto orphan = [&](size_t i) { return !placed[i] && first_placed[i]; };
    const std::vector<size_t> orphan_leaders = pick_leaders(n, n, orphan);
    const size_t K = orphan_leaders.size();
    std::vector<std::vector<PointMember>> orphan_members(K);
    for (size_t i = 0; i < n; ++i) {
      if (!orphan(i)) continue;
      const auto [best, best_sim] = choose(
          i, K, threshold, [&](size_t k) { return orphan_leaders[k]; },
          [&](size_t k) { return X.row(i).dot(X.row(orphan_leaders[k])); });
      if (best < K) orphan_members[best].push_back({i, best_sim});
    }
    for (size_t k = 0; k < orphan_leaders.size(); ++k) {
      leaders.push_back(orphan_leaders[k]);
      members.push_back(std::move(orphan_members[k]));
    }
  }
  // 1d. A point whose leader says neither praise nor complaint can hold both ("服务员的服务很不错"
  // and "服务态度很差" about one thing). When each side is said by at least min_support reviews and
  // the smaller side holds at least polar_split_share of the signed members, the praising and the
  // complaining members become two points of their own (each led by its highest-weight member)
  // and the point keeps the members that say neither, so that no side is hidden in a mixed point
  // the polarity rule can only call neutral, and no unsigned member is counted as a praise.
  if (o.polar_split_share > 0) {
    const size_t K = leaders.size();
    for (size_t k = 0; k < K; ++k) {
      if (sign[leaders[k]] != 0) continue;
      std::set<size_t> praising, complaining;
      size_t positive = 0, negative = 0;
      for (const PointMember& m : members[k]) {
        if (sign[m.index] > 0) ++positive, praising.insert(in.review_of[m.index]);
        if (sign[m.index] < 0) ++negative, complaining.insert(in.review_of[m.index]);
      }
      if (praising.size() < o.min_support || complaining.size() < o.min_support ||
          static_cast<double>(std::min(positive, negative)) <
              o.polar_split_share * static_cast<double>(positive + negative))
        continue;
      for (const int side : {1, -1}) {
        std::vector<PointMember> said;
        std::erase_if(members[k], [&](const PointMember& m) {
          if (sign[m.index] != side) return false;
          said.push_back(m);
          return true;
        });
        size_t lead = said.front().index;
        for (const PointMember& m : said) {
          if (!fragment(m.index) && (fragment(lead) || w.final(m.index) > w.final(lead)))
            lead = m.index;
        }
        leaders.push_back(lead);
        members.push_back(std::move(said));
      }
    }
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
    // Representative: the member nearest the centroid that is not a fragment (the most typical
    // wording, not the loudest one); then members that do not say what it says leave the point.
    Eigen::RowVectorXf centroid = Eigen::RowVectorXf::Zero(X.cols());
    for (const PointMember& m : ms) centroid += X.row(static_cast<Eigen::Index>(m.index));
    auto typical = [&](size_t i) { return X.row(static_cast<Eigen::Index>(i)).dot(centroid); };
    // Nearer by more than rounding: the two members of a two-sentence point are exactly as near
    // its centroid, and the earlier (higher-weight) one stays the face whatever the arithmetic.
    auto nearer = [&](size_t a, size_t b) { return typical(a) > typical(b) + kTypicalTie; };
    // The face among the members that `can` show it and are no longer than their median (in
    // bytes): the most typical wording of a typical length. Long sentences that list many things
    // sit near a broad point's centre and would take a summary's budget alone. None: kNone.
    constexpr size_t kNone = SIZE_MAX;
    auto typical_face = [&](const auto& can) {
      std::vector<size_t> sizes;
      for (const PointMember& m : ms)
        if (!fragment(m.index) && can(m.index)) sizes.push_back(texts[m.index].size());
      if (sizes.empty()) return kNone;
      const size_t at = (sizes.size() - 1) * kFaceLengthPercentile / 100;
      std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(at), sizes.end());
      const size_t cap = sizes.size() >= kFaceLengthMinMembers ? sizes[at] : SIZE_MAX;
      // Ties (within kTypicalTie) go to the leader, then to the earlier sentence, so the face
      // does not depend on the members' order among equal similarities (the arithmetic's).
      auto eligible = [&](size_t i) { return !fragment(i) && can(i) && texts[i].size() <= cap; };
      size_t face = eligible(leaders[k]) ? leaders[k] : kNone;
      for (const PointMember& m : ms) {
        if (!eligible(m.index) || m.index == face) continue;
        const bool tie = face != kNone && !nearer(m.index, face) && !nearer(face, m.index);
        if (face == kNone || nearer(m.index, face) || (tie && face != leaders[k] && m.index < face))
          face = m.index;
      }
      return face;
    };
    p.representative = typical_face([](size_t) { return true; });
    if (p.representative == kNone) p.representative = leaders[k];  // every member a fragment
    if (member_threshold > 0) {
      const Eigen::RowVectorXf rep = X.row(static_cast<Eigen::Index>(p.representative));
      std::erase_if(ms, [&](const PointMember& m) {
        return m.index != p.representative &&
               X.row(static_cast<Eigen::Index>(m.index)).dot(rep) < member_threshold;
      });
    }
    p.text = WithoutListNumber(texts[p.representative]);
    std::set<size_t> reviews;
    double wsum = 0, lex = 0, covered = 0, rated = 0, rating = 0;
    for (const PointMember& m : ms) {
      reviews.insert(in.review_of[m.index]);
      // Mixing coefficients: the attention weight, floored so a zero weight still counts a bit.
      const double wi = std::max<double>(w.final(m.index), 1e-9);
      p.weight += w.final(m.index);
      wsum += wi;
      lex += wi * sign[m.index];
      if (sign[m.index] != 0) covered += wi;
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
    double inside_sum = 0;
    size_t inside = 0;
    for (size_t r : reviews) {
      if (r < in.ratings.size() && in.ratings[r]) {
        inside_sum += in.scale.Normalise(*in.ratings[r]);
        ++inside;
      }
    }
    std::optional<double> lift;
    if (inside > 0 && rated_reviews > inside) {
      lift = inside_sum / static_cast<double>(inside) -
             (rating_sum - inside_sum) / static_cast<double>(rated_reviews - inside);
    }
    p.polarity = Decide(p, o, rated / wsum, lift);
    // A praise or complaint is shown by a member that says it in words when there is one (the
    // highest-weight one that is not a fragment), never by one of the other sign or a flat
    // statement when a signed one exists: "价格太高" is not the face of a praise point.
    if (p.polarity == Polarity::kPraise || p.polarity == Polarity::kComplaint) {
      const int want = p.polarity == Polarity::kPraise ? 1 : -1;
      const size_t best = typical_face([&](size_t i) { return sign[i] == want; });
      if (best != kNone && sign[p.representative] != want) {
        p.representative = best;
        p.text = WithoutListNumber(texts[best]);
      }
    }
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
