// ROUGE-1, -2 and -L as computed by ROUGE-1.5.5 (see rouge.h for the exact protocol).
//
// Tokens are interned into small integers per call, so n-grams are integer keys and the LCS
// tables compare integers.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "irregular_forms.h"
#include "revsum/rouge.h"

namespace revsum {
namespace {

// perl's \s on bytes.
bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Length in bytes of the closing quote or bracket starting at text[i], or 0.
size_t ClosingMarkAt(std::string_view text, size_t i) {
  static constexpr std::string_view kAscii = "\"')]}";
  if (kAscii.find(text[i]) != std::string_view::npos) return 1;
  for (std::string_view mark :
       {std::string_view("\u201d"), std::string_view("\u2019"), std::string_view("\u00bb")}) {
    if (text.substr(i, mark.size()) == mark) return mark.size();
  }
  return 0;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The script prints every score with "%7.5f" and computes F from the printed R and P.
double Round5(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%7.5f", x);
  return std::strtod(buf, nullptr);
}

RougeScores Finish(double hit, double model_count, double peer_count, double alpha) {
  RougeScores s;
  s.recall = model_count > 0 ? Round5(hit / model_count) : 0.0;
  s.precision = peer_count > 0 ? Round5(hit / peer_count) : 0.0;
  const double denominator = (1 - alpha) * s.precision + alpha * s.recall;
  s.f = denominator > 0 ? Round5(s.precision * s.recall / denominator) : 0.0;
  return s;
}

// Token ids of one text, unit by unit.
using Units = std::vector<std::vector<uint32_t>>;

class Vocabulary {
 public:
  Units Encode(const std::vector<std::string>& units, bool stem) {
    Units out;
    out.reserve(units.size());
    for (const std::string& unit : units) {
      std::vector<uint32_t> ids;
      for (std::string& token : RougeTokens(unit, stem)) {
        auto [it, inserted] =
            ids_.try_emplace(std::move(token), static_cast<uint32_t>(ids_.size()));
        ids.push_back(it->second);
      }
      out.push_back(std::move(ids));
    }
    return out;
  }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
};

// n-gram counts of the text read as one token stream (units joined), for n = 1 or 2.
std::unordered_map<uint64_t, int> CountNGrams(const Units& units, int n, int* total) {
  std::vector<uint32_t> stream;
  for (const auto& unit : units) stream.insert(stream.end(), unit.begin(), unit.end());
  std::unordered_map<uint64_t, int> counts;
  *total = 0;
  for (size_t i = 0; i + n <= stream.size(); ++i) {
    const uint64_t key = n == 1 ? stream[i] : (uint64_t{stream[i]} << 32) | stream[i + 1];
    ++counts[key];
    ++*total;
  }
  return counts;
}

RougeScores RougeN(const Units& peer, const std::vector<Units>& references, int n, double alpha) {
  int peer_total = 0;
  const auto peer_counts = CountNGrams(peer, n, &peer_total);
  double hit = 0, model_count = 0, peer_count = 0;
  for (const Units& reference : references) {
    int reference_total = 0;
    const auto reference_counts = CountNGrams(reference, n, &reference_total);
    for (const auto& [gram, count] : reference_counts) {
      auto it = peer_counts.find(gram);
      if (it != peer_counts.end()) hit += std::min(count, it->second);
    }
    model_count += reference_total;
    peer_count += peer_total;
  }
  return Finish(hit, model_count, peer_count, alpha);
}

// Marks in `hit_mask` the positions of `model` on one LCS with `peer`: the textbook table
// (Cormen et al.) traced back from the end, preferring a match, then "up" (drop a model token)
// when c[i-1][j] >= c[i][j-1], as ROUGE-1.5.5's lcs_inner/markLCS do. Which LCS is marked matters
// for the union over peer units.
void MarkLcs(const std::vector<uint32_t>& model, const std::vector<uint32_t>& peer,
             std::vector<char>& hit_mask) {
  const size_t m = model.size(), n = peer.size();
  if (m == 0 || n == 0) return;
  enum : char { kDiagonal, kUp, kLeft };
  std::vector<int> c((m + 1) * (n + 1), 0);
  std::vector<char> b((m + 1) * (n + 1), kUp);
  auto at = [n](size_t i, size_t j) { return i * (n + 1) + j; };
  for (size_t i = 1; i <= m; ++i) {
    for (size_t j = 1; j <= n; ++j) {
      if (model[i - 1] == peer[j - 1]) {
        c[at(i, j)] = c[at(i - 1, j - 1)] + 1;
        b[at(i, j)] = kDiagonal;
      } else if (c[at(i - 1, j)] >= c[at(i, j - 1)]) {
        c[at(i, j)] = c[at(i - 1, j)];
        b[at(i, j)] = kUp;
      } else {
        c[at(i, j)] = c[at(i, j - 1)];
        b[at(i, j)] = kLeft;
      }
    }
  }
  size_t i = m, j = n;
  while (i != 0 && j != 0) {
    switch (b[at(i, j)]) {
      case kDiagonal:
        --i;
        --j;
        hit_mask[i] = 1;
        break;
      case kUp:
        --i;
        break;
      default:
        --j;
        break;
    }
  }
}

std::unordered_map<uint32_t, int> Unigrams(const Units& units, int* total) {
  std::unordered_map<uint32_t, int> counts;
  *total = 0;
  for (const auto& unit : units) {
    for (uint32_t id : unit) {
      ++counts[id];
      ++*total;
    }
  }
  return counts;
}

RougeScores RougeL(const Units& peer, const std::vector<Units>& references, double alpha) {
  int peer_total = 0;
  const auto peer_unigrams = Unigrams(peer, &peer_total);
  double hit = 0, model_count = 0, peer_count = 0;
  for (const Units& reference : references) {
    // Unigram budgets: a token counts as an LCS hit only while both texts still have a copy of it
    // that no earlier hit used (ROUGE 1.4.1's fix of double counting). Fresh for each reference.
    auto peer_left = peer_unigrams;
    int reference_total = 0;
    auto reference_left = Unigrams(reference, &reference_total);
    for (const auto& unit : reference) {
      std::vector<char> hit_mask(unit.size(), 0);
      for (const auto& peer_unit : peer) MarkLcs(unit, peer_unit, hit_mask);
      for (size_t k = 0; k < unit.size(); ++k) {
        if (!hit_mask[k]) continue;
        int& r = reference_left[unit[k]];
        auto p = peer_left.find(unit[k]);
        if (r > 0 && p != peer_left.end() && p->second > 0) {
          ++hit;
          --r;
          --p->second;
        }
      }
    }
    model_count += reference_total;
    peer_count += peer_total;
  }
  return Finish(hit, model_count, peer_count, alpha);
}

// The script's -l on SPL lines (readText/readText_LCS): whole lines while the running word count
// stays below the limit, then the first words of the line that reaches it. Words are perl's
// split(/\s+/), which yields an empty first field when a line starts with white space.
std::vector<std::string> CutUnits(const std::vector<std::string>& lines, size_t max_words) {
  std::vector<std::string> kept;
  size_t used = 0;
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    std::vector<std::string_view> words;
    std::string_view rest(line);
    if (max_words != 0) {
      if (IsAsciiSpace(rest.front())) words.emplace_back();  // perl's leading empty field
      while (true) {
        while (!rest.empty() && IsAsciiSpace(rest.front())) rest.remove_prefix(1);
        if (rest.empty()) break;
        size_t end = 0;
        while (end < rest.size() && !IsAsciiSpace(rest[end])) ++end;
        words.push_back(rest.substr(0, end));
        rest.remove_prefix(end);
      }
    }
    if (max_words == 0 || used + words.size() < max_words) {
      kept.push_back(line);
      used += words.size();
      continue;
    }
    std::string cut;
    for (size_t k = 0; k < max_words - used; ++k) {
      if (k > 0) cut += ' ';
      cut += words[k];
    }
    kept.push_back(std::move(cut));
    break;
  }
  return kept;
}

}  // namespace

std::string CutToWords(std::string_view text, size_t max_words) {
  if (max_words == 0) return std::string(text);
  size_t words = 0, i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsAsciiSpace(text[i])) ++i;
    if (i == text.size()) break;
    while (i < text.size() && !IsAsciiSpace(text[i])) ++i;
    if (++words == max_words) return std::string(text.substr(0, i));
  }
  return std::string(text);
}

std::vector<std::string> SplitSentenceUnits(std::string_view text) {
  std::vector<std::string> units;
  auto emit = [&units](std::string_view unit) {
    unit = Trim(unit);
    if (!unit.empty()) units.emplace_back(unit);
  };
  size_t start = 0, i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n' || c == '\r') {
      emit(text.substr(start, i - start));
      start = ++i;
      continue;
    }
    if (c == '.' || c == '!' || c == '?') {
      size_t j = i + 1;
      while (j < text.size()) {
        const size_t mark = ClosingMarkAt(text, j);
        if (mark == 0) break;
        j += mark;
      }
      if (j < text.size() && IsAsciiSpace(text[j])) {
        emit(text.substr(start, j - start));
        start = i = j;
        continue;
      }
    }
    ++i;
  }
  emit(text.substr(start));
  return units;
}

std::vector<std::string> RougeTokens(std::string_view unit, bool stem) {
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    if (current.empty()) return;
    if (stem && current.size() > 3) {
      const std::string_view base = internal::IrregularBase(current);
      tokens.push_back(base.empty() ? PorterStem(current) : std::string(base));
    } else {
      tokens.push_back(current);
    }
    current.clear();
  };
  for (char c : unit) {
    if (IsAsciiAlnum(c)) {
      current += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    } else {
      flush();  // '-' too: the script isolates it as a token "-", which it then drops
    }
  }
  flush();
  return tokens;
}

RougeResult ScoreRougeUnits(const std::vector<std::string>& peer_units,
                            const std::vector<std::vector<std::string>>& reference_units,
                            const RougeOptions& options) {
  Vocabulary vocabulary;
  const Units peer = vocabulary.Encode(CutUnits(peer_units, options.max_words), options.stem);
  std::vector<Units> references;
  references.reserve(reference_units.size());
  for (const auto& units : reference_units) {
    references.push_back(vocabulary.Encode(CutUnits(units, options.max_words), options.stem));
  }
  RougeResult result;
  result.r1 = RougeN(peer, references, 1, options.alpha);
  result.r2 = RougeN(peer, references, 2, options.alpha);
  result.rl = RougeL(peer, references, options.alpha);
  return result;
}

RougeResult ScoreRouge(std::string_view peer, const std::vector<std::string>& references,
                       const RougeOptions& options) {
  std::vector<std::vector<std::string>> reference_units;
  reference_units.reserve(references.size());
  for (const std::string& reference : references) {
    reference_units.push_back(SplitSentenceUnits(CutToWords(reference, options.max_words)));
  }
  return ScoreRougeUnits(SplitSentenceUnits(CutToWords(peer, options.max_words)), reference_units,
                         options);
}

}  // namespace revsum
