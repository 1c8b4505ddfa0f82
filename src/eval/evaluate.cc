// Scoring a system's summaries against a benchmark set, and the "lead" baseline.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/eval.h"
#include "revsum/rouge.h"

namespace revsum {
namespace {

void Accumulate(RougeScores& sum, const RougeScores& s) {
  sum.recall += s.recall;
  sum.precision += s.precision;
  sum.f += s.f;
}

// Whitespace-separated tokens, as CutToWords counts them.
size_t CountWords(std::string_view s) {
  size_t words = 0;
  bool in_word = false;
  for (char c : s) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

RougeScores Mean(const RougeScores& sum, size_t n) {
  if (n == 0) return {};
  const double d = static_cast<double>(n);
  return {sum.recall / d, sum.precision / d, sum.f / d};
}

// perl's rand() since 5.20 (and glibc's drand48 before): the 48-bit linear congruential
// generator x' = (0x5DEECE66D x + 0xB) mod 2^48, seeded by srand(s) as x = s * 2^16 + 0x330E.
class PerlRand {
 public:
  explicit PerlRand(uint32_t seed) : x_((uint64_t{seed} << 16) + 0x330E) {}
  // perl's rand(n): uniform in [0, n).
  double Next(double n) {
    x_ = (x_ * 0x5DEECE66DULL + 0xB) & ((uint64_t{1} << 48) - 1);
    return n * std::ldexp(static_cast<double>(x_), -48);
  }

 private:
  uint64_t x_;
};

double Round5(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%7.5f", x);
  return std::strtod(buf, nullptr);
}

// Positions 0..n-1 in the order of the strings "1".."n" sorted as strings ("1" "10" "11" ... "2").
std::vector<size_t> EvalIdOrder(size_t n) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [](size_t a, size_t b) { return std::to_string(a + 1) < std::to_string(b + 1); });
  return order;
}

}  // namespace

double RougeBootstrapAverage(const std::vector<double>& scores, int resamples, double confidence,
                             double* ci_low, double* ci_high) {
  const size_t n = scores.size();
  if (n == 0 || resamples <= 0) {
    if (ci_low) *ci_low = 0;
    if (ci_high) *ci_high = 0;
    return 0;
  }
  std::vector<double> means;
  means.reserve(static_cast<size_t>(resamples));
  for (int k = 0; k < resamples; ++k) {
    PerlRand rand(static_cast<uint32_t>(k));
    double sum = 0;
    for (size_t j = 0; j < n; ++j) {
      sum += scores[static_cast<size_t>(rand.Next(static_cast<double>(n)))];
    }
    means.push_back(sum / static_cast<double>(n));
  }
  std::sort(means.begin(), means.end());
  double total = 0;
  for (double m : means) total += m;
  if (ci_low || ci_high) {
    // The script's interpolation between neighbouring ranks (computeAverages).
    const double r = resamples;
    const double delta = r * ((100 - confidence) / 2.0) / 100.0;
    const auto upper_a = static_cast<size_t>(r - delta - 1);
    const auto lower_a = static_cast<size_t>(delta);
    const double ratio = r - delta - 1 - static_cast<double>(upper_a);
    auto at = [&means](size_t i) { return means[std::min(i, means.size() - 1)]; };
    if (ci_low) *ci_low = Round5(at(lower_a) + (at(lower_a + 1) - at(lower_a)) * ratio);
    if (ci_high) *ci_high = Round5(at(upper_a) + (at(upper_a + 1) - at(upper_a)) * ratio);
  }
  return Round5(total / resamples);
}

std::vector<DatasetScores> ScoreSystem(const std::vector<BenchEntity>& entities,
                                       const std::map<std::string, std::string>& summaries,
                                       std::vector<EntityScores>* per_entity) {
  // Fail before scoring anything when a summary is missing.
  for (const BenchEntity& entity : entities) {
    if (summaries.find(entity.id) == summaries.end()) {
      throw EvalError("no summary for entity \"" + entity.id + "\" (dataset " + entity.dataset +
                      ")");
    }
  }
  std::vector<DatasetScores> datasets;
  std::vector<RougeResult> all;  // per entity, in `entities` order
  all.reserve(entities.size());
  if (per_entity) per_entity->clear();
  for (const BenchEntity& entity : entities) {
    RougeOptions options;
    options.max_words = entity.budget_words;
    const RougeResult& r =
        all.emplace_back(ScoreRouge(summaries.at(entity.id), entity.gold, options));
    if (per_entity) per_entity->push_back({entity.id, entity.dataset, r.r1, r.r2, r.rl});

    DatasetScores* d = nullptr;
    for (DatasetScores& existing : datasets) {
      if (existing.dataset == entity.dataset) d = &existing;
    }
    if (!d) {
      datasets.push_back({});
      d = &datasets.back();
      d->dataset = entity.dataset;
    }
    ++d->entities;
    Accumulate(d->mean_r1, r.r1);  // sums until the end of the loop
    Accumulate(d->mean_r2, r.r2);
    Accumulate(d->mean_rl, r.rl);
  }
  for (DatasetScores& d : datasets) {
    // Per-entity scores of this dataset in evaluation-id order, for the script's bootstrap.
    std::vector<const RougeResult*> results;
    for (size_t i = 0; i < entities.size(); ++i) {
      if (entities[i].dataset == d.dataset) results.push_back(&all[i]);
    }
    auto bootstrap = [&](auto field, double* low, double* high) {
      std::vector<double> scores;
      for (size_t i : EvalIdOrder(results.size())) scores.push_back(field(*results[i]));
      return RougeBootstrapAverage(scores, 1000, 95, low, high);
    };
    d.r1 = 100 *
           bootstrap([](const RougeResult& r) { return r.r1.f; }, &d.r1_ci_low.f, &d.r1_ci_high.f);
    d.r2 = 100 * bootstrap([](const RougeResult& r) { return r.r2.f; }, nullptr, nullptr);
    d.rl = 100 * bootstrap([](const RougeResult& r) { return r.rl.f; }, nullptr, nullptr);
    bootstrap([](const RougeResult& r) { return r.r1.recall; }, &d.r1_ci_low.recall,
              &d.r1_ci_high.recall);
    bootstrap([](const RougeResult& r) { return r.r1.precision; }, &d.r1_ci_low.precision,
              &d.r1_ci_high.precision);
    d.mean_r1 = Mean(d.mean_r1, d.entities);
    d.mean_r2 = Mean(d.mean_r2, d.entities);
    d.mean_rl = Mean(d.mean_rl, d.entities);
  }
  return datasets;
}

std::string LeadSummary(const BenchEntity& entity) {
  std::vector<std::vector<std::string>> sentences;
  size_t longest = 0;
  for (const BenchReview& review : entity.reviews) {
    sentences.push_back(SplitSentenceUnits(review.text));
    longest = std::max(longest, sentences.back().size());
  }
  std::string lead;
  size_t words = 0;
  for (size_t k = 0; k < longest && words < entity.budget_words; ++k) {
    for (const auto& review_sentences : sentences) {
      if (k >= review_sentences.size()) continue;
      const std::string& s = review_sentences[k];
      if (!lead.empty()) lead += '\n';
      lead += s;
      words += CountWords(s);
    }
  }
  return CutToWords(lead, entity.budget_words);
}

}  // namespace revsum
