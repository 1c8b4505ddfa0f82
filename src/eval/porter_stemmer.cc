// The Porter stemmer, written from the algorithm in
//
//   M.F. Porter, 1980, "An algorithm for suffix stripping", Program 14(3), 130-137,
//
// with the choices of the perl port that ROUGE-1.5.5 embeds (so that stems, and therefore ROUGE
// scores, agree with that script):
//   - an initial 'y' is a consonant (the port upper-cases it while stemming);
//   - step 1b's "*o" test on the stem is "whole stem is C v c" (one consonant run, one vowel,
//     one consonant other than w, x, y), which equals the paper's m=1 and *o;
//   - step 2 uses "bli"->"ble" and "logi"->"log" (the paper has "abli"->"able");
//   - step 4 first tries al, ance, ence, er, ic, able, ible, ant, ement, ou, ism, ate, iti, ous,
//     ive, ize; then, on the result, "ment"; then "ent", or else "(s|t)ion". (Lin changed this in
//     2004; the paper removes only the longest suffix.)
// Each step picks the longest listed suffix the word ends with and applies it only if its
// condition on the stem holds; it never falls back to a shorter suffix.
//
// Vocabulary of the paper: a consonant is a letter other than a, e, i, o, u, and other than a 'y'
// preceded by a consonant; a word is [C](VC)^m[V], where C and V are maximal runs of consonants and
// vowels, and m is its "measure". Digits count as consonants.

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "revsum/rouge.h"

namespace revsum {
namespace {

bool IsAeiou(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

// Paper's consonant test on w[i]; 'Y' (the upper-cased initial y) is a consonant.
bool IsConsonant(std::string_view w, size_t i) {
  const char c = w[i];
  if (IsAeiou(c)) return false;
  if (c == 'y') return i == 0 || !IsConsonant(w, i - 1);
  return true;
}

// m in [C](VC)^m[V].
int Measure(std::string_view w) {
  int m = 0;
  bool previous_vowel = false;
  for (size_t i = 0; i < w.size(); ++i) {
    const bool consonant = IsConsonant(w, i);
    if (consonant && previous_vowel) ++m;
    previous_vowel = !consonant;
  }
  return m;
}

// *v*: the stem contains a vowel.
bool HasVowel(std::string_view w) {
  for (size_t i = 0; i < w.size(); ++i) {
    if (!IsConsonant(w, i)) return true;
  }
  return false;
}

// The port's "C v c" test: a non-empty consonant run from the start, exactly one vowel
// (a, e, i, o, u or y), then one final letter that is not a vowel, w, x or y.
bool IsShortCvc(std::string_view w) {
  if (w.size() < 3 || IsAeiou(w[0])) return false;
  size_t i = 1;
  while (i < w.size() && !IsAeiou(w[i]) && w[i] != 'y') ++i;
  if (i != w.size() - 2) return false;
  const char last = w.back();
  return !IsAeiou(last) && last != 'w' && last != 'x' && last != 'y';
}

bool EndsWith(std::string_view w, std::string_view suffix) {
  return w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix;
}

// Step 2 and 3 rules: suffix -> replacement.
using Rule = std::pair<std::string_view, std::string_view>;

constexpr std::array<Rule, 21> kStep2 = {{
    {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
    {"bli", "ble"},     {"alli", "al"},     {"entli", "ent"}, {"eli", "e"},     {"ousli", "ous"},
    {"ization", "ize"}, {"ation", "ate"},   {"ator", "ate"},  {"alism", "al"},  {"iveness", "ive"},
    {"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"},  {"iviti", "ive"}, {"biliti", "ble"},
    {"logi", "log"},
}};

constexpr std::array<Rule, 7> kStep3 = {{
    {"icate", "ic"},
    {"ative", ""},
    {"alize", "al"},
    {"iciti", "ic"},
    {"ical", "ic"},
    {"ful", ""},
    {"ness", ""},
}};

constexpr std::array<std::string_view, 16> kStep4 = {
    "al",    "ance", "ence", "er",  "ic",  "able", "ible", "ant",
    "ement", "ou",   "ism",  "ate", "iti", "ous",  "ive",  "ize",
};

// The longest rule whose suffix ends `w`, or nullptr.
template <size_t N>
const Rule* LongestRule(std::string_view w, const std::array<Rule, N>& rules) {
  const Rule* best = nullptr;
  for (const Rule& rule : rules) {
    if (EndsWith(w, rule.first) && (!best || rule.first.size() > best->first.size())) best = &rule;
  }
  return best;
}

// Replaces the rule's suffix when the stem's measure is > 0 (steps 2 and 3).
template <size_t N>
void ApplyRules(std::string& w, const std::array<Rule, N>& rules) {
  if (const Rule* rule = LongestRule(w, rules)) {
    const size_t stem_size = w.size() - rule->first.size();
    if (Measure(std::string_view(w).substr(0, stem_size)) > 0) {
      w.erase(stem_size);
      w.append(rule->second);
    }
  }
}

// Removes `length` trailing characters when what remains has measure > 1 (step 4).
void StripIfLong(std::string& w, size_t length) {
  if (Measure(std::string_view(w).substr(0, w.size() - length)) > 1) w.erase(w.size() - length);
}

}  // namespace

std::string PorterStem(std::string_view word) {
  std::string w(word);
  if (w.size() < 3) return w;
  const bool initial_y = w[0] == 'y';
  if (initial_y) w[0] = 'Y';

  // Step 1a: sses -> ss, ies -> i, s -> "" (but not ss).
  if (EndsWith(w, "sses") || EndsWith(w, "ies")) {
    w.erase(w.size() - 2);
  } else if (w.size() >= 2 && w.back() == 's' && w[w.size() - 2] != 's') {
    w.pop_back();
  }

  // Step 1b: (m>0) eed -> ee; (*v*) ed -> "", (*v*) ing -> "", then tidy the stem.
  if (EndsWith(w, "eed")) {
    if (Measure(std::string_view(w).substr(0, w.size() - 3)) > 0) w.pop_back();
  } else if (EndsWith(w, "ed") || EndsWith(w, "ing")) {
    const size_t cut = EndsWith(w, "ed") ? 2 : 3;
    if (HasVowel(std::string_view(w).substr(0, w.size() - cut))) {
      w.erase(w.size() - cut);
      const size_t n = w.size();
      if (EndsWith(w, "at") || EndsWith(w, "bl") || EndsWith(w, "iz")) {
        w += 'e';
      } else if (n >= 2 && w[n - 1] == w[n - 2] && !IsAeiou(w[n - 1]) &&
                 std::string_view("ylsz").find(w[n - 1]) == std::string_view::npos) {
        w.pop_back();  // double consonant other than l, s, z: hopp -> hop
      } else if (IsShortCvc(w)) {
        w += 'e';  // hop -> hope
      }
    }
  }

  // Step 1c: (*v*) y -> i.
  if (!w.empty() && w.back() == 'y' && HasVowel(std::string_view(w).substr(0, w.size() - 1))) {
    w.back() = 'i';
  }

  // Steps 2 and 3: (m>0) suffix replacements.
  ApplyRules(w, kStep2);
  ApplyRules(w, kStep3);

  // Step 4: (m>1) suffix removals, in ROUGE-1.5.5's order.
  {
    size_t longest = 0;
    for (std::string_view suffix : kStep4) {
      if (EndsWith(w, suffix) && suffix.size() > longest) longest = suffix.size();
    }
    if (longest > 0) StripIfLong(w, longest);
  }
  if (EndsWith(w, "ment")) StripIfLong(w, 4);
  if (EndsWith(w, "ent")) {
    StripIfLong(w, 3);
  } else if (EndsWith(w, "sion") || EndsWith(w, "tion")) {
    StripIfLong(w, 3);  // the stem keeps its s or t
  }

  // Step 5a: (m>1) e -> ""; (m=1 and not *o) e -> "".
  if (!w.empty() && w.back() == 'e') {
    std::string_view stem(w.data(), w.size() - 1);
    const int m = Measure(stem);
    if (m > 1 || (m == 1 && !IsShortCvc(stem))) w.pop_back();
  }
  // Step 5b: (m>1 and *d and *L) single letter: controll -> control.
  if (EndsWith(w, "ll") && Measure(w) > 1) w.pop_back();

  if (initial_y) w[0] = 'y';
  return w;
}

}  // namespace revsum
