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
  std::vector<size_t> words(n);
  size_t total_words = 0;
  for (size_t i = 0; i < n; ++i) {
    words[i] = words_(texts[i]);
    total_words += words[i];
  }
  // The budget in its own unit, and the cost of each sentence in that unit.
  size_t limit = 0;
  std::vector<size_t> cost(n);
  switch (budget.unit) {
    case Budget::Unit::kWords:
      limit = static_cast<size_t>(budget.amount);
      cost = words;
      break;
    case Budget::Unit::kRatio:
      limit = static_cast<size_t>(std::floor(budget.amount * static_cast<double>(total_words)));
      cost = words;
      break;
    case Budget::Unit::kSentences:
      limit = static_cast<size_t>(budget.amount);
      std::fill(cost.begin(), cost.end(), 1);
      break;
    case Budget::Unit::kTokens:
      limit = static_cast<size_t>(budget.amount);
      for (size_t i = 0; i < n; ++i) cost[i] = tokens_(texts[i]);
      break;
  }
  const bool word_budget =
      budget.unit == Budget::Unit::kWords || budget.unit == Budget::Unit::kRatio;
  size_t max_words = std::numeric_limits<size_t>::max();
  if (word_budget) {
    max_words = std::max(options_.min_max_words, static_cast<size_t>(options_.max_budget_share *
                                                                     static_cast<float>(limit)));
  }
  // Fragment reasons, only when some sentence would otherwise be a candidate.
  std::vector<FragmentReason> reason(n, FragmentReason::kNone);
  if (options_.skip_fragments && n > 0) {
    const std::shared_ptr<const FragmentRule> rule =
        options_.fragment_rule ? options_.fragment_rule : DefaultFragmentRule();
    for (size_t i = 0; i < n; ++i) reason[i] = rule->Classify(texts[i]);
    if (fragments) *fragments = reason;
  }
  std::vector<char> candidate(n, 0);
  for (size_t i = 0; i < n; ++i) {
    candidate[i] = words[i] >= options_.min_words && words[i] <= max_words && cost[i] > 0 &&
                   reason[i] == FragmentReason::kNone;
  }
  float w_max = 0.f;
  for (size_t i = 0; i < n; ++i) {
    if (candidate[i]) w_max = std::max(w_max, weights(static_cast<Eigen::Index>(i)));
  }
  if (!(w_max > 0.f)) w_max = 1.f;

  // The scope's mean pair cosine (relative_similarity), kept below 1 so the rescaling is defined.
  // (PairCosineStats is exact up to its 512 sampled rows, so the two agree.)
  const bool have_gram = gram && gram->rows() == static_cast<Eigen::Index>(n) && n <= 512;
  const float mu =
      options_.relative_similarity
          ? std::clamp((have_gram ? GramCosineStats(*gram) : PairCosineStats(embeddings)).mean, 0.f,
                       0.9f)
          : 0.f;
  std::vector<float> max_sim(n, 0.f);  // max similarity to any selected sentence
  std::vector<Selected> chosen;
  size_t used = 0;
  const float lambda = options_.lambda;
  // Token budgets hold on the emitted text (JoinSelected), not on the sum of the sentences: the
  // joining space can be a token of its own (o200k_base: "电池很耐用。" is 6 tokens, two of them
  // joined 13), so a sentence after the first is estimated at one token more and each choice is
  // checked on the joined text itself; a choice that would overflow it is dropped.
  const bool token_budget = budget.unit == Budget::Unit::kTokens;
  std::string joined;
  auto estimate = [&](size_t i) { return cost[i] + (token_budget && !chosen.empty() ? 1 : 0); };
  while (true) {
    size_t best = n;
    float best_gain = 0.f;
    for (size_t i = 0; i < n; ++i) {
      if (!candidate[i] || used + estimate(i) > limit) continue;
      if (max_sim[i] > options_.duplicate_threshold) continue;
      const float relevance = weights(static_cast<Eigen::Index>(i)) / w_max;
      const float mmr = lambda * relevance - (1.f - lambda) * max_sim[i];
      if (mmr <= 0.f) continue;
      const float gain = mmr / std::pow(static_cast<float>(cost[i]), options_.cost_exponent);
      if (best == n || gain > best_gain) {
        best = i;
        best_gain = gain;
      }
    }
    if (best == n) break;
    candidate[best] = 0;
    size_t added = cost[best];
    if (token_budget && !chosen.empty()) {
      std::string longer = joined + ' ' + texts[best];
      const size_t total = tokens_(longer);
      if (total > limit) continue;  // the join costs more than estimated: not this one
      added = total - used;
      joined = std::move(longer);
    } else if (token_budget) {
      joined = texts[best];
    }
    used += added;
    chosen.push_back({best, added, false, texts[best]});
    // The scorer's Gram matrix holds these cosines already (symmetric: its row is the column).
    Eigen::VectorXf sims =
        have_gram ? Eigen::VectorXf(gram->row(static_cast<Eigen::Index>(best)).transpose())
                  : Eigen::VectorXf(embeddings *
                                    embeddings.row(static_cast<Eigen::Index>(best)).transpose());
    if (options_.relative_similarity) sims = (sims.array() - mu) / (1.f - mu);
    for (size_t i = 0; i < n; ++i)
      max_sim[i] = std::max(max_sim[i], sims(static_cast<Eigen::Index>(i)));
  }

  if (chosen.empty()) {
    // Step 5: never empty while a sentence fits; tiers 0 (not a fragment), 1 (not noise), 2.
    size_t best = n;
    int best_tier = 3;
    for (size_t i = 0; i < n; ++i) {
      if (cost[i] == 0 || cost[i] > limit) continue;
      const int tier = reason[i] == FragmentReason::kNone    ? 0
                       : reason[i] != FragmentReason::kNoise ? 1
                                                             : 2;
      const auto w = [&](size_t k) { return weights(static_cast<Eigen::Index>(k)); };
      if (tier < best_tier || (tier == best_tier && w(i) > w(best))) {
        best = i;
        best_tier = tier;
      }
    }
    if (best != n) {
      used += cost[best];
      candidate[best] = 0;
      chosen.push_back({best, cost[best], false, texts[best]});
      return chosen;
    }
  }

  if (options_.fill_budget && word_budget && used < limit) {
    // The best remaining candidate that is not a near-duplicate, cut to the words left.
    size_t best = n;
    float best_score = 0.f;
    for (size_t i = 0; i < n; ++i) {
      if (!candidate[i] || max_sim[i] > options_.duplicate_threshold) continue;
      const float mmr =
          lambda * weights(static_cast<Eigen::Index>(i)) / w_max - (1.f - lambda) * max_sim[i];
      if (best == n || mmr > best_score) {
        best = i;
        best_score = mmr;
      }
    }
    if (best != n) {
      const size_t left = limit - used;
      for (size_t k = left; k > 0; --k) {
        std::string cut = FirstTokens(texts[best], k);
        const size_t c = words_(cut);
        if (c <= left && c > 0) {
          used += c;
          chosen.push_back({best, c, c < cost[best], std::move(cut)});
          break;
        }
      }
    }
  }
  return chosen;
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
