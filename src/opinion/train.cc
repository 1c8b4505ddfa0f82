// Training the opinion model from review ratings (opinion.h): multiple-instance learning with
// AdaGrad on the hashed buckets a review touches.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "revsum/opinion.h"

namespace revsum {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a fixed generator, so the example order — and with it
// the trained bytes — is the same with every standard library.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int SideOf(float target) { return target > 0 ? 0 : target < 0 ? 1 : 2; }

}  // namespace

OpinionTrainer::OpinionTrainer(OpinionTrainOptions options) : options_(options) {}

OpinionModel OpinionTrainer::Train(const std::vector<OpinionExample>& examples,
                                   const std::optional<OpinionModel>& start) const {
  if (examples.empty()) throw std::invalid_argument("opinion training: no examples");
  const OpinionTrainOptions& o = options_;
  OpinionModel model = start ? *start : OpinionModel(o.dim_bits);
  if (model.dim_bits() != o.dim_bits) {
    throw std::invalid_argument("opinion training: the start model has 2^" +
                                std::to_string(model.dim_bits()) + " buckets, not 2^" +
                                std::to_string(o.dim_bits));
  }
  const size_t d = size_t{1} << o.dim_bits;
  std::vector<float> gw2(d, 0.0f), gu2(d, 0.0f);  // AdaGrad's sums of squared gradients
  float gb2 = 0;

  // Per-side weights: each side weighs a third (or a half, when only two occur).
  double count[3] = {0, 0, 0};
  for (const OpinionExample& e : examples) count[SideOf(e.target)] += 1;
  double side_weight[3] = {1, 1, 1};
  if (o.balance_sides) {
    const int sides = (count[0] > 0) + (count[1] > 0) + (count[2] > 0);
    for (int s = 0; s < 3; ++s) {
      side_weight[s] = count[s] > 0 ? double(examples.size()) / (sides * count[s]) : 0;
    }
  }

  std::vector<size_t> order(examples.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  uint64_t rng = o.seed;
  // Gradient of one example, gathered per bucket before the update (a bucket may occur in several
  // sentences of the review): dense accumulators and the list of buckets touched. AdaGrad updates
  // each bucket from its own gradient and history alone, so the order of the updates is free.
  std::vector<float> acc_w(d, 0.0f), acc_u(d, 0.0f);
  std::vector<uint8_t> seen(d, 0);
  std::vector<uint32_t> touched;
  std::vector<float> p, a, g;
  const float eps = 1e-8f;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    for (size_t i = order.size(); i > 1; --i) {  // Fisher-Yates
      std::swap(order[i - 1], order[SplitMix64(&rng) % i]);
    }
    for (size_t k : order) {
      const OpinionExample& e = examples[k];
      const size_t n = e.sentences.size();
      if (n == 0) continue;
      p.assign(n, 0);
      a.assign(n, 0);
      g.assign(n, 0);
      float top = -INFINITY;
      for (size_t i = 0; i < n; ++i) {
        const OpinionFeatures& f = e.sentences[i];
        float s = 0, l = 0;
        for (uint32_t b : f.buckets) {
          s += model.w_[b];
          l += model.u_[b];
        }
        p[i] = std::tanh(s * f.value + model.bias_);
        g[i] = l * f.value;
        top = std::max(top, g[i]);
      }
      double sum = 0;
      for (size_t i = 0; i < n; ++i) sum += std::exp(double(g[i] - top));
      double r_hat = 0;
      for (size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(std::exp(double(g[i] - top)) / sum);
        r_hat += double(a[i]) * double(p[i]);
      }
      const float err =
          static_cast<float>((r_hat - double(e.target)) * side_weight[SideOf(e.target)]);
      if (err == 0) continue;
      touched.clear();
      float gb = 0;
      for (size_t i = 0; i < n; ++i) {
        const OpinionFeatures& f = e.sentences[i];
        const float ds = err * a[i] * (1 - p[i] * p[i]);                   // d loss / d s_i
        const float dg = err * a[i] * (p[i] - static_cast<float>(r_hat));  // d loss / d g_i
        gb += ds;
        for (uint32_t b : f.buckets) {
          if (!seen[b]) {
            seen[b] = 1;
            touched.push_back(b);
          }
          acc_w[b] += ds * f.value;
          acc_u[b] += dg * f.value;
        }
      }
      for (uint32_t b : touched) {
        const float gw = acc_w[b] + o.l2 * model.w_[b];
        const float gu = acc_u[b] + o.l2 * model.u_[b];
        acc_w[b] = acc_u[b] = 0.0f;
        seen[b] = 0;
        gw2[b] += gw * gw;
        gu2[b] += gu * gu;
        model.w_[b] -= o.learning_rate * gw / (std::sqrt(gw2[b]) + eps);
        model.u_[b] -= o.learning_rate * gu / (std::sqrt(gu2[b]) + eps);
      }
      gb2 += gb * gb;
      model.bias_ -= o.learning_rate * gb / (std::sqrt(gb2) + eps);
    }
  }
  return model;
}

OpinionEvaluation EvaluateOpinions(const OpinionModel& model,
                                   const std::vector<OpinionExample>& examples) {
  OpinionEvaluation ev;
  double abs_error = 0;
  for (const OpinionExample& e : examples) {
    const double r = OpinionModel::Verdict(model.ScoreFeatures(e.sentences));
    abs_error += std::abs(r - double(e.target));
    if (e.target == 0) continue;
    ++ev.examples;
    const bool right = (r > 0 && e.target > 0) || (r < 0 && e.target < 0);
    ev.correct += right;
    if (std::abs(r) >= model.band()) {
      ++ev.sided;
      ev.sided_correct += right;
    }
  }
  if (!examples.empty()) ev.mean_abs_error = abs_error / double(examples.size());
  return ev;
}

}  // namespace revsum
