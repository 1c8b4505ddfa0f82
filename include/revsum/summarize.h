// Summarising one entity (a product, a topic) from its raw review texts: the whole extractive core
// in one call — segment (text.h), embed (any Embedder), score (score.h), select (select.h).
//
//   review texts ──SentenceSegmenter──▶ sentences ──Embedder──▶ S ──AttentionScorer──▶ Weights
//                ──BudgetedSelector──▶ Summary (sentences with review/sentence index and weight)
//
// All sentences of all reviews form one product scope (overall + consensus heads). The seed
// sentences of the anchored heads are embedded in the same Embed call as the scope, so a
// batch-fitted embedder (lexical IDF) sees seeds and scope in one space.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "revsum/embed.h"
#include "revsum/models.h"
#include "revsum/opinion.h"
#include "revsum/score.h"
#include "revsum/select.h"
#include "revsum/text.h"

namespace revsum {

struct SummarizeOptions {
  // How much to keep; the default is the 100-word product summary.
  Budget budget{Budget::Unit::kWords, 100};

  // Scorer and selector settings; their defaults are the measured default configuration
  // (tests/pipeline/quality_test.cc, docs/quality.md).
  ScorerOptions scorer;
  SelectorOptions selector;

  // Sentence segmentation of each review.
  SegmentOptions segment;

  // Seed file for the opinion and aspect heads (default: <models>/seeds/en.txt, see models.h);
  // empty disables the anchored heads.
  std::string seeds_path = DefaultSeedsPath("en.txt");

  // Number of topic heads (TopicAnchors) fitted to the scope; 0 disables them.
  int topic_heads = 0;

  // LLM-token cost of a sentence, needed only for token budgets ("300t").
  CostFunction token_cost;

  // With a CombinedEmbedder (lexical + USE-lite), the second, expensive embedder runs only on
  // this many sentences of a scope (and the seeds): those with the largest weight in a first,
  // first-embedder-only scoring of the whole scope. The others keep only their lexical half (see
  // CombinedEmbedder::EmbedRows), for scoring, selection and points alike; a scope with at most
  // this many sentences is embedded whole, exactly as before. 0 = every sentence (as before).
  // Measured on the dev sets (revsum eval --budget-from-file --threads 1, default embedder),
  // R1 oposum / copycat / opinosis and eval CPU seconds:
  //   0 (all)  42.29 / 33.73 / 33.42  17.3 s      64  42.02 / 33.73 / 32.92  10.7 s
  //   96       42.29 / 33.73 / 33.06  12.4 s      48  41.94 / 33.73 / 33.12   8.9 s
  //   32       41.28 / 33.95 / 31.81   7.1 s      16  41.00 / 33.07 / 31.51   4.2 s
  // 48 halves the encoder's cost within 0.35 R1 of all (R2 and RL move by under 0.45 either way);
  // 32 loses 1-1.6 R1. Copycat's products have fewer than 48 sentences.
  // Default 0, as `summarize`/`run` use it (RunOptions::summarize in run.h: the points stage needs
  // the USE-lite half of every row), so `revsum eval` measures what the store's summaries are.
  size_t dense_candidates = 0;
  // The learned opinion attention (opinion.h; not owned, must outlive the call): when set, the
  // scope's weights get a head "salience", the softmax of the model's attention logits u . h_i
  // over the scope (AddLogitHead), with mixing coefficient salience_mix. 0: the head is there to
  // explain (show --heads, view sentence_head_weights) and the summaries are the other heads';
  // docs/opinions.md has the dev ROUGE of other values.
  const OpinionModel* opinions = nullptr;
  float salience_mix = 0.0f;
};

// One kept sentence, citable: review_index-th input text, sentence_index-th sentence of it.
struct SummarySentence {
  std::string text;           // as emitted (cut to the budget when truncated)
  size_t review_index = 0;    // index into the review_texts passed to SummarizeTexts
  size_t sentence_index = 0;  // Sentence::index within that review
  float weight = 0;           // final attention weight of the sentence in its scope
  bool truncated = false;     // cut by SelectorOptions::fill_budget
};

struct Summary {
  std::vector<SummarySentence> sentences;  // in selection order (see select.h)

  // The scored scope: row i of weights is sentence `scope[i]` (review index, Sentence).
  struct ScopeSentence {
    size_t review_index = 0;
    Sentence sentence;
  };
  std::vector<ScopeSentence> scope;
  Weights weights;

  // The kept sentences joined by single spaces.
  std::string Text() const;
};

// The word cost used for word budgets: max(WordSegmenter::CountWords, whitespace tokens), so the
// summary fits both a linguistic word count and an evaluation cut at whitespace tokens.
// Thread-safe (one WordSegmenter per thread); pass to BudgetedSelector as a CostFunction.
CostFunction BudgetWordCost();

// The scored and selected sentences of one scope whose sentences are already segmented (for
// example read back from the store): what SummarizeTexts does after segmentation.
struct ScopeSummary {
  Weights weights;                 // row i: texts[i]
  std::vector<Selected> selected;  // in selection order; Selected::index refers to texts
  Matrix embeddings;               // row i: texts[i] as scored (for points.h; callers may drop it)
  // With a CombinedEmbedder and more than dense_candidates sentences: the rows (ascending) whose
  // second (USE-lite) half was computed; every other row has a zero second half. Empty when
  // every row has both halves (or the embedder is not combined).
  std::vector<size_t> second_rows;
  // Row i: texts[i]'s FragmentReason under options.selector's rule (fragment_rule, or
  // DefaultFragmentRule() when null), as the selector classified it; empty when the selector did
  // not apply the rule (skip_fragments off).
  std::vector<FragmentReason> fragments;
};

// Embeds `texts` (together with the seeds, see the header comment), scores them as `scope` and
// selects under options.budget. `seeds` may be empty (no anchored heads).
ScopeSummary SummarizeScope(const std::vector<std::string>& texts, Scope scope,
                            const SummarizeOptions& options, const SeedSet& seeds,
                            Embedder& embedder);

// Summarises one entity. Throws std::runtime_error if the seed file cannot be read or parsed.
Summary SummarizeTexts(const std::vector<std::string>& review_texts,
                       const SummarizeOptions& options, Embedder& embedder);

}  // namespace revsum
