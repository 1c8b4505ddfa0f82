// SummarizeScope: embed (with the seeds), score, select — for sentences already segmented.
#include <algorithm>
#include <utility>

#include "revsum/combined.h"
#include "revsum/summarize.h"

namespace revsum {
namespace {

// Scores the scope with the combined embedder's first (lexical) half alone, then embeds with the
// second half only the options.dense_candidates best-weighted sentences and the seeds; `S` gets
// the combined rows of `batch` (texts, then seeds). Returns the texts' rows that have both halves.
std::vector<size_t> FirstEmbedderLeaders(const std::vector<std::string>& texts, Scope scope,
                                         const SummarizeOptions& options, const SeedSet& seeds,
                                         CombinedEmbedder& combined,
                                         const std::vector<std::string>& batch, Matrix* S) {
  const Eigen::Index n = static_cast<Eigen::Index>(texts.size());
  Matrix X = combined.first().Embed(batch);
  std::vector<HeadAnchor> anchors;
  if (batch.size() > texts.size()) anchors = BuildAnchors(seeds, X.bottomRows(X.rows() - n));
  const AttentionScorer scorer(options.scorer, std::move(anchors));
  const Weights first = scorer.Score(X.topRows(n), scope);
  std::vector<size_t> order(texts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Ties go to the earlier sentence, so the choice is deterministic.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return first.final(static_cast<Eigen::Index>(a)) > first.final(static_cast<Eigen::Index>(b));
  });
  order.resize(options.dense_candidates);
  std::sort(order.begin(), order.end());
  std::vector<size_t> rows = order;
  for (size_t i = texts.size(); i < batch.size(); ++i) rows.push_back(i);  // the seeds
  *S = combined.EmbedRows(batch, std::move(X), rows);
  return order;
}

}  // namespace

ScopeSummary SummarizeScope(const std::vector<std::string>& texts, Scope scope,
                            const SummarizeOptions& options, const SeedSet& seeds,
                            Embedder& embedder) {
  ScopeSummary out;
  if (texts.empty()) return out;
  // Scope and seeds in one batch, so a batch-fitted embedder puts them in one space.
  const std::vector<std::string> seed_texts = SeedSentences(seeds);
  std::vector<std::string> batch = texts;
  batch.insert(batch.end(), seed_texts.begin(), seed_texts.end());
  const Eigen::Index n = static_cast<Eigen::Index>(texts.size());
  Matrix S;
  auto* combined = dynamic_cast<CombinedEmbedder*>(&embedder);
  if (combined && options.dense_candidates > 0 && texts.size() > options.dense_candidates) {
    out.second_rows = FirstEmbedderLeaders(texts, scope, options, seeds, *combined, batch, &S);
  } else {
    S = embedder.Embed(batch);
  }
  std::vector<HeadAnchor> anchors;
  if (!seed_texts.empty()) anchors = BuildAnchors(seeds, S.bottomRows(S.rows() - n));
  // Drop the seed rows in place (row-major: a realloc, not a copy), so a large scope is held once.
  S.conservativeResize(n, S.cols());
  for (HeadAnchor& topic : TopicAnchors(S, options.topic_heads))
    anchors.push_back(std::move(topic));

  const AttentionScorer scorer(options.scorer, std::move(anchors));
  out.weights = scorer.Score(S, scope);
  if (options.opinions) {
    const std::vector<SentenceOpinion> opinions = options.opinions->Score(texts);
    Eigen::VectorXf logits(n);
    for (Eigen::Index i = 0; i < n; ++i) logits(i) = opinions[static_cast<size_t>(i)].logit;
    AddLogitHead(&out.weights, "salience", logits, options.salience_mix,
                 options.scorer.z_temperature);
  }
  const BudgetedSelector selector(options.selector, BudgetWordCost(), options.token_cost);
  out.selected = selector.Select(texts, out.weights.final, S, options.budget, &out.fragments,
                                 &out.weights.gram);
  out.embeddings = std::move(S);
  return out;
}

}  // namespace revsum
