// revsum's own summary of a bench entity for scoring: flat, or structured as the export makes it
// (eval.h: StructuredSummary).
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "revsum/eval.h"
#include "revsum/fragment.h"
#include "revsum/structured.h"
#include "revsum/use_lite.h"

namespace revsum {

StructuredSummaryResult StructuredSummary(const std::vector<std::string>& review_texts,
                                          const EvalOptions& options, Embedder& embedder) {
  const SummarizeOptions& summarize = options.summarize;
  StructuredSummaryResult result;
  const Budget& budget = summarize.budget;
  if (budget.unit == Budget::Unit::kTokens && !summarize.token_cost) {
    throw std::invalid_argument(
        "the budget " + budget.ToString() +
        " is in tokens: it needs a token cost (SummarizeOptions::token_cost)");
  }
  SentenceSegmenter segmenter(summarize.segment);
  std::vector<std::string> texts;
  PointsInput in;
  for (size_t r = 0; r < review_texts.size(); ++r) {
    for (Sentence& s : segmenter.Split(review_texts[r])) {
      texts.push_back(std::move(s.text));
      in.review_of.push_back(r);
    }
  }
  if (texts.empty()) return result;
  const SeedSet seeds = summarize.seeds_path.empty() ? SeedSet{} : LoadSeeds(summarize.seeds_path);
  const ScopeSummary scored = SummarizeScope(texts, Scope::kProduct, summarize, seeds, embedder);

  // The product's points settings (run.cc ProductPoints); bench reviews carry no rating.
  in.texts = &texts;
  in.review_count = review_texts.size();
  in.embeddings = &scored.embeddings;
  in.weights = &scored.weights;
  std::unique_ptr<PolarityLexicon> loaded;
  if (!options.lexicon) {
    loaded =
        std::make_unique<PolarityLexicon>(PolarityLexicon::Load(PolarityLexicon::DefaultPaths()));
  }
  const PolarityLexicon& lexicon = options.lexicon ? *options.lexicon : *loaded;
  if (options.opinions) {
    // Each review's sentences scored together, as a run does, with the word lists as a prior.
    for (size_t begin = 0; begin < texts.size();) {
      size_t end = begin;
      while (end < texts.size() && in.review_of[end] == in.review_of[begin]) ++end;
      const std::vector<std::string> review(texts.begin() + static_cast<std::ptrdiff_t>(begin),
                                            texts.begin() + static_cast<std::ptrdiff_t>(end));
      const std::vector<SentenceOpinion> scored = options.opinions->Score(review);
      for (size_t i = 0; i < scored.size(); ++i) {
        const int words = lexicon.Score(review[i]);
        in.opinions.push_back(CombineWithWordLists(scored[i].score, (words > 0) - (words < 0)));
        in.salience.push_back(scored[i].salience);
      }
      begin = end;
    }
    in.opinion_band = options.opinions->band();
  }
  PointsOptions points_options;
  if (embedder.name() == "combined") points_options.cluster_columns = kUseLiteDim;
  const std::shared_ptr<const FragmentRule> fragments = DefaultFragmentRule();
  points_options.is_fragment = [&fragments](std::string_view t) {
    return fragments->IsFragment(t);
  };
  const std::vector<Point> points = ComputePoints(in, lexicon, points_options);

  // Sections as the export builds them: points keep ComputePoints' order (support, then weight).
  std::vector<const Point*> sections[3];
  std::array<std::vector<double>, 3> support;
  for (const Point& p : points) {
    const int s = SectionOfPolarity(PolarityName(p.polarity));
    sections[s].push_back(&p);
    support[s].push_back(static_cast<double>(p.support));
  }
  auto body = [&](const StructuredChoice& chosen, std::vector<const Point*>* order) {
    std::string text;
    for (int s = 0; s < 3; ++s) {
      std::vector<size_t> taken = chosen[s];
      std::sort(taken.begin(), taken.end());
      for (size_t i : taken) {
        if (!text.empty()) text += ' ';
        text += sections[s][i]->text;
        if (order) order->push_back(sections[s][i]);
      }
    }
    return text;
  };

  const CostFunction words = BudgetWordCost();
  double limit = budget.amount;
  if (budget.unit == Budget::Unit::kRatio) {
    double before = 0;
    for (const std::string& r : review_texts) before += static_cast<double>(words(r));
    limit = std::floor(budget.amount * before);
  }
  auto cost = [&](const std::string& text, size_t count) -> double {
    switch (budget.unit) {
      case Budget::Unit::kSentences:
        return static_cast<double>(count);
      case Budget::Unit::kTokens:
        return static_cast<double>(summarize.token_cost(text));
      case Budget::Unit::kWords:
      case Budget::Unit::kRatio:
        return static_cast<double>(words(text));
    }
    return 0;
  };
  StructuredChoice chosen;
  SelectStructuredPoints(
      support,
      [&](const StructuredChoice& c, size_t count) {
        return cost(body(c, nullptr), count) <= limit;
      },
      [&](int s, size_t i) { return cost(sections[s][i]->text, 1); }, chosen);

  std::vector<const Point*> order;
  result.text = body(chosen, &order);
  for (const Point* p : order) {
    result.points.push_back(
        {p->text, std::string(PolarityName(p->polarity)), p->support, p->representative});
  }

  // Also said: the flat selection's whole sentences that no chosen point holds.
  std::vector<bool> held(texts.size(), false);
  for (const Point* p : order) {
    held[p->representative] = true;
    for (const PointMember& m : p->members) held[m.index] = true;
  }
  std::vector<size_t> candidates;
  for (const Selected& s : scored.selected) {
    if (!held[s.index]) candidates.push_back(s.index);
  }
  auto with = [&](const std::vector<size_t>& taken) {
    std::string text = result.text;
    for (size_t i : taken) text += (text.empty() ? "" : " ") + texts[candidates[i]];
    return text;
  };
  const std::vector<size_t> taken = SelectAlsoSaid(candidates.size(), [&](const auto& t) {
    return cost(with(t), order.size() + t.size()) <= limit;
  });
  result.text = with(taken);
  for (size_t i : taken) result.also_said.push_back(texts[candidates[i]]);
  return result;
}

std::string EvalSummary(const std::vector<std::string>& review_texts, const EvalOptions& options,
                        Embedder& embedder) {
  if (options.structured) return StructuredSummary(review_texts, options, embedder).text;
  return SummarizeTexts(review_texts, options.summarize, embedder).Text();
}

}  // namespace revsum
