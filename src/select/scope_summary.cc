// SummarizeScope: embed (with the seeds), score, select — for sentences already segmented.
#include "revsum/summarize.h"

namespace revsum {

ScopeSummary SummarizeScope(const std::vector<std::string>& texts, Scope scope,
                            const SummarizeOptions& options, const SeedSet& seeds,
                            Embedder& embedder) {
  ScopeSummary out;
  if (texts.empty()) return out;
  // Scope and seeds in one batch, so a batch-fitted embedder puts them in one space.
  const std::vector<std::string> seed_texts = SeedSentences(seeds);
  std::vector<std::string> batch = texts;
  batch.insert(batch.end(), seed_texts.begin(), seed_texts.end());
  Matrix S = embedder.Embed(batch);
  const Eigen::Index n = static_cast<Eigen::Index>(texts.size());
  std::vector<HeadAnchor> anchors;
  if (!seed_texts.empty()) anchors = BuildAnchors(seeds, S.bottomRows(S.rows() - n));
  // Drop the seed rows in place (row-major: a realloc, not a copy), so a large scope is held once.
  S.conservativeResize(n, S.cols());
  for (HeadAnchor& topic : TopicAnchors(S, options.topic_heads)) anchors.push_back(std::move(topic));

  const AttentionScorer scorer(options.scorer, std::move(anchors));
  out.weights = scorer.Score(S, scope);
  const BudgetedSelector selector(options.selector, BudgetWordCost(), options.token_cost);
  out.selected = selector.Select(texts, out.weights.final, S, options.budget);
  out.embeddings = std::move(S);
  return out;
}

}  // namespace revsum
