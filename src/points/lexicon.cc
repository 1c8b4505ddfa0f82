// Polarity word lists and rating scales (points.h).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "revsum/models.h"
#include "revsum/points.h"

namespace revsum {

std::string_view PolarityName(Polarity p) {
  switch (p) {
    case Polarity::kPraise:
      return "praise";
    case Polarity::kComplaint:
      return "complaint";
    case Polarity::kNeutral:
      return "neutral";
    case Polarity::kUnknown:
      return "unknown";
  }
  return "unknown";
}

double RatingScale::Normalise(double r) const {
  double v = 0;
  switch (kind) {
    case Kind::kLabels:
      v = 2 * r - 1;
      break;
    case Kind::kStars:
      v = (r - 3) / 2;
      break;
    case Kind::kTen:
      v = (r - 5.5) / 4.5;
      break;
    case Kind::kLinear:
      v = max > min ? 2 * (r - min) / (max - min) - 1 : 0;
      break;
  }
  return std::clamp(v, -1.0, 1.0);
}

std::string RatingScale::Describe() const {
  switch (kind) {
    case Kind::kLabels:
      return "labels 0/1";
    case Kind::kStars:
      return "stars 1-5";
    case Kind::kTen:
      return "1-10";
    case Kind::kLinear: {
      std::ostringstream s;
      s << "linear " << min << "-" << max;
      return s.str();
    }
  }
  return "";
}

RatingScale DetectRatingScale(double lo, double hi, bool labels_only, const RatingCounts& counts) {
  RatingScale s;
  s.min = lo;
  s.max = hi;
  // Ratings a scale may leave outside: none without counts, else 1 % of them (at least one).
  const uint64_t outliers = counts.count == 0 ? 0 : std::max<uint64_t>(1, counts.count / 100);
  // ... and only when most ratings lie inside (one off-scale rating is no star dump).
  const auto holds = [&](bool in_range, uint64_t inside) {
    inside = std::min(inside, counts.count);
    return in_range ||
           (counts.count > 0 && counts.count - inside <= outliers && 2 * inside > counts.count);
  };
  if (labels_only) {
    s.kind = RatingScale::Kind::kLabels;
  } else if (holds(lo >= 1 && hi <= 5, counts.stars)) {
    s.kind = RatingScale::Kind::kStars;
  } else if (holds(lo >= 0 && hi <= 10, counts.tenths)) {
    s.kind = RatingScale::Kind::kTen;
  } else {
    s.kind = RatingScale::Kind::kLinear;
  }
  return s;
}

namespace {

bool IsAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

// ASCII words of a sentence, lowercase; apostrophes stay inside words ("don't"), a typographic
// apostrophe becomes '.
std::vector<std::string> AsciiWords(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isalnum(c) && c < 0x80) {
      cur += static_cast<char>(std::tolower(c));
    } else if ((c == '\'' || (c == 0xE2 && i + 2 < s.size() && s.substr(i, 3) == "\xE2\x80\x99")) &&
               !cur.empty()) {
      cur += '\'';
      if (c == 0xE2) i += 2;
    } else if (!cur.empty()) {
      words.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

// The bytes s[i], s[i + 1] as one key (the caller checks i + 2 <= s.size()).
uint16_t FirstTwoBytes(std::string_view s, size_t i) {
  return static_cast<uint16_t>(static_cast<unsigned char>(s[i]) << 8 |
                               static_cast<unsigned char>(s[i + 1]));
}

std::vector<std::string> SplitWords(const std::string& term) {
  std::vector<std::string> out;
  std::istringstream in(term);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

void PolarityLexicon::Add(std::string_view text, std::string_view origin) {
  std::vector<Term>* section = nullptr;
  int sign = 0;
  int aspect = -1;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string line = Trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    auto fail = [&](const std::string& problem) {
      throw PointsError(std::string(origin) + ":" + std::to_string(line_no) + ": " + problem);
    };
    if (line.front() == '[') {
      aspect = -1;
      if (line == "[positive]") {
        section = &positive_, sign = 1;
      } else if (line == "[negative]") {
        section = &negative_, sign = -1;
      } else if (line == "[negator]") {
        section = &negators_, sign = 0;
      } else if (line == "[neutral]") {
        section = &neutral_, sign = 0;
      } else if (line.rfind("[aspect:", 0) == 0 && line.back() == ']' && line.size() > 9) {
        const std::string name = line.substr(8, line.size() - 9);
        const auto known = std::find(aspect_names_.begin(), aspect_names_.end(), name);
        aspect = static_cast<int>(known - aspect_names_.begin());
        if (known == aspect_names_.end()) aspect_names_.push_back(name);
        section = nullptr, sign = 0;
      } else {
        fail("unknown section " + line + " (positive, negative, negator, neutral, aspect:<name>)");
      }
      continue;
    }
    if (!section && aspect < 0) fail("term outside a section: " + line);
    Term t{Lower(line), IsAscii(line), sign, section == &negators_, {}, aspect};
    if (t.ascii) t.words = SplitWords(t.text);
    if (aspect >= 0) {
      aspects_.Add(t);
    } else {
      section->push_back(t);
      polar_.Add(t);
    }
  }
  polar_.Build();
  aspects_.Build();
}

void PolarityLexicon::TermIndex::Add(const Term& t) { (t.ascii ? ascii : cjk).push_back(t); }

void PolarityLexicon::TermIndex::Build() {
  auto longest_first = [](const Term& a, const Term& b) {
    return a.text.size() != b.text.size() ? a.text.size() > b.text.size() : a.text < b.text;
  };
  std::stable_sort(ascii.begin(), ascii.end(), longest_first);
  std::stable_sort(cjk.begin(), cjk.end(), longest_first);
  ascii_by_first_word.clear();
  cjk_by_first_bytes.clear();
  cjk_one_byte.clear();
  for (uint32_t k = 0; k < ascii.size(); ++k) {
    if (!ascii[k].words.empty()) ascii_by_first_word[ascii[k].words[0]].push_back(k);
  }
  for (uint32_t k = 0; k < cjk.size(); ++k) {
    const std::string& t = cjk[k].text;
    if (t.size() >= 2) {
      cjk_by_first_bytes[FirstTwoBytes(t, 0)].push_back(k);
    } else if (t.size() == 1) {
      cjk_one_byte[static_cast<unsigned char>(t[0])].push_back(k);
    }
  }
}

template <typename OnAscii, typename OnCjk>
void PolarityLexicon::TermIndex::Scan(std::string_view s, const std::vector<std::string>& words,
                                      OnAscii&& on_ascii, OnCjk&& on_cjk) const {
  for (size_t i = 0; i < words.size();) {
    const Term* hit = nullptr;
    const auto candidates = ascii_by_first_word.find(words[i]);
    if (candidates != ascii_by_first_word.end()) {
      for (const uint32_t k : candidates->second) {
        const std::vector<std::string>& tw = ascii[k].words;
        if (i + tw.size() <= words.size() &&
            std::equal(tw.begin(), tw.end(), words.begin() + static_cast<std::ptrdiff_t>(i))) {
          hit = &ascii[k];
          break;
        }
      }
    }
    if (!hit) {
      ++i;
      continue;
    }
    on_ascii(*hit, i);
    i += hit->words.size();
  }
  if (cjk.empty() || IsAscii(s)) return;
  for (size_t i = 0; i < s.size();) {
    const Term* hit = nullptr;
    auto first_hit = [&](const std::vector<uint32_t>& candidates) {
      for (const uint32_t k : candidates) {
        if (s.substr(i, cjk[k].text.size()) == cjk[k].text) {
          hit = &cjk[k];
          return;
        }
      }
    };
    if (i + 2 <= s.size()) {
      const auto two = cjk_by_first_bytes.find(FirstTwoBytes(s, i));
      if (two != cjk_by_first_bytes.end()) first_hit(two->second);
    }
    if (!hit) {
      const auto one = cjk_one_byte.find(static_cast<unsigned char>(s[i]));
      if (one != cjk_one_byte.end()) first_hit(one->second);
    }
    if (!hit) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      i += c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;  // a stray continuation byte: 1
      continue;
    }
    on_cjk(*hit, i);
    i += hit->text.size();
  }
}

PolarityLexicon PolarityLexicon::Load(const std::vector<std::string>& paths) {
  PolarityLexicon lexicon;
  for (const std::string& path : paths) {
    const std::optional<std::string> text = ReadWholeFile(path);
    if (!text) throw ModelsError(path + ": cannot read the polarity word list");
    lexicon.Add(*text, path);
  }
  return lexicon;
}

std::vector<std::string> PolarityLexicon::DefaultPaths() {
  std::string base;
  try {
    base = (ModelsDir() / "polarity").string();
  } catch (const ModelsError&) {
    base = "<no models folder: set REVSUM_MODELS_DIR>/polarity";
  }
  return {base + "/en.txt", base + "/zh.txt", base + "/zh-aspects.txt", base + "/en-aspects.txt"};
}

int PolarityLexicon::Score(std::string_view sentence) const {
  int score = 0;
  // ASCII words: a negator within 3 words before a term flips it.
  size_t last_negator = SIZE_MAX;
  auto on_ascii = [&](const Term& t, size_t i) {
    if (t.negator) {
      last_negator = i + t.words.size() - 1;
    } else if (t.sign != 0) {
      const bool negated = last_negator != SIZE_MAX && i - last_negator <= 3;
      score += negated ? -t.sign : t.sign;
      last_negator = SIZE_MAX;
    }
  };
  // Other scripts (Chinese): a negator ending at most 2 characters (6 bytes of CJK) before the
  // term flips it.
  size_t negator_end = std::string::npos;
  auto on_cjk = [&](const Term& t, size_t i) {
    if (t.negator) {
      negator_end = i + t.text.size();
    } else if (t.sign != 0) {
      const bool negated = negator_end != std::string::npos && i - negator_end <= 6;
      score += negated ? -t.sign : t.sign;
      negator_end = std::string::npos;
    }
  };
  polar_.Scan(sentence, AsciiWords(sentence), on_ascii, on_cjk);
  return score;
}

std::vector<int> PolarityLexicon::Aspects(std::string_view sentence) const {
  std::vector<int> found;
  if (aspect_names_.empty()) return found;
  auto add = [&](const Term& t, size_t) { found.push_back(t.aspect); };
  aspects_.Scan(sentence,
                aspects_.ascii.empty() ? std::vector<std::string>{} : AsciiWords(sentence), add,
                add);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

}  // namespace revsum
