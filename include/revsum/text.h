// The text stage: cleaning and segmentation of review text with ICU.
//
//   Review::text ──CleanWithOffsets──▶ MappedText ──SentenceSegmenter──▶ Sentence[]
//                                                   WordSegmenter ─────▶ words, word counts
//
// Cleaning is, in this order: HTML markup removed — every start/end tag of any element name,
// comments, doctypes, CDATA sections and processing instructions; block tags such as <br>, <p>,
// <div>, <li> become line breaks; the content of <script>, <style>, <template>, <noscript>,
// <iframe>, ... is dropped too; "I <3 it" and "5 < 6 and 7 > 3" are text, not tags —, HTML entities
// decoded (&quot; &amp; &#39; &#x27; &nbsp; ...), NFKC normalisation (ICU Normalizer2; full-width
// forms become ASCII, so `！？，；～` become `!?,;~`), markup that decoding or NFKC made
// ("&lt;img onerror=x&gt;", full-width brackets, "<<b>img ...>") removed in the same way (after a
// few passes, a '<' that still starts markup becomes U+FFFD: cleaned text never holds a tag),
// control and format characters dropped
// (except ZWJ and emoji tag characters), and whitespace collapsed (a run containing a line break
// becomes one '\n', any other run one ' ').
//
// Every cleaned code point remembers the span of ORIGINAL code points it came from, so sentences
// carry offsets into Review::text (see revsum::Sentence).
//
// Input is UTF-8. Invalid UTF-8 never crashes: each maximal invalid subsequence is read as one
// U+FFFD, and counts as one code point for offsets. (Review::text is valid UTF-8, so offsets into
// reviews read by revsum are exact.)
//
// Thread-safety: the free functions are thread-safe. SentenceSegmenter and WordSegmenter hold ICU
// BreakIterator state and are NOT thread-safe; use one per thread. They are cheap to construct
// (each clones a prototype iterator built once per process).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <unicode/uversion.h>  // the versioned ICU namespace, for the forward declaration

#include "revsum/error.h"
#include "revsum/review.h"

U_NAMESPACE_BEGIN
class BreakIterator;
U_NAMESPACE_END

namespace revsum {

// The text stage cannot work: ICU's break iterators or normalisation data are missing or fail, or
// a fragment lexicon (fragment.h) is malformed; what() says which (a lexicon: file:line: problem).
class TextError : public Error {
 public:
  using Error::Error;
};

// ---------------------------------------------------------------------------------------------
// Cleaning

// Cleaned text with a map back to the original. For every i < text.size(), the cleaned code point
// text[i] was produced from original code points [begin[i], end[i]). The spans are non-decreasing:
// begin[i] <= begin[i+1] and end[i] <= end[i+1]. Several cleaned code points may share one span
// (an entity, or NFKC expanding "…" into "..."), and a span may cover characters that produced
// nothing (a removed tag before a kept character is not part of any span).
struct MappedText {
  std::u32string text;         // cleaned code points; '\n' marks a hard line break
  std::vector<int32_t> begin;  // first original code point of text[i], inclusive
  std::vector<int32_t> end;    // one past the last original code point of text[i]
};

// Cleans `original` and keeps the offset map. Leading and trailing whitespace is dropped; inside,
// whitespace runs are collapsed to one ' ' or, if the run contains a line break (newline, CR,
// U+2028/2029, or a block HTML tag), to one '\n'.
MappedText CleanWithOffsets(std::string_view original);

// The cleaned text as UTF-8, with line breaks also collapsed to ' ' (so the result is one line).
// Equivalent to CleanWithOffsets(original).text with '\n' replaced by ' ', encoded as UTF-8.
std::string CleanText(std::string_view original);

// ---------------------------------------------------------------------------------------------
// Sentence segmentation

struct SegmentOptions {
  // Sentences with fewer cleaned code points than this are dropped. 1 keeps everything that has
  // at least one letter, digit or ideograph (segments without any are never kept on their own).
  size_t min_chars = 1;

  // Sentences longer than this (cleaned code points) are split: at the last ',', ';', ':', '、' in
  // the second half of the window, else at the last space there, else hard at max_chars. A cut
  // never separates code points that came from one original character (an entity, or an NFKC
  // expansion such as "…" -> "..."), so a piece exceeds max_chars only if one original character
  // alone expands beyond it (U+FDFA becomes 18 code points). Values below 2 are read as 2.
  size_t max_chars = 2000;

  // Newlines (and <br>, <p>, ... tags) end sentences. When false they are read as spaces.
  bool line_breaks_end_sentences = true;
};

// Splits review text into sentences: ICU's sentence BreakIterator (root locale, whose UAX #29
// rules also end sentences at `。！？`; not "en@ss=standard", whose abbreviation list keeps
// "It is OK. Not bad." together), plus repairs for review noise:
//   - a missing space after . ! ? before a letter or ideograph splits ("great.love it"), but not
//     after a single letter ("e.g.", "U.S."), a title ("Mr.", "Dr."), inside URLs, e-mail
//     addresses or domain names ("amazon.com"), nor between digits ("3.5");
//   - '.' or "..." followed by a space and a lower-case word splits ("works. love it"), with the
//     same exceptions; ICU alone keeps those together;
//   - runs of terminators ("!!!", "?!", "...", "。。。") stay attached to their sentence;
//   - an ASCII '.' between CJK characters ends a sentence ("东西不错.物流很快");
//   - runs of '~' (and full-width '～') end a sentence unless between digits ("3~5天");
//   - ';' (and '；') ends a sentence when next to CJK text;
//   - emoji and other symbols after a sentence end stay with that sentence; opening brackets and
//     quotes before a break go with the next one ("读。《少有人走的路》这本书");
//   - a terminator run right after an opening quote ("“...让我") does not end a sentence;
//   - a title or initialism glued to CJK text is not a sentence end when a Latin letter follows
//     directly: "行李员MR.KEN很热情" (the ASCII tail "MR" is looked up, or any upper-case run of at
//     most 3 letters before '.' + upper-case letter);
//   - "vs." does not end a sentence, whatever follows ("boots vs. $ 125. 00");
//   - the number of an inline Chinese list item (1-2 digits and '.' before CJK text, after a
//     sentence end, ':' or the text's start) starts the item's sentence: "别致.3.显示屏超大" ->
//     "别致." + "3.显示屏超大", not "别致.3." + "显示屏超大"; decimals ("3.5元") and versions
//     ("2.0.很好用") are not items;
//   - a number, '.', a space, 1-2 digits and an inch mark ('', ", ″, ”, "inch") is one size, not a
//     sentence end: "I have a 15. 4 '' screen";
//   - no break inside a URL or e-mail address ("https://x.org/a?b=c");
//   - segments without any letter, digit or ideograph are merged into the preceding sentence of
//     the same line, or dropped when there is none.
// Sentence::text is the cleaned text of the span; Sentence::begin/end are code point offsets into
// `review_text`, so CleanText(substr(review_text, begin, end - begin)) == Sentence::text.
//
// Not thread-safe: one instance per thread.
class SentenceSegmenter {
 public:
  explicit SentenceSegmenter(SegmentOptions options = {});
  ~SentenceSegmenter();
  SentenceSegmenter(SentenceSegmenter&&) noexcept;
  SentenceSegmenter& operator=(SentenceSegmenter&&) noexcept;
  SentenceSegmenter(const SentenceSegmenter&) = delete;
  SentenceSegmenter& operator=(const SentenceSegmenter&) = delete;

  // Sentences of `review_text` in order, with index 0, 1, 2, ...; empty for empty input or input
  // without any letter, digit or ideograph.
  std::vector<Sentence> Split(std::string_view review_text);

  // The same for text already cleaned with CleanWithOffsets (offsets are taken from `cleaned`).
  std::vector<Sentence> Split(const MappedText& cleaned);

  const SegmentOptions& options() const { return options_; }

 private:
  SegmentOptions options_;
  std::unique_ptr<icu::BreakIterator> breaker_;
};

// ---------------------------------------------------------------------------------------------
// Word segmentation

// Words with ICU's word BreakIterator (root locale; Chinese and Japanese through ICU's dictionary).
// Not thread-safe: one instance per thread.
class WordSegmenter {
 public:
  WordSegmenter();
  ~WordSegmenter();
  WordSegmenter(WordSegmenter&&) noexcept;
  WordSegmenter& operator=(WordSegmenter&&) noexcept;
  WordSegmenter(const WordSegmenter&) = delete;
  WordSegmenter& operator=(const WordSegmenter&) = delete;

  // The word tokens of `text` in order: ICU words whose rule status is number, letter, kana or
  // ideograph (punctuation, spaces and emoji are skipped), after NFKC_Casefold (so "Ｇｒｅａｔ" and
  // "GREAT" give "great"). Chinese is split into dictionary words ("物流很快" -> 物流, 很快).
  // Pure ASCII text takes a scanner of ICU's rules for ASCII (the same words, without ICU's
  // normalisation and break iterator); any other text goes through ICU.
  std::vector<std::string> Words(std::string_view text);

  // Words through ICU whatever the text: the reference the ASCII scanner is tested against.
  std::vector<std::string> IcuWords(std::string_view text);

  // The number of words used for budgets. Whitespace-separated tokens that contain at least one
  // letter or digit count 1 each, as ROUGE and most word budgets count English ("don't", "3.5"
  // and "e-mail" are one word; "!!!" and "-" are none). A token that contains CJK characters
  // counts its ICU words instead (Words(token).size()), since Chinese has no spaces.
  // Pure ASCII text is counted without decoding it (the same count).
  size_t CountWords(std::string_view text);

  // CountWords through ICU's character properties whatever the text: the reference the ASCII
  // count is tested against.
  size_t UnicodeCountWords(std::string_view text);

 private:
  std::unique_ptr<icu::BreakIterator> breaker_;
};

// ---------------------------------------------------------------------------------------------
// Scripts

// True for Han ideographs, kana, hangul and bopomofo (letters of CJK scripts). CJK punctuation
// such as '。' is not: it is Common script.
bool IsCjk(char32_t c);

// The fraction of letters, digits and ideographs of `text` that are CJK (IsCjk), in [0, 1];
// 0 when there are none. Used to choose an embedder per scope.
double CjkFraction(std::string_view text);

}  // namespace revsum
