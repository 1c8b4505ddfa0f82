// The fragment rule; the rule and the lexicon format are documented in include/revsum/fragment.h.
#include "revsum/fragment.h"
#include "revsum/models.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "revsum/text.h"
#include "utf.h"

namespace revsum {
namespace {

using text_internal::DecodeUtf8;

bool IsWordChar(char32_t c) {
  return c < 0x80 ? ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                  : static_cast<bool>(U_GET_GC_MASK(static_cast<UChar32>(c)) &
                                      (U_GC_L_MASK | U_GC_N_MASK));
}
bool IsAsciiWordChar(char32_t c) { return c < 0x80 && IsWordChar(c); }
char32_t Lower(char32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

// Lower-cased text where every run of characters that are neither letters, digits nor ideographs
// (spaces, punctuation, symbols, emoji) is one ' ', trimmed; apostrophes inside ASCII words are
// dropped ("it's" -> "its"), so entries and sentences compare alike.
std::u32string Normalise(std::u32string_view text) {
  std::u32string out;
  bool gap = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char32_t c = text[i];
    if ((c == '\'' || c == 0x2019) && i > 0 && i + 1 < text.size() &&
        IsAsciiWordChar(text[i - 1]) && IsAsciiWordChar(text[i + 1])) {
      continue;
    }
    if (IsWordChar(c)) {
      if (gap && !out.empty()) out += U' ';
      gap = false;
      out += Lower(c);
    } else {
      gap = true;
    }
  }
  return out;
}

// The normalised text without spaces, for whole-sentence and ending comparisons, where spaces do
// not matter ("thank you" == "thankyou", "哈哈 哈哈" == "哈哈哈哈").
std::u32string WithoutSpaces(std::u32string_view normalised) {
  std::u32string out;
  for (char32_t c : normalised) {
    if (c != ' ') out += c;
  }
  return out;
}

// True when `text` starts with `entry` at a boundary: an entry ending in an ASCII letter or digit
// must not be followed by another one ("so" does not start "some").
bool StartsWith(std::u32string_view text, std::u32string_view entry) {
  if (entry.empty() || text.size() < entry.size() || text.substr(0, entry.size()) != entry) {
    return false;
  }
  return text.size() == entry.size() || !IsAsciiWordChar(entry.back()) ||
         !IsAsciiWordChar(text[entry.size()]);
}

// If `text` starts with one of `entries` (longest first), removes it and the space after it.
bool StripPrefix(std::u32string_view* text, const std::vector<std::u32string>& entries) {
  for (const std::u32string& e : entries) {
    if (StartsWith(*text, e)) {
      text->remove_prefix(e.size());
      if (!text->empty() && text->front() == ' ') text->remove_prefix(1);
      return true;
    }
  }
  return false;
}

// Content units: one per CJK character, one per run of other letters and digits.
size_t CountUnits(std::u32string_view normalised) {
  size_t units = 0;
  bool in_word = false;
  for (char32_t c : normalised) {
    if (c == ' ') {
      in_word = false;
    } else if (IsCjk(c)) {
      ++units;
      in_word = false;
    } else if (!in_word) {
      ++units;
      in_word = true;
    }
  }
  return units;
}

bool IsChineseNumeral(char32_t c) {
  return std::u32string_view(U"零〇一二两三四五六七八九十百半几多").find(c) !=
         std::u32string_view::npos;
}

// Removes a leading number: digits ("15", "3.5" is "3 5" once normalised), Chinese numerals
// ("十几", "两"), or an English number word. Returns false when there is none.
bool StripNumber(std::u32string_view* text) {
  static const std::u32string_view kWords[] = {U"one",  U"two", U"three", U"four",
                                               U"five", U"six", U"seven", U"eight",
                                               U"nine", U"ten", U"zero",  U"half"};
  size_t n = 0;
  if (!text->empty() && (*text)[0] >= '0' && (*text)[0] <= '9') {
    while (n < text->size() && (((*text)[n] >= '0' && (*text)[n] <= '9'))) ++n;
  } else if (!text->empty() && IsChineseNumeral((*text)[0])) {
    while (n < text->size() && IsChineseNumeral((*text)[n])) ++n;
  } else {
    for (std::u32string_view w : kWords) {
      if (StartsWith(*text, w)) {
        n = w.size();
        break;
      }
    }
  }
  if (n == 0) return false;
  text->remove_prefix(n);
  if (!text->empty() && text->front() == ' ') text->remove_prefix(1);
  return true;
}

std::vector<std::u32string> Prepare(const std::vector<std::string>& entries) {
  std::vector<std::u32string> out;
  for (const std::string& e : entries) {
    std::u32string n = Normalise(DecodeUtf8(e));
    if (!n.empty()) out.push_back(std::move(n));
  }
  // Longest first, so "但是" is stripped whole before "但".
  std::stable_sort(out.begin(), out.end(), [](const std::u32string& a, const std::u32string& b) {
    return a.size() > b.size();
  });
  return out;
}

}  // namespace

struct FragmentRule::Compiled {
  std::vector<std::u32string> noise, filler, lead, back_reference, anaphor, subordinate, evaluative,
      rating_verb, rating_unit, clause_end, not_clause_end, duration_verb, duration_unit;
  std::vector<std::string> reply;  // UTF-8, ASCII letters lower-cased
  // The characters a noise term can start with: ASCII ones as bits, the others sorted.
  std::bitset<128> noise_first_ascii;
  std::vector<char32_t> noise_first_other;
  bool NoiseCanStartWith(char32_t ch) const {
    return ch < 128 ? noise_first_ascii.test(ch)
                    : std::binary_search(noise_first_other.begin(), noise_first_other.end(), ch);
  }
};

std::string_view FragmentReasonName(FragmentReason reason) {
  switch (reason) {
    case FragmentReason::kNone:
      return "none";
    case FragmentReason::kNoise:
      return "noise";
    case FragmentReason::kTooShort:
      return "too_short";
    case FragmentReason::kFiller:
      return "filler";
    case FragmentReason::kBareRating:
      return "bare_rating";
    case FragmentReason::kDependent:
      return "dependent";
    case FragmentReason::kNarration:
      return "narration";
  }
  return "unknown";
}

void ParseFragmentLexicon(std::string_view text, std::string_view source,
                          FragmentLexicon* lexicon) {
  std::vector<std::string>* section = nullptr;
  size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (line.empty() || line.front() == '#') continue;
    const std::string where = std::string(source) + ":" + std::to_string(line_number) + ": ";
    if (line.front() == '[') {
      if (line.back() != ']') throw TextError(where + "section header without ']'");
      const std::string_view name = line.substr(1, line.size() - 2);
      const std::pair<std::string_view, std::vector<std::string>*> sections[] = {
          {"noise", &lexicon->noise},
          {"filler", &lexicon->filler},
          {"lead", &lexicon->lead},
          {"back_reference", &lexicon->back_reference},
          {"anaphor", &lexicon->anaphor},
          {"subordinate", &lexicon->subordinate},
          {"evaluative", &lexicon->evaluative},
          {"rating_verb", &lexicon->rating_verb},
          {"rating_unit", &lexicon->rating_unit},
          {"clause_end", &lexicon->clause_end},
          {"not_clause_end", &lexicon->not_clause_end},
          {"duration_verb", &lexicon->duration_verb},
          {"duration_unit", &lexicon->duration_unit},
          {"reply", &lexicon->reply}};
      section = nullptr;
      for (const auto& [n, list] : sections) {
        if (n == name) section = list;
      }
      if (!section) throw TextError(where + "unknown section [" + std::string(name) + "]");
      continue;
    }
    if (!section) throw TextError(where + "entry before any [section]");
    section->emplace_back(line);
  }
}

FragmentLexicon LoadFragmentLexicon(const std::vector<std::filesystem::path>& files) {
  FragmentLexicon lexicon;
  for (const std::filesystem::path& file : files) {
    const std::optional<std::string> text = ReadWholeFile(file);
    if (!text) throw ModelsError("cannot read fragment lexicon " + file.string());
    ParseFragmentLexicon(*text, file.string(), &lexicon);
  }
  return lexicon;
}

FragmentRule::FragmentRule(FragmentLexicon lexicon) : lexicon_(std::move(lexicon)) {
  auto c = std::make_shared<Compiled>();
  for (const std::string& e : lexicon_.noise) {
    std::u32string d = DecodeUtf8(e);
    for (char32_t& ch : d) ch = Lower(ch);
    if (d.empty()) continue;
    if (d[0] < 128) {
      c->noise_first_ascii.set(d[0]);
    } else {
      c->noise_first_other.push_back(d[0]);
    }
    c->noise.push_back(std::move(d));
  }
  std::sort(c->noise_first_other.begin(), c->noise_first_other.end());
  c->filler = Prepare(lexicon_.filler);
  for (std::u32string& f : c->filler) f = WithoutSpaces(f);
  c->lead = Prepare(lexicon_.lead);
  c->back_reference = Prepare(lexicon_.back_reference);
  c->anaphor = Prepare(lexicon_.anaphor);
  c->subordinate = Prepare(lexicon_.subordinate);
  c->evaluative = Prepare(lexicon_.evaluative);
  c->rating_verb = Prepare(lexicon_.rating_verb);
  c->rating_unit = Prepare(lexicon_.rating_unit);
  c->clause_end = Prepare(lexicon_.clause_end);
  for (std::u32string& e : c->clause_end) e = WithoutSpaces(e);
  c->not_clause_end = Prepare(lexicon_.not_clause_end);
  for (std::u32string& e : c->not_clause_end) e = WithoutSpaces(e);
  c->duration_verb = Prepare(lexicon_.duration_verb);
  c->duration_unit = Prepare(lexicon_.duration_unit);
  for (const std::string& r : lexicon_.reply) {
    std::string m = r;
    for (char& ch : m) ch = static_cast<char>(Lower(static_cast<unsigned char>(ch)));
    if (!m.empty()) c->reply.push_back(std::move(m));
  }
  compiled_ = std::move(c);
}

bool FragmentRule::StartsReply(std::string_view sentence) const {
  const Compiled& c = *compiled_;
  if (c.reply.empty()) return false;
  // Lower-cased (a copy only when there is an ASCII capital: this runs on every sentence read).
  std::string copy;
  std::string_view lower = sentence;
  if (std::any_of(sentence.begin(), sentence.end(),
                  [](char ch) { return ch >= 'A' && ch <= 'Z'; })) {
    copy.assign(sentence);
    for (char& ch : copy) ch = static_cast<char>(Lower(static_cast<unsigned char>(ch)));
    lower = copy;
  }
  for (const std::string& marker : c.reply) {
    for (size_t at = lower.find(marker); at != std::string::npos; at = lower.find(marker, at + 1)) {
      // A header: the marker, spaces, then a date or a colon ("宾馆反馈 2008年8月12日 ："), not
      // the marker inside a reviewer's own words ("宾馆反馈很及时").
      std::string_view rest = lower.substr(at + marker.size());
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      while (rest.starts_with("\u3000")) rest.remove_prefix(3);  // ideographic space
      if (!rest.empty() && ((rest.front() >= '0' && rest.front() <= '9') || rest.front() == ':'))
        return true;
      // Full-width colon and digits: EF BC 9A, EF BC 90-99.
      if (rest.size() >= 3 && static_cast<unsigned char>(rest[0]) == 0xEF &&
          static_cast<unsigned char>(rest[1]) == 0xBC &&
          static_cast<unsigned char>(rest[2]) >= 0x90 &&
          static_cast<unsigned char>(rest[2]) <= 0x9A)
        return true;
    }
  }
  return false;
}

namespace {

// Whether the sentence opens with a [back_reference] phrase that is followed by punctuation or
// ends the sentence: "Not only that, but ...", "Other than that." — not "Other than that one
// scuff, ..." or "Because of this mattress ...", where the phrase names something. Compared on
// the lower-cased text; a space in an entry matches any run of spaces.
bool OpensWithBackReference(std::u32string_view raw, const std::vector<std::u32string>& entries) {
  size_t start = 0;
  while (start < raw.size() && !IsWordChar(raw[start])) ++start;
  for (const std::u32string& e : entries) {
    size_t i = start;
    bool ok = true;
    for (size_t k = 0; k < e.size() && ok; ++k) {
      if (e[k] == ' ') {
        if (i >= raw.size() || raw[i] != ' ') ok = false;
        while (i < raw.size() && raw[i] == ' ') ++i;
      } else {
        ok = i < raw.size() && Lower(raw[i]) == e[k];
        ++i;
      }
    }
    if (!ok) continue;
    while (i < raw.size() && (raw[i] == ' ' || raw[i] == 0x3000)) ++i;
    if (i == raw.size() || !IsWordChar(raw[i])) return true;
  }
  return false;
}

}  // namespace

FragmentReason FragmentRule::Classify(std::string_view sentence) const {
  const Compiled& c = *compiled_;
  const std::u32string raw = DecodeUtf8(sentence);
  std::u32string lower = raw;
  for (char32_t& ch : lower) ch = Lower(ch);

  // 1. Noise: one pass over the text, trying the terms only where one can start.
  for (size_t i = 0; i < lower.size(); ++i) {
    if (!c.NoiseCanStartWith(lower[i])) continue;
    const std::u32string_view at = std::u32string_view(lower).substr(i);
    for (const std::u32string& n : c.noise) {
      if (at.starts_with(n)) return FragmentReason::kNoise;
    }
  }
  for (size_t i = 0; i + 1 < raw.size(); ++i) {
    if (raw[i] == '@' && IsWordChar(raw[i + 1])) return FragmentReason::kNoise;
  }

  // 2. Too short.
  const std::u32string norm = Normalise(raw);
  const size_t units = CountUnits(norm);
  if (units < 3) return FragmentReason::kTooShort;

  // 3. Filler.
  const std::u32string compact = WithoutSpaces(norm);
  if (std::find(c.filler.begin(), c.filler.end(), compact) != c.filler.end()) {
    return FragmentReason::kFiller;
  }

  // 4. Bare rating.
  {
    std::u32string_view rest = norm;
    StripPrefix(&rest, c.lead);
    while (StripPrefix(&rest, c.rating_verb)) {
    }
    const std::u32string_view before_number = rest;
    if (StripNumber(&rest)) {
      // "十分满意", "百分百好": adverbs, not "10 points".
      const std::u32string_view number =
          before_number.substr(0, before_number.size() - rest.size());
      const bool adverb = (number == U"十" || number == U"百" || number == U"万") &&
                          !rest.empty() && rest.front() == U'分';
      if (!adverb && StripPrefix(&rest, c.rating_unit) && CountUnits(rest) <= 2) {
        return FragmentReason::kBareRating;
      }
    }
    // "5/5", "10/10" alone.
    std::u32string_view r = norm;
    if (StripNumber(&r) && StripNumber(&r) && r.empty() && units <= 3 &&
        raw.find(U'/') != std::u32string::npos) {
      return FragmentReason::kBareRating;
    }
  }

  // 5. Dependent.
  {
    // English sentences with a verdict word are exempt from the [lead] and [anaphor] tests.
    const bool cjk = std::any_of(norm.begin(), norm.end(), [](char32_t ch) { return IsCjk(ch); });
    bool verdict = false;
    if (!cjk) {
      for (size_t w = 0; w < norm.size() && !verdict;) {
        const std::u32string_view at = std::u32string_view(norm).substr(w);
        for (const std::u32string& e : c.evaluative)
          verdict = verdict || at.substr(0, e.size()) == e;
        const size_t space = norm.find(U' ', w);
        w = space == std::u32string::npos ? norm.size() : space + 1;
      }
    }
    if (OpensWithBackReference(raw, c.back_reference)) return FragmentReason::kDependent;
    std::u32string_view rest = norm;
    if (units < 12 && !verdict && StripPrefix(&rest, c.lead)) return FragmentReason::kDependent;
    rest = norm;
    if (units < 7 && !verdict && StripPrefix(&rest, c.anaphor)) return FragmentReason::kDependent;
    rest = norm;
    const bool comma =
        raw.find(U',') != std::u32string::npos || raw.find(U'\u3001') != std::u32string::npos;
    if (units < 12 && !comma && StripPrefix(&rest, c.subordinate)) {
      return FragmentReason::kDependent;
    }
    if (norm[0] == U'的' && (norm.size() < 2 || norm[1] != U'确'))
      return FragmentReason::kDependent;
    size_t last = raw.size();
    while (last > 0 && (raw[last - 1] == ' ' || raw[last - 1] == '.')) --last;
    if (last > 0 && (raw[last - 1] == ',' || raw[last - 1] == U'\u3001' || raw[last - 1] == ':')) {
      return FragmentReason::kDependent;
    }
  }

  // 6. Narration: a time clause, or a bare duration.
  for (const std::u32string& e : c.clause_end) {
    if (compact.size() < e.size() || compact.compare(compact.size() - e.size(), e.size(), e) != 0) {
      continue;
    }
    bool excepted = false;
    for (const std::u32string& x : c.not_clause_end) {
      if (compact.size() >= x.size() &&
          compact.compare(compact.size() - x.size(), x.size(), x) == 0 && x.size() > e.size()) {
        excepted = true;
      }
    }
    if (!excepted) return FragmentReason::kNarration;
  }
  {
    std::u32string d = compact;
    std::u32string_view rest = d;
    StripPrefix(&rest, c.duration_verb);
    if (!rest.empty() && rest.front() == U'了') rest.remove_prefix(1);
    if (StripNumber(&rest)) {
      if (!rest.empty() && rest.front() == U'个') rest.remove_prefix(1);
      if (StripPrefix(&rest, c.duration_unit)) {
        if (!rest.empty() && (rest.front() == U'多' || rest.front() == U'了'))
          rest.remove_prefix(1);
        if (!rest.empty() && rest.front() == U'了') rest.remove_prefix(1);
        if (rest.empty()) return FragmentReason::kNarration;
      }
    }
  }
  return FragmentReason::kNone;
}

}  // namespace revsum
