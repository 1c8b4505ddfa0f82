// Budgeted, redundancy-aware choice of sentences (docs/design.md, "Selection").
//
// Given the sentences of one scope, their attention weights and embeddings, BudgetedSelector picks
// a subset whose total cost never exceeds the budget:
//
//   1. Length filter: sentences shorter than min_words or longer than the adaptive maximum
//      (max_budget_share of a word budget, at least min_max_words) are not candidates; nor are
//      fragments (skip_fragments: revsum/fragment.h, "其次,书的内容。", "所以打1分", "@冠益乳").
//   2. Greedy MMR under a cost: repeatedly take the candidate with the largest
//        gain_i = (lambda * w_i / w_max - (1 - lambda) * max_{j selected} cos(i, j)) / cost_i^alpha
//      among those that still fit and have positive gain; alpha = cost_exponent makes weight per
//      cost the criterion, so one long sentence cannot eat the budget (Carbonell & Goldstein 1998,
//      MMR; Lin & Bilmes 2010 for the cost-scaled greedy).
//   3. Near-duplicates: a candidate whose cosine to any selected sentence exceeds
//      duplicate_threshold is never taken.
//   In 2 and 3, cos is rescaled to the scope's cosine distribution (relative_similarity).
//   4. Optionally (fill_budget) one more sentence is appended, truncated to exactly the words left,
//      when the budget is in words and some remain: evaluation cuts summaries to the budget, so
//      the words would otherwise be wasted. The truncated sentence is marked as such.
//
//   5. Never empty: when nothing was chosen but some sentence fits the budget, the one sentence
//      with the largest weight is chosen among, in this order of preference, the sentences that
//      are not fragments (whatever their length), the fragments that are not noise, and any
//      sentence. A product whose every review is "很好" still gets a summary (issue 8).
//
// Order: sentences are returned in the order they were chosen, i.e. by decreasing marginal gain,
// which puts the most representative sentence first and the truncated one (if any) last.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Dense>

#include "revsum/embed.h"
#include "revsum/fragment.h"

namespace revsum {

// A budget: at most `amount` units of one kind.
struct Budget {
  enum class Unit { kWords, kSentences, kTokens, kRatio };
  Unit unit = Unit::kWords;
  double amount = 0;  // words / sentences / tokens (integral), or a ratio in (0, 1] of the input

  // "120w", "5s", "300t", "10%".
  std::string ToString() const;
};

// Limits of ParseBudget. A count above kMaxBudgetCount is refused rather than overflowing a size_t
// or an int downstream (no scope holds a billion words); a percentage below kMinBudgetPercent
// would round to an empty summary for any scope under 10,000 words.
inline constexpr long long kMaxBudgetCount = 1000000000;
inline constexpr double kMinBudgetPercent = 0.01;

// Parses "<number><unit>": "120w" (words), "5s" (sentences), "300t" (LLM tokens), "10%" (share of
// the input, measured in words). Whitespace around is allowed. Counts are whole numbers in
// [1, kMaxBudgetCount]; percentages are in [kMinBudgetPercent, 100]. Throws std::invalid_argument
// with a message "invalid budget '<text>': <problem>" (missing unit, not a number, zero or
// negative, too large, percentage out of range, with the allowed range).
Budget ParseBudget(std::string_view text);

// The cost of a sentence in some unit (words, LLM tokens).
using CostFunction = std::function<size_t(std::string_view)>;

// Whitespace-separated tokens: what evaluation protocols cut at.
size_t CountWhitespaceTokens(std::string_view text);

struct SelectorOptions {
  // MMR trade-off: 1 ignores redundancy beyond the duplicate filter, 0 only avoids redundancy.
  // 0.5 measured best with the default scorer (docs/quality.md).
  float lambda = 0.5f;

  // Candidates whose similarity to an already selected sentence exceeds this are skipped.
  float duplicate_threshold = 0.8f;

  // Redundancy (the MMR term and duplicate_threshold) is measured on cosines rescaled to the
  // scope, sim = (cos - mu) / (1 - mu), where mu is the mean cosine between the scope's sentences
  // (PairCosineStats, score.h): 0 is "as related as two random sentences of this scope", 1 stays
  // "identical". Hashed TF-IDF has mu ~0.02, so this barely moves it; USE-lite has mu ~0.3-0.4,
  // and raw cosines would make every candidate look redundant (MMR stops early) and put the
  // duplicate threshold among paraphrases of different points. false: raw cosines.
  bool relative_similarity = true;

  // alpha in gain / cost^alpha: 0 ranks by weight alone, 1 by weight per word (measured best).
  float cost_exponent = 1.0f;

  // Sentences with fewer words than this are fragments, never selected.
  size_t min_words = 4;

  // With a word budget B, sentences longer than max(min_max_words, max_budget_share * B) words
  // are not candidates (a 20-word summary cannot use a 60-word sentence).
  float max_budget_share = 0.6f;
  size_t min_max_words = 12;

  // Append one truncated sentence to use the words left in a word budget (see header comment).
  bool fill_budget = false;

  // Fragments (revsum/fragment.h) are not candidates; they are chosen only when the scope has
  // nothing else (step 5). bench/fragments.sh measured, on the zh shopping dump's ten categories,
  // 7.1% -> 0% of summary sentences that the rule calls fragments (English dev: 2.8% -> 0%),
  // with dev ROUGE-1 within +-0.45 of skip_fragments = false on each set.
  bool skip_fragments = true;

  // The rule for skip_fragments; null means DefaultFragmentRule().
  std::shared_ptr<const FragmentRule> fragment_rule;
};

// The shipped rule: ModelsDir()/fragments/en.txt and zh.txt, loaded once per process (thread-safe).
// Throws ModelsError when there is no models folder or a file cannot be read (naming it).
std::shared_ptr<const FragmentRule> DefaultFragmentRule();

// One chosen sentence; `index` refers to the input arrays.
struct Selected {
  size_t index = 0;
  size_t cost = 0;         // in the budget's unit (the truncated cost when truncated); for a token
                           // budget, the tokens it adds to JoinSelected of the sentences before it
  bool truncated = false;  // cut to fit by fill_budget; `text` holds the cut text
  std::string text;        // the sentence text as emitted (cut when truncated)
};

// The emitted text of a selection: the chosen texts in order, joined by single spaces (the
// stored summary, Summary::Text). A token budget holds on this text, joins included.
std::string JoinSelected(const std::vector<Selected>& selected);

class BudgetedSelector {
 public:
  // `words` measures sentence length for the length filter and for word / ratio budgets.
  // `tokens` measures LLM tokens for token budgets; may be empty when no token budget is used.
  BudgetedSelector(SelectorOptions options, CostFunction words, CostFunction tokens = {});

  // Chooses sentences from `texts` (one scope) with `weights` (same length) and `embeddings`
  // (one L2-normalised row per text). Never exceeds the budget (a token budget: measured on
  // JoinSelected of the result). Throws std::invalid_argument on
  // mismatched sizes, or on a token budget without a token cost function.
  // `fragments`, when set, receives each text's FragmentReason under the selector's rule (index i:
  // texts[i]), so callers need not classify the scope again; it is left empty when skip_fragments
  // is off or `texts` is empty (the rule was not applied).
  // `gram`, when set and non-empty, is embeddings * embeddings^T (Weights::gram): the scope's
  // mean pair cosine (relative_similarity) is read from it instead of multiplied again.
  std::vector<Selected> Select(const std::vector<std::string>& texts,
                               const Eigen::VectorXf& weights, const Matrix& embeddings,
                               const Budget& budget,
                               std::vector<FragmentReason>* fragments = nullptr,
                               const Matrix* gram = nullptr) const;

  const SelectorOptions& options() const { return options_; }

 private:
  SelectorOptions options_;
  CostFunction words_;
  CostFunction tokens_;
};

}  // namespace revsum
