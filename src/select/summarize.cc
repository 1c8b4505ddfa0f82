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
  // One ICU word segmenter per thread, made once: the function is cheap to create per scope and
  // safe to call from several threads.
  return [](std::string_view text) -> size_t {
    thread_local WordSegmenter segmenter;
    return std::max(segmenter.CountWords(text), CountWhitespaceTokens(text));
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

  SeedSet seeds;
  if (!options.seeds_path.empty()) seeds = LoadSeeds(options.seeds_path);
  ScopeSummary scored = SummarizeScope(texts, Scope::kProduct, options, seeds, embedder);
  summary.weights = std::move(scored.weights);
  for (const Selected& chosen : scored.selected) {
    const Summary::ScopeSentence& where = summary.scope[chosen.index];
    summary.sentences.push_back(
        {chosen.text, where.review_index, static_cast<size_t>(where.sentence.index),
         summary.weights.final(static_cast<Eigen::Index>(chosen.index)), chosen.truncated});
  }
  return summary;
}

}  // namespace revsum
