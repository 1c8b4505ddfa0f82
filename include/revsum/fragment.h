// The fragment rule: whether a sentence can stand alone as a point of a summary (docs/design.md,
// "Points": "a point must make sense alone"). Extractive summaries of reviews otherwise pick
// sentences such as "其次,书的内容。", "我相信会的。", "住了两天.", "所以打1分。", "@冠益乳" or
// "特仑苏</Feature" (issue 8).
//
// The rule, applied to one sentence (cleaned text, as SentenceSegmenter emits it), in this order;
// the first that applies is the reason:
//   1. kNoise: a URL ("http", "www.", "t.cn/", ...), an @mention (an '@' followed by a letter,
//      digit or ideograph), or markup / entity left-overs ("</", "/>", "&quot;", "&#", ...): the
//      [noise] substrings of the lexicon.
//   2. kTooShort: fewer than 3 content units, where a unit is one CJK character (IsCjk) or one
//      whitespace token of other letters or digits ("很好", "Great product!").
//   3. kFiller: the whole sentence, without punctuation, spaces and symbols and lower-cased, is a
//      [filler] entry: a bare interjection or a reply that says nothing alone ("我相信会的", "wow",
//      "ok", "哈哈").
//   4. kBareRating: after an optional [lead] connective and [rating_verb]s, a number (digits or
//      Chinese numerals) and a [rating_unit] with at most 2 more content units: "所以打1分",
//      "给五星", "5 stars", "I give it 5 stars"; also "N/5" and "N/10" alone.
//   5. kDependent: starts with a [back_reference] phrase followed by punctuation or the end of
//      the sentence, whatever its length and words: it points at the sentence before ("Not only
//      that, but the sole came off", "Other than that.", "除此之外，"; not "Other than that one
//      scuff, ..."); or starts with a [lead] connective ("其次", "所以", "但是", "also", "but",
//      "so") and has fewer than 12 units; or starts with an [anaphor] ("it was", "this is",
//      "这一点") and has fewer than 7 units — both only, for a sentence without CJK characters,
//      when it has no [evaluative] word: "But the food was good." and "It is very durable." carry a
//      verdict on their own (dropping them cost 0.65 ROUGE-1 on Opinosis dev, measured with
//      bench/fragments.sh), "Then it wouldn't shut off." does not; or starts with a
//      [subordinate] conjunction ("because", "although"), has fewer than 12 units and no comma
//      (a subordinate clause without its main clause); or starts with the particle "的" (not
//      "的确"): the tail of a cut sentence; or ends with ',', '、' or ':' (the head of one).
//   6. kNarration: a time clause without its main clause: ends (before punctuation) with a
//      [clause_end] entry ("时", "的时候") but not with a longer [not_clause_end] entry ("及时",
//      "小时"): "办入住手续时。"; or a bare duration: an optional [duration_verb] ("住", "用"),
//      an optional "了", a number, a [duration_unit] ("天", "晚", "个月"), at most "多"/"了":
//      "住了两天.", "用了十几天了。".
//   7. kNone: the sentence can stand alone.
// Apart from the rule, the [reply] section lists the markers of a merchant's reply appended to a
// review (StartsReply): summaries and points read only the sentences before it.
// English entries match whole words at the start (case-insensitive); Chinese entries match
// characters. The rule is a filter for short, context-bound sentences; a long sentence is never a
// fragment for a [lead] or [anaphor] word (reviews start many complete sentences with "But" or
// "It was"), only for a [back_reference] phrase.
//
// Lexicon file format (models/fragments/en.txt and zh.txt, UTF-8): '#' starts a comment line,
// "[section]" starts a section (the names above), every other non-blank line is one entry, its
// surrounding spaces trimmed. Several files can be merged into one lexicon.
//
// Thread-safety: a FragmentRule is immutable after construction; Classify is thread-safe.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace revsum {

enum class FragmentReason {
  kNone = 0,    // stands alone
  kNoise,       // URL, @mention, markup or entity left-over
  kTooShort,    // fewer than 3 content units
  kFiller,      // bare interjection or filler
  kBareRating,  // a rating without a reason ("所以打1分", "5 stars")
  kDependent,   // needs the previous (or next) sentence
  kNarration,   // time clause or bare duration ("办入住手续时", "住了两天")
};

// "none", "noise", "too_short", "filler", "bare_rating", "dependent", "narration".
std::string_view FragmentReasonName(FragmentReason reason);

// The word lists of the rule; each entry lower-case (ASCII) or Chinese.
struct FragmentLexicon {
  std::vector<std::string> noise;           // substrings, e.g. "http", "&quot;"
  std::vector<std::string> filler;          // whole sentences, e.g. "我相信会的", "wow"
  std::vector<std::string> lead;            // connectives, e.g. "其次", "but"
  std::vector<std::string> back_reference;  // e.g. "not only that", "除此之外"
  std::vector<std::string> anaphor;         // e.g. "it was", "这一点"
  std::vector<std::string> subordinate;     // e.g. "because", "although"
  std::vector<std::string> evaluative;      // English verdict words, e.g. "good", "broke"
  std::vector<std::string> rating_verb;     // e.g. "打", "给", "i give it"
  std::vector<std::string> rating_unit;     // e.g. "分", "星", "stars"
  std::vector<std::string> clause_end;      // e.g. "时", "的时候"
  std::vector<std::string> not_clause_end;  // longer endings that are not clauses: "及时", "小时"
  std::vector<std::string> duration_verb;  // e.g. "住", "用"
  std::vector<std::string> duration_unit;  // e.g. "天", "晚", "个月"
  std::vector<std::string> reply;          // where a merchant's reply starts, e.g. "宾馆反馈"
};

// Parses lexicon text into `lexicon` (appending). `source` names the text in errors. Throws
// std::runtime_error "<source>:<line>: <problem>" on an unknown section or an entry before any
// section.
void ParseFragmentLexicon(std::string_view text, std::string_view source, FragmentLexicon* lexicon);

// Reads and parses each file into one lexicon. Throws ModelsError naming a file that cannot
// be read.
FragmentLexicon LoadFragmentLexicon(const std::vector<std::filesystem::path>& files);

class FragmentRule {
 public:
  explicit FragmentRule(FragmentLexicon lexicon);

  // Why `sentence` cannot stand alone, or kNone. Never throws; invalid UTF-8 reads as U+FFFD.
  FragmentReason Classify(std::string_view sentence) const;

  bool IsFragment(std::string_view sentence) const {
    return Classify(sentence) != FragmentReason::kNone;
  }

  // Whether `sentence` holds a [reply] marker (ASCII letters compared case-insensitively)
  // followed, after spaces, by a digit or a colon: the header of a merchant's answer appended to
  // a review ("宾馆反馈 2008年7月2日 : 您好!", the shopping dump's hotel replies; not
  // "宾馆反馈很及时"). That sentence and every later one of the review are the merchant's words,
  // not the reviewer's (ReviewerSentenceCount); reviewer words before the marker in the same
  // sentence go with it.
  bool StartsReply(std::string_view sentence) const;

  // How many of a review's sentences, in order, come before the first that StartsReply: the
  // reviewer's own (all of them when there is no reply).
  template <typename Sentences, typename Text>
  size_t ReviewerSentenceCount(const Sentences& sentences, Text text_of) const {
    size_t n = 0;
    for (const auto& s : sentences) {
      if (StartsReply(text_of(s))) break;
      ++n;
    }
    return n;
  }

  const FragmentLexicon& lexicon() const { return lexicon_; }

  struct Compiled;  // the lexicon, normalised for matching (fragment.cc)

 private:
  FragmentLexicon lexicon_;
  std::shared_ptr<const Compiled> compiled_;
};

}  // namespace revsum
