// Budgeted greedy MMR selection; the algorithm is documented in include/revsum/select.h.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <stdexcept>

#include "revsum/models.h"
#include "revsum/score.h"
#include "revsum/select.h"

namespace revsum {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The first `k` whitespace-separated tokens of `text`, joined by single spaces.
std::string FirstTokens(std::string_view text, size_t k) {
  std::string out;
  size_t taken = 0, i = 0;
  while (i < text.size() && taken < k) {
    while (i < text.size() && IsSpace(text[i])) ++i;
    if (i >= text.size()) break;
    size_t j = i;
    while (j < text.size() && !IsSpace(text[j])) ++j;
    if (!out.empty()) out += ' ';
    out.append(text.substr(i, j - i));
    ++taken;
    i = j;
  }
  return out;
}

}  // namespace

std::shared_ptr<const FragmentRule> DefaultFragmentRule() {
  static std::mutex mutex;
  static std::shared_ptr<const FragmentRule> rule;
  std::lock_guard<std::mutex> lock(mutex);
  if (!rule) {
    const std::filesystem::path dir = ModelsDir() / "fragments";
    rule =
        std::make_shared<const FragmentRule>(LoadFragmentLexicon({dir / "en.txt", dir / "zh.txt"}));
  }
  return rule;
}

size_t CountWhitespaceTokens(std::string_view text) {
  size_t count = 0;
  bool in_token = false;
  for (char c : text) {
    const bool space = IsSpace(c);
    if (!space && !in_token) ++count;
    in_token = !space;
  }
  return count;
}

std::string Budget::ToString() const {
  switch (unit) {
    case Unit::kWords:
      return std::to_string(static_cast<long long>(amount)) + "w";
    case Unit::kSentences:
      return std::to_string(static_cast<long long>(amount)) + "s";
    case Unit::kTokens:
      return std::to_string(static_cast<long long>(amount)) + "t";
    case Unit::kRatio: {
      std::string s = std::to_string(amount * 100.0);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s + "%";
    }
  }
  return "?";
}

Budget ParseBudget(std::string_view text) {
  const std::string original(text);
  auto fail = [&](const std::string& problem) -> Budget {
    throw std::invalid_argument("invalid budget '" + original + "': " + problem);
  };
  const std::string expected = " (expected e.g. 120w, 5s, 300t or 10%)";
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  if (text.empty()) return fail("empty" + expected);
  const char unit_char = text.back();
  std::string_view number = text.substr(0, text.size() - 1);
  Budget b;
  const char* unit_name = "";
  switch (unit_char) {
    case 'w':
    case 'W':
      b.unit = Budget::Unit::kWords;
      unit_name = "words";
      break;
    case 's':
    case 'S':
      b.unit = Budget::Unit::kSentences;
      unit_name = "sentences";
      break;
    case 't':
    case 'T':
      b.unit = Budget::Unit::kTokens;
      unit_name = "tokens";
      break;
    case '%':
      b.unit = Budget::Unit::kRatio;
      break;
    default:
      return fail("missing unit: end with w (words), s (sentences), t (tokens) or %" + expected);
  }
  if (number.empty()) return fail("missing number before the unit" + expected);
  double value = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec == std::errc::result_out_of_range) return fail("the number is out of range" + expected);
  if (ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(value)) {
    return fail("'" + std::string(number) + "' is not a number" + expected);
  }
  if (b.unit == Budget::Unit::kRatio) {
    if (value < kMinBudgetPercent || value > 100) {
      char range[96];
      std::snprintf(range, sizeof range, "a percentage must be between %g%% and 100%%",
                    kMinBudgetPercent);
      return fail(range);
    }
    b.amount = value / 100.0;
  } else {
    if (value <= 0) return fail(std::string("the number of ") + unit_name + " must be at least 1");
    if (value != std::floor(value)) return fail("a count must be a whole number");
    if (value > static_cast<double>(kMaxBudgetCount)) {
      return fail("too large (at most " + std::to_string(kMaxBudgetCount) + " " + unit_name + ")");
    }
    b.amount = value;
  }
  return b;
}

BudgetedSelector::BudgetedSelector(SelectorOptions options, CostFunction words, CostFunction tokens)
    : options_(options), words_(std::move(words)), tokens_(std::move(tokens)) {
  if (!words_) throw std::invalid_argument("BudgetedSelector: a word cost function is required");
}

namespace {

// BudgetedSelector::Select's steps (the algorithm is documented in select.h): the costs in the
// budget's unit, the candidates, the scope's similarity baseline, the greedy MMR choice, then
// the fallback (never empty while a sentence fits) or the fill of a word budget.
class GreedySelection {
 public:
  GreedySelection(const SelectorOptions& options, const CostFunction& word_cost,
                  const CostFunction& token_cost, const std::vector<std::string>& texts,
                  const Eigen::VectorXf& weights, const Matrix& embeddings, const Budget& budget,
                  const Matrix* gram)
      : options_(options),
        word_cost_(word_cost),
        token_cost_(token_cost),
        texts_(texts),
        weights_(weights),
        embeddings_(embeddings),
        budget_(budget),
        gram_(gram),
        n_(texts.size()),
        word_budget_(budget.unit == Budget::Unit::kWords || budget.unit == Budget::Unit::kRatio),
        token_budget_(budget.unit == Budget::Unit::kTokens) {}

  std::vector<Selected> Run(std::vector<FragmentReason>* fragments) {
    MeasureCosts();
    FindCandidates(fragments);
    MeasureSimilarity();
    ChooseGreedily();
    if (chosen_.empty() && ChooseFallback()) return chosen_;
    if (options_.fill_budget && word_budget_ && used_ < limit_) FillBudget();
    return chosen_;
  }

 private:
  float Weight(size_t i) const { return weights_(static_cast<Eigen::Index>(i)); }

  // Step 1: the budget in its own unit, and the cost of each sentence in that unit.
  void MeasureCosts() {
    words_.resize(n_);
    size_t total_words = 0;
    for (size_t i = 0; i < n_; ++i) {
      words_[i] = word_cost_(texts_[i]);
      total_words += words_[i];
    }
    cost_.resize(n_);
    switch (budget_.unit) {
      case Budget::Unit::kWords:
        limit_ = static_cast<size_t>(budget_.amount);
        cost_ = words_;
        break;
      case Budget::Unit::kRatio:
        limit_ = static_cast<size_t>(std::floor(budget_.amount * static_cast<double>(total_words)));
        cost_ = words_;
        break;
      case Budget::Unit::kSentences:
        limit_ = static_cast<size_t>(budget_.amount);
        std::fill(cost_.begin(), cost_.end(), 1);
        break;
      case Budget::Unit::kTokens:
        limit_ = static_cast<size_t>(budget_.amount);
        for (size_t i = 0; i < n_; ++i) cost_[i] = token_cost_(texts_[i]);
        break;
    }
  }

  // Step 2: the candidates: long enough, not too long for a word budget, of some cost and not a
  // fragment; and the largest candidate weight (relevance is relative to it).
  void FindCandidates(std::vector<FragmentReason>* fragments) {
    size_t max_words = std::numeric_limits<size_t>::max();
    if (word_budget_) {
      max_words = std::max(options_.min_max_words, static_cast<size_t>(options_.max_budget_share *
                                                                       static_cast<float>(limit_)));
    }
    // Fragment reasons, only when some sentence would otherwise be a candidate.
    reason_.assign(n_, FragmentReason::kNone);
    if (options_.skip_fragments && n_ > 0) {
      const std::shared_ptr<const FragmentRule> rule =
          options_.fragment_rule ? options_.fragment_rule : DefaultFragmentRule();
      for (size_t i = 0; i < n_; ++i) reason_[i] = rule->Classify(texts_[i]);
      if (fragments) *fragments = reason_;
    }
    candidate_.assign(n_, 0);
    for (size_t i = 0; i < n_; ++i) {
      candidate_[i] = words_[i] >= options_.min_words && words_[i] <= max_words && cost_[i] > 0 &&
                      reason_[i] == FragmentReason::kNone;
    }
    for (size_t i = 0; i < n_; ++i) {
      if (candidate_[i]) w_max_ = std::max(w_max_, Weight(i));
    }
    if (!(w_max_ > 0.f)) w_max_ = 1.f;
  }

  // Step 3: the scope's mean pair cosine (relative_similarity), kept below 1 so the rescaling is
  // defined. (PairCosineStats is exact up to its 512 sampled rows, so the two agree.)
  void MeasureSimilarity() {
    have_gram_ = gram_ && gram_->rows() == static_cast<Eigen::Index>(n_) && n_ <= 512;
    mu_ =
        options_.relative_similarity
            ? std::clamp((have_gram_ ? GramCosineStats(*gram_) : PairCosineStats(embeddings_)).mean,
                         0.f, 0.9f)
            : 0.f;
    max_sim_.assign(n_, 0.f);
  }

  // Step 4: greedy MMR, the best gain per cost first, while the budget holds. Token budgets hold
  // on the emitted text (JoinSelected), not on the sum of the sentences: the joining space can be
  // a token of its own (o200k_base: "电池很耐用。" is 6 tokens, two of them joined 13), so a
  // sentence after the first is estimated at one token more and each choice is checked on the
  // joined text itself; a choice that would overflow it is dropped.
  void ChooseGreedily() {
    std::string joined;
    while (true) {
      const size_t best = BestGain();
      if (best == n_) break;
      candidate_[best] = 0;
      size_t added = cost_[best];
      if (token_budget_ && !chosen_.empty()) {
        std::string longer = joined + ' ' + texts_[best];
        const size_t total = token_cost_(longer);
        if (total > limit_) continue;  // the join costs more than estimated: not this one
        added = total - used_;
        joined = std::move(longer);
      } else if (token_budget_) {
        joined = texts_[best];
      }
      used_ += added;
      chosen_.push_back({best, added, false, texts_[best]});
      UpdateSimilarity(best);
    }
  }

  // The candidate of the best MMR gain per cost that fits; n_ when none has a positive one.
  size_t BestGain() const {
    const float lambda = options_.lambda;
    const size_t join = token_budget_ && !chosen_.empty() ? 1 : 0;  // estimated joining token
    size_t best = n_;
    float best_gain = 0.f;
    for (size_t i = 0; i < n_; ++i) {
      if (!candidate_[i] || used_ + cost_[i] + join > limit_) continue;
      if (max_sim_[i] > options_.duplicate_threshold) continue;
      const float relevance = Weight(i) / w_max_;
      const float mmr = lambda * relevance - (1.f - lambda) * max_sim_[i];
      if (mmr <= 0.f) continue;
      const float gain = mmr / std::pow(static_cast<float>(cost_[i]), options_.cost_exponent);
      if (best == n_ || gain > best_gain) {
        best = i;
        best_gain = gain;
      }
    }
    return best;
  }

  // Each sentence's largest similarity to a chosen one, after choosing `best`.
  void UpdateSimilarity(size_t best) {
    // The scorer's Gram matrix holds these cosines already (symmetric: its row is the column).
    Eigen::VectorXf sims =
        have_gram_ ? Eigen::VectorXf(gram_->row(static_cast<Eigen::Index>(best)).transpose())
                   : Eigen::VectorXf(embeddings_ *
                                     embeddings_.row(static_cast<Eigen::Index>(best)).transpose());
    if (options_.relative_similarity) sims = (sims.array() - mu_) / (1.f - mu_);
    for (size_t i = 0; i < n_; ++i)
      max_sim_[i] = std::max(max_sim_[i], sims(static_cast<Eigen::Index>(i)));
  }

  // Step 5: never empty while a sentence fits; tiers 0 (not a fragment), 1 (not noise), 2. True
  // when a sentence was chosen.
  bool ChooseFallback() {
    size_t best = n_;
    int best_tier = 3;
    for (size_t i = 0; i < n_; ++i) {
      if (cost_[i] == 0 || cost_[i] > limit_) continue;
      const int tier = reason_[i] == FragmentReason::kNone    ? 0
                       : reason_[i] != FragmentReason::kNoise ? 1
                                                              : 2;
      if (tier < best_tier || (tier == best_tier && Weight(i) > Weight(best))) {
        best = i;
        best_tier = tier;
      }
    }
    if (best == n_) return false;
    used_ += cost_[best];
    candidate_[best] = 0;
    chosen_.push_back({best, cost_[best], false, texts_[best]});
    return true;
  }

  // Step 6 (fill_budget, word budgets): the best remaining candidate that is not a
  // near-duplicate, cut to the words left.
  void FillBudget() {
    const float lambda = options_.lambda;
    size_t best = n_;
    float best_score = 0.f;
    for (size_t i = 0; i < n_; ++i) {
      if (!candidate_[i] || max_sim_[i] > options_.duplicate_threshold) continue;
      const float mmr = lambda * Weight(i) / w_max_ - (1.f - lambda) * max_sim_[i];
      if (best == n_ || mmr > best_score) {
        best = i;
        best_score = mmr;
      }
    }
    if (best == n_) return;
    const size_t left = limit_ - used_;
    for (size_t k = left; k > 0; --k) {
      std::string cut = FirstTokens(texts_[best], k);
      const size_t c = word_cost_(cut);
      if (c <= left && c > 0) {
        used_ += c;
        chosen_.push_back({best, c, c < cost_[best], std::move(cut)});
        break;
      }
    }
  }

  const SelectorOptions& options_;
  const CostFunction& word_cost_;
  const CostFunction& token_cost_;
  const std::vector<std::string>& texts_;
  const Eigen::VectorXf& weights_;
  const Matrix& embeddings_;
  const Budget& budget_;
  const Matrix* gram_;
  const size_t n_;
  const bool word_budget_, token_budget_;

  size_t limit_ = 0;                    // the budget in its unit
  std::vector<size_t> words_, cost_;    // per sentence: words, cost in the budget's unit
  std::vector<FragmentReason> reason_;  // per sentence: why it is a fragment (kNone)
  std::vector<char> candidate_;         // per sentence: may still be chosen
  float w_max_ = 0.f;                   // the largest candidate weight (1 when none is > 0)
  bool have_gram_ = false;              // the cosines come from the scorer's Gram matrix
  float mu_ = 0.f;                      // the scope's mean pair cosine (relative_similarity)
  std::vector<float> max_sim_;          // max similarity to any selected sentence
  std::vector<Selected> chosen_;
  size_t used_ = 0;  // of limit_
};

}  // namespace

std::vector<Selected> BudgetedSelector::Select(const std::vector<std::string>& texts,
                                               const Eigen::VectorXf& weights,
                                               const Matrix& embeddings, const Budget& budget,
                                               std::vector<FragmentReason>* fragments,
                                               const Matrix* gram) const {
  if (fragments) fragments->clear();
  const size_t n = texts.size();
  if (static_cast<size_t>(weights.size()) != n || static_cast<size_t>(embeddings.rows()) != n) {
    throw std::invalid_argument("BudgetedSelector::Select: " + std::to_string(n) + " texts, " +
                                std::to_string(weights.size()) + " weights, " +
                                std::to_string(embeddings.rows()) + " embedding rows");
  }
  if (budget.unit == Budget::Unit::kTokens && !tokens_) {
    throw std::invalid_argument(
        "BudgetedSelector::Select: a token budget needs a token cost function (tokenizer)");
  }
  return GreedySelection(options_, words_, tokens_, texts, weights, embeddings, budget, gram)
      .Run(fragments);
}

std::string JoinSelected(const std::vector<Selected>& selected) {
  std::string out;
  for (const Selected& s : selected) {
    if (!out.empty()) out += ' ';
    out += s.text;
  }
  return out;
}

}  // namespace revsum
