// SummarizeTexts: segment, embed, score, select (see include/revsum/summarize.h).
#include <algorithm>
#include <memory>

#include "revsum/summarize.h"

namespace revsum {

std::string Summary::Text() const {
  std::string out;
  for (const SummarySentence& s : sentences) {
    if (!out.empty()) out += ' ';
    out += s.text;
  }
  return out;
}

CostFunction BudgetWordCost() {
  auto segmenter = std::make_shared<WordSegmenter>();
  return [segmenter](std::string_view text) -> size_t {
    return std::max(segmenter->CountWords(text), CountWhitespaceTokens(text));
  };
}

Summary SummarizeTexts(const std::vector<std::string>& review_texts,
                       const SummarizeOptions& options, Embedder& embedder) {
  Summary summary;
  SentenceSegmenter segmenter(options.segment);
  std::vector<std::string> texts;
  for (size_t r = 0; r < review_texts.size(); ++r) {
    for (Sentence& s : segmenter.Split(review_texts[r])) {
      texts.push_back(s.text);
      summary.scope.push_back({r, std::move(s)});
    }
  }
  if (texts.empty()) return summary;

  // Scope and seeds in one batch (see header comment).
  SeedSet seeds;
  if (!options.seeds_path.empty()) seeds = LoadSeeds(options.seeds_path);
  const std::vector<std::string> seed_texts = SeedSentences(seeds);
  std::vector<std::string> batch = texts;
  batch.insert(batch.end(), seed_texts.begin(), seed_texts.end());
  Matrix S = embedder.Embed(batch);
  const Eigen::Index n = static_cast<Eigen::Index>(texts.size());
  std::vector<HeadAnchor> anchors;
  if (!seed_texts.empty()) {
    anchors = BuildAnchors(seeds, S.bottomRows(S.rows() - n));
  }
  // Drop the seed rows in place (row-major with unchanged columns: a realloc, not a copy), so a
  // large scope is held once.
  S.conservativeResize(n, S.cols());
  for (HeadAnchor& topic : TopicAnchors(S, options.topic_heads)) anchors.push_back(std::move(topic));

  const AttentionScorer scorer(options.scorer, std::move(anchors));
  summary.weights = scorer.Score(S, Scope::kProduct);

  const BudgetedSelector selector(options.selector, BudgetWordCost(), options.token_cost);
  for (const Selected& chosen :
       selector.Select(texts, summary.weights.final, S, options.budget)) {
    const Summary::ScopeSentence& where = summary.scope[chosen.index];
    summary.sentences.push_back({chosen.text, where.review_index,
                                 static_cast<size_t>(where.sentence.index),
                                 summary.weights.final(static_cast<Eigen::Index>(chosen.index)),
                                 chosen.truncated});
  }
  return summary;
}

}  // namespace revsum
