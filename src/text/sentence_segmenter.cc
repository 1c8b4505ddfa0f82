// Sentence segmentation: ICU's sentence rules (UAX #29, root locale) line by line, then repairs for
// the noise of customer reviews. See text.h for the list of repairs and the contract.

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include "revsum/text.h"
#include "utf.h"

namespace revsum {
namespace {

// Titles and abbreviations after which a '.' does not end a sentence.
constexpr std::u32string_view kAbbreviations[] = {
    U"mr",     U"mrs", U"ms",  U"dr",  U"prof", U"sr",   U"jr",  U"st",  U"mt",  U"vs",   U"etc",
    U"approx", U"fig", U"inc", U"ltd", U"co",   U"dept", U"est", U"min", U"max", U"incl", U"eg",
    U"ie",     U"lb",  U"lbs", U"oz",  U"ft",   U"pcs",  U"hrs", U"yrs", U"qty"};

// "vs." never ends a sentence when something follows it.
constexpr std::u32string_view kVersus[] = {U"vs"};

// Top-level domains and file suffixes: "amazon.com" is not "amazon. com".
constexpr std::u32string_view kDomainSuffixes[] = {
    U"com", U"net", U"org", U"edu",  U"gov", U"io",   U"co",  U"uk",  U"us", U"de", U"fr", U"jp",
    U"cn",  U"ca",  U"au",  U"info", U"biz", U"html", U"htm", U"php", U"tv", U"ly", U"me", U"in"};

// The prototype is created once per process; instances clone it (cheap) under a mutex, since ICU
// does not promise that concurrent clones of one iterator are safe.
std::unique_ptr<icu::BreakIterator> CloneSentencePrototype() {
  static std::mutex mutex;
  static std::unique_ptr<icu::BreakIterator> prototype;
  std::lock_guard<std::mutex> lock(mutex);
  if (!prototype) {
    // The root rules, not "en@ss=standard": the latter's suppression list keeps "It is OK. Not
    // bad." and "Jan. The" together, which is wrong for reviews; titles are handled below.
    UErrorCode status = U_ZERO_ERROR;
    prototype.reset(icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status) || !prototype) {
      throw TextError(std::string("revsum text: cannot create ICU sentence iterator: ") +
                      u_errorName(status) + " (is the ICU data library installed?)");
    }
  }
  return std::unique_ptr<icu::BreakIterator>(prototype->clone());
}

bool IsLetter(char32_t c) { return u_isalpha(static_cast<UChar32>(c)); }
bool IsDigit(char32_t c) { return u_isdigit(static_cast<UChar32>(c)); }
bool IsLower(char32_t c) { return u_islower(static_cast<UChar32>(c)); }
bool HasContent(char32_t c) {
  return U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK);
}
bool IsTerminator(char32_t c) { return c == '.' || c == '!' || c == '?' || c == 0x3002; }

// Opening brackets and quotes ("《", "“", "(", "「"): they start the next sentence, although UAX
// #29 counts them as "Close" characters that may follow a sentence end.
bool IsOpening(char32_t c) {
  return U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_PS_MASK | U_GC_PI_MASK);
}

// Characters that stay with the sentence before them when they follow its end: emoji (with their
// modifiers, joiners and variation selectors), other symbols, combining marks.
bool IsAttachable(char32_t c) {
  const auto u = static_cast<UChar32>(c);
  if (c == 0x200D || (c >= 0xE0020 && c <= 0xE007F)) return true;
  if (u_hasBinaryProperty(u, UCHAR_EXTENDED_PICTOGRAPHIC)) return true;
  return U_GET_GC_MASK(u) & (U_GC_SO_MASK | U_GC_SK_MASK | U_GC_MN_MASK | U_GC_ME_MASK);
}

// A character that must not start a piece of a long sentence split by length.
bool IsExtend(char32_t c) {
  const auto u = static_cast<UChar32>(c);
  return c == 0x200D || (c >= 0x1F3FB && c <= 0x1F3FF) ||
         (U_GET_GC_MASK(u) & (U_GC_MN_MASK | U_GC_ME_MASK | U_GC_MC_MASK));
}

char32_t AsciiLower(char32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

template <size_t N>
bool InList(const std::u32string_view (&list)[N], std::u32string_view word) {
  if (word.size() > 8) return false;
  std::u32string lower(word);
  for (char32_t& c : lower) c = AsciiLower(c);
  return std::find(std::begin(list), std::end(list), lower) != std::end(list);
}

// The sentence splitter's view of one line of cleaned text, [begin, end) in `t`.
class LineSplitter {
 public:
  LineSplitter(std::u32string_view t, size_t begin, size_t end) : t_(t), begin_(begin), end_(end) {}

  // The word of letters that ends just before t[pos] (pos excluded).
  std::u32string_view WordBefore(size_t pos) const {
    size_t start = pos;
    while (start > begin_ && IsLetter(t_[start - 1])) --start;
    return t_.substr(start, pos - start);
  }

  // The run of non-space characters around t[pos].
  std::u32string_view TokenAround(size_t pos) const {
    size_t start = pos, stop = pos;
    while (start > begin_ && t_[start - 1] != ' ') --start;
    while (stop < end_ && t_[stop] != ' ') ++stop;
    return t_.substr(start, stop - start);
  }

  // The ASCII letters at the end of `word` ("MR" in "行李员MR"): Chinese text glues Latin
  // abbreviations to ideographs without a space.
  static std::u32string_view AsciiTail(std::u32string_view word) {
    size_t start = word.size();
    while (start > 0 && word[start - 1] < 0x80) --start;
    return word.substr(start);
  }

  // True for "MR.KEN" in "行李员MR.KEN很热情": an upper-case ASCII run of at most 3 letters glued
  // to a CJK character, then '.', then directly an upper-case Latin letter. Such a run is a title
  // or initialism inside Chinese text, not the end of an English sentence.
  bool IsGluedCapsAbbreviation(size_t dot) const {
    const std::u32string_view word = WordBefore(dot);
    const std::u32string_view tail = AsciiTail(word);
    if (tail.empty() || tail.size() == word.size() || tail.size() > 3) return false;
    if (!IsCjk(word[word.size() - tail.size() - 1])) return false;
    const auto upper = [](char32_t c) { return c >= 'A' && c <= 'Z'; };
    return std::all_of(tail.begin(), tail.end(), upper) && dot + 1 < end_ && upper(t_[dot + 1]);
  }

  // False when the single '.' at t[dot] is part of an abbreviation, initialism, URL, e-mail
  // address or domain name, so that a letter right after it does not start a sentence.
  bool DotMayEndSentence(size_t dot) const {
    const std::u32string_view word = WordBefore(dot);
    if (word.size() == 1 && !IsCjk(word[0])) return false;  // e.g. U.S. i.e. J.K.
    if (InList(kAbbreviations, word) || InList(kAbbreviations, AsciiTail(word))) return false;
    if (IsGluedCapsAbbreviation(dot)) return false;
    if (IsUrlLike(TokenAround(dot))) return false;
    size_t stop = dot + 1;
    while (stop < end_ && t_[stop] < 0x80 && IsLetter(t_[stop])) ++stop;
    const std::u32string_view after = t_.substr(dot + 1, stop - dot - 1);
    const bool after_ends = stop == end_ || !IsLetter(t_[stop]);
    const bool ascii_word =
        !word.empty() && std::all_of(word.begin(), word.end(), [](char32_t c) { return c < 0x80; });
    const bool lowercase_after = std::all_of(after.begin(), after.end(), IsLower);
    if (ascii_word && after_ends && lowercase_after && InList(kDomainSuffixes, after)) return false;
    return true;
  }

  // Adds the breaks that ICU's rules miss in review text. `is_break` is indexed by position -
  // begin.
  void AddRepairs(std::vector<char>* is_break) const {
    auto mark = [&](size_t pos) {
      if (pos > begin_ && pos < end_) (*is_break)[pos - begin_] = 1;
    };
    for (size_t k = begin_; k < end_;) {
      const char32_t c = t_[k];
      if (IsTerminator(c)) {
        size_t r = k;
        while (r < end_ && IsTerminator(t_[r])) ++r;
        const bool single_dot = r == k + 1 && c == '.';
        const bool dots_only =
            std::all_of(t_.begin() + k, t_.begin() + r, [](char32_t d) { return d == '.'; });
        if (k > begin_ && IsOpening(t_[k - 1])) {
          // "“...让我回忆": an ellipsis opening a quotation is not a sentence end
        } else if (k > begin_ && InlineListNumberAt(r) &&
                   (IsCjk(t_[k - 1]) || IsLetter(t_[k - 1]))) {
          // "别致.3.显示屏超大": the item number starts the next sentence
          mark(r);
        } else if (r < end_ && IsLetter(t_[r])) {
          // "great.love it", "不错.物流很快", "so good...love it"; not "a.php?id=3"
          if ((!single_dot || (DotMayEndSentence(k) && !IsListItemDot(k))) &&
              !IsUrlLike(TokenAround(k)))
            mark(r);
        } else if (dots_only && r + 1 < end_ && t_[r] == ' ' && IsLower(t_[r + 1])) {
          // "works well. love it": UAX #29 never breaks before a lower-case word after '.'
          if (!single_dot || DotMayEndSentence(k)) mark(r + 1);
        }
        k = r;
      } else if (c == '~') {
        // "很好吃~~下次还来": a run of tildes ends a sentence, but "3~5天" is a range.
        size_t r = k;
        while (r < end_ && t_[r] == '~') ++r;
        const bool after_text = k > begin_ && t_[k - 1] != ' ' && !IsDigit(t_[k - 1]);
        size_t next = r;
        while (next < end_ && t_[next] == ' ') ++next;
        if (after_text && next < end_ && !IsDigit(t_[next])) mark(next);
        k = r;
      } else if (c == ';') {
        // "；" (NFKC ';') between CJK clauses ends a sentence.
        size_t prev = k, next = k + 1;
        while (prev > begin_ && t_[prev - 1] == ' ') --prev;
        while (next < end_ && t_[next] == ' ') ++next;
        const bool cjk = (prev > begin_ && IsCjk(t_[prev - 1])) || (next < end_ && IsCjk(t_[next]));
        if (cjk) mark(next);
        ++k;
      } else {
        ++k;
      }
    }
  }

  // True when t[p..] is an item number of an inline Chinese list: 1-2 digits, '.', optional
  // spaces, then a CJK character ("3.显示屏超大" in "别致.3.显示屏超大").
  bool InlineListNumberAt(size_t p) const {
    size_t q = p;
    while (q < end_ && IsDigit(t_[q]) && q - p < 3) ++q;
    if (q == p || q - p > 2 || q >= end_ || t_[q] != '.') return false;
    ++q;
    while (q < end_ && t_[q] == ' ') ++q;
    return q < end_ && IsCjk(t_[q]);
  }

  // True when t[dot] is the '.' of an inline list item's number that starts a sentence: after
  // the text's start, a terminator or ':' ("。2.待机时间长", "优点:1.外观漂亮").
  bool IsListItemDot(size_t dot) const {
    if (t_[dot] != '.') return false;
    size_t item = dot;
    while (item > begin_ && dot - item < 3 && IsDigit(t_[item - 1])) --item;
    if (item == dot) return false;
    // After a terminator that is not a decimal point ("2.0.很好用" is a version).
    const bool starts = item == begin_ || ((IsTerminator(t_[item - 1]) || t_[item - 1] == ':') &&
                                           !(item - 1 > begin_ && IsDigit(t_[item - 2])));
    return starts && InlineListNumberAt(item);
  }

  // True when t[p - 1] is a '.' between a number and "<space><digits> ''" (or ", ″, ”, inch):
  // "a 15. 4 '' screen" is a tokenised 15.4-inch size (common in scraped English reviews), not
  // a sentence ending in "15.".
  bool IsSplitScreenSize(size_t p) const {
    if (p < begin_ + 2 || t_[p - 1] != '.' || !IsDigit(t_[p - 2])) return false;
    size_t q = p;
    if (q >= end_ || t_[q] != ' ') return false;
    ++q;
    const size_t digits = q;
    while (q < end_ && IsDigit(t_[q])) ++q;
    if (q == digits || q - digits > 2) return false;
    while (q < end_ && t_[q] == ' ') ++q;
    if (q >= end_) return false;
    const char32_t m = t_[q];
    if (m == '"' || m == 0x2033 || m == 0x201D) return true;          // " ″ ”
    if (m == '\'' && q + 1 < end_ && t_[q + 1] == '\'') return true;  // ''
    return t_.substr(q, 4) == U"inch";  // not "in": "a 5. 4 in the family use it"
  }

  bool IsUrlLike(std::u32string_view token) const {
    return token.find(U"://") != token.npos || token.find(U"www.") != token.npos ||
           token.find(U"WWW.") != token.npos || token.find(U'@') != token.npos;
  }

  // Removes ICU breaks after titles ("Mr. Smith", "Dr. Jones") and inside URLs and e-mail
  // addresses ("https://example.org/a?b=c").
  void RemoveFalseBreaks(std::vector<char>* is_break) const {
    for (size_t pos = begin_ + 1; pos < end_; ++pos) {
      if (!(*is_break)[pos - begin_]) continue;
      if (t_[pos - 1] != ' ' && t_[pos] != ' ' && IsUrlLike(TokenAround(pos - 1))) {
        (*is_break)[pos - begin_] = 0;
        continue;
      }
      // A terminator run right after an opening quote ("说:“...让我") starts a quotation.
      size_t run = pos;
      while (run > begin_ && (t_[run - 1] == ' ' || IsOpening(t_[run - 1]))) --run;
      const size_t run_end = run;
      while (run > begin_ && IsTerminator(t_[run - 1])) --run;
      if (run < run_end && run > begin_ && IsOpening(t_[run - 1])) {
        (*is_break)[pos - begin_] = 0;
        continue;
      }
      size_t p = pos;
      while (p > begin_ && t_[p - 1] == ' ') --p;
      // No break after the number of an inline list item ("。2.待机时间长", "优点:1.外观漂亮").
      if (p > begin_ && IsListItemDot(p - 1)) {
        (*is_break)[pos - begin_] = 0;
        continue;
      }
      if (IsSplitScreenSize(p)) {
        (*is_break)[pos - begin_] = 0;
        continue;
      }
      if (p > begin_ && t_[p - 1] == '.' && (p < 2 || t_[p - 2] != '.')) {
        const std::u32string_view word = AsciiTail(WordBefore(p - 1));
        static constexpr std::u32string_view kTitles[] = {U"mr", U"mrs", U"ms", U"dr", U"prof",
                                                          U"sr", U"jr",  U"st", U"mt", U"vs"};
        // "vs." compares with whatever follows: "boots vs. $ 125. 00 for junk".
        const bool versus = InList(kVersus, word) && t_[pos] != ' ';
        if ((InList(kTitles, word) && IsLetter(t_[pos])) || versus) (*is_break)[pos - begin_] = 0;
      }
    }
  }

  // Moves each break past the emoji and symbols that follow it, so they stay with the sentence
  // they close. Returns the sorted break positions, including begin and end.
  std::vector<size_t> AttachSymbols(const std::vector<char>& is_break) const {
    std::vector<size_t> breaks{begin_};
    for (size_t pos = begin_ + 1; pos < end_; ++pos) {
      if (!is_break[pos - begin_]) continue;
      size_t p = pos;
      // "读。《少有人走的路》": opening brackets before the break belong to the next sentence.
      while (p > breaks.back() + 1 && (t_[p - 1] == ' ' || IsOpening(t_[p - 1]))) --p;
      if (p < pos && t_[p] != ' ') {
        if (p > breaks.back()) breaks.push_back(p);
        continue;
      }
      p = pos;
      bool attached = false;
      while (p < end_ && (t_[p] == ' ' || IsAttachable(t_[p]))) {
        attached = attached || t_[p] != ' ';
        ++p;
      }
      const size_t at = attached ? p : pos;
      if (at > breaks.back() && at < end_) breaks.push_back(at);
    }
    breaks.push_back(end_);
    return breaks;
  }

 private:
  std::u32string_view t_;
  size_t begin_, end_;
};

struct Span {
  size_t begin, end;  // cleaned positions, [begin, end)
};

// True when a break before cleaned position `pos` would cut through the output of one original
// character (an entity, or an NFKC expansion such as "…" -> "..."), whose offsets cannot be split.
bool InsideOneOriginal(const std::vector<int32_t>& begin, size_t pos) {
  return pos > 0 && pos < begin.size() && begin[pos] == begin[pos - 1];
}

// Splits [a, b) (trimmed) into pieces of at most max_chars code points, preferring clause
// punctuation, then spaces, in the second half of each window. A piece is longer than max_chars
// only when one original character expands beyond it under NFKC (e.g. U+FDFA, 18 code points).
void SplitLong(std::u32string_view t, const std::vector<int32_t>& begin, Span s, size_t max_chars,
               std::vector<Span>* out) {
  size_t a = s.begin;
  while (s.end - a > max_chars) {
    const size_t lo = a + max_chars / 2, hi = a + max_chars;
    size_t cut = 0;
    for (size_t c = hi; c > lo && !cut; --c) {
      const char32_t p = t[c - 1];
      if (p == ',' || p == ';' || p == ':' || p == 0x3001 || p == 0x3002) cut = c;
    }
    for (size_t c = hi; c > lo && !cut; --c) {
      if (t[c] == ' ') cut = c;
    }
    if (!cut) {
      cut = hi;
      while (cut > a + 1 && IsExtend(t[cut])) --cut;
    }
    const size_t wanted = cut;
    while (cut > a + 1 && InsideOneOriginal(begin, cut)) --cut;
    if (InsideOneOriginal(begin, cut)) {
      cut = wanted;
      while (cut < s.end && InsideOneOriginal(begin, cut)) ++cut;
    }
    size_t stop = cut;
    while (stop > a && t[stop - 1] == ' ') --stop;
    if (stop > a) out->push_back({a, stop});
    a = cut;
    while (a < s.end && t[a] == ' ') ++a;
  }
  if (a < s.end) out->push_back({a, s.end});
}

}  // namespace

SentenceSegmenter::SentenceSegmenter(SegmentOptions options)
    : options_(options), breaker_(CloneSentencePrototype()) {
  if (options_.max_chars < 2) options_.max_chars = 2;
}

SentenceSegmenter::~SentenceSegmenter() = default;
SentenceSegmenter::SentenceSegmenter(SentenceSegmenter&&) noexcept = default;
SentenceSegmenter& SentenceSegmenter::operator=(SentenceSegmenter&&) noexcept = default;

std::vector<Sentence> SentenceSegmenter::Split(std::string_view review_text) {
  return Split(CleanWithOffsets(review_text));
}

std::vector<Sentence> SentenceSegmenter::Split(const MappedText& cleaned) {
  std::u32string flattened;
  std::u32string_view t = cleaned.text;
  if (!options_.line_breaks_end_sentences) {
    flattened = cleaned.text;
    std::replace(flattened.begin(), flattened.end(), U'\n', U' ');
    t = flattened;
  }

  // 1. Segments per line: ICU breaks, repaired; content-free segments merged or dropped.
  std::vector<Span> segments;
  // The line in UTF-16 is built in a plain buffer that ICU reads in place: UnicodeString::append
  // per code point was a sixth of an ingest worker's time.
  std::u16string units;
  icu::UnicodeString line;
  std::vector<int32_t> cp_of_unit;  // UTF-16 index in `line` -> code point offset in the line
  for (size_t line_begin = 0; line_begin < t.size();) {
    size_t line_end = t.find(U'\n', line_begin);
    if (line_end == std::u32string_view::npos) line_end = t.size();

    units.clear();
    cp_of_unit.clear();
    for (size_t i = line_begin; i < line_end; ++i) {
      const char32_t c = t[i];
      // As UnicodeString::append(UChar32): one unit up to U+FFFF, a surrogate pair up to
      // U+10FFFF, nothing for a value beyond.
      if (c <= 0xFFFF) {
        units += static_cast<char16_t>(c);
      } else if (c <= 0x10FFFF) {
        units += static_cast<char16_t>(0xD7C0 + (c >> 10));
        units += static_cast<char16_t>(0xDC00 | (c & 0x3FF));
      }
      cp_of_unit.push_back(static_cast<int32_t>(i - line_begin));
      if (c > 0xFFFF) cp_of_unit.push_back(static_cast<int32_t>(i - line_begin));
    }
    cp_of_unit.push_back(static_cast<int32_t>(line_end - line_begin));
    line.setTo(false, units.data(), static_cast<int32_t>(units.size()));  // read-only alias

    std::vector<char> is_break(line_end - line_begin + 1, 0);
    breaker_->setText(line);
    for (int32_t u = breaker_->first(); u != icu::BreakIterator::DONE; u = breaker_->next()) {
      is_break[static_cast<size_t>(cp_of_unit[static_cast<size_t>(u)])] = 1;
    }
    LineSplitter splitter(t, line_begin, line_end);
    splitter.RemoveFalseBreaks(&is_break);
    splitter.AddRepairs(&is_break);
    std::vector<size_t> breaks = splitter.AttachSymbols(is_break);
    for (size_t i = 0; i < breaks.size(); ++i) {
      while (breaks[i] < line_end && InsideOneOriginal(cleaned.begin, breaks[i])) ++breaks[i];
      if (i > 0) breaks[i] = std::max(breaks[i], breaks[i - 1]);  // keep them sorted
    }

    const size_t first_of_line = segments.size();
    for (size_t b = 0; b + 1 < breaks.size(); ++b) {
      size_t a = breaks[b], e = breaks[b + 1];
      while (a < e && t[a] == ' ') ++a;
      while (e > a && t[e - 1] == ' ') --e;
      if (a == e) continue;
      if (std::any_of(t.begin() + a, t.begin() + e, HasContent)) {
        segments.push_back({a, e});
      } else if (segments.size() > first_of_line) {
        segments.back().end = e;  // "!!!", "😀😀", "..." stay with the sentence before
      }
    }
    line_begin = line_end + 1;
  }

  // 2. Length limits, then Sentence values with original offsets.
  std::vector<Span> pieces;
  for (const Span& s : segments) SplitLong(t, cleaned.begin, s, options_.max_chars, &pieces);

  std::vector<Sentence> sentences;
  sentences.reserve(pieces.size());
  for (const Span& p : pieces) {
    if (p.end - p.begin < options_.min_chars) continue;
    if (!std::any_of(t.begin() + p.begin, t.begin() + p.end, HasContent)) continue;
    Sentence s;
    s.index = static_cast<int32_t>(sentences.size());
    s.begin = cleaned.begin[p.begin];
    s.end = cleaned.end[p.end - 1];
    s.text = text_internal::EncodeUtf8(t.substr(p.begin, p.end - p.begin));
    sentences.push_back(std::move(s));
  }
  return sentences;
}

}  // namespace revsum
