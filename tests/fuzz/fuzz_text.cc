// Fuzzes the text stage (revsum/text.h) with arbitrary bytes: CleanWithOffsets, CleanText,
// SentenceSegmenter::Split (both overloads), WordSegmenter and CjkFraction.
//
// Input layout: byte 0 selects the SegmentOptions (max_chars, min_chars, line breaks); the rest
// is the review text (any bytes; invalid UTF-8 counts one code point per maximal ill-formed
// subpart). Checked, as text.h documents:
//   - MappedText: one span per cleaned code point, 0 <= begin <= end <= code points of the input,
//     begin and end non-decreasing; no leading/trailing whitespace, no whitespace runs, no
//     control characters other than '\n';
//   - CleanText == the cleaned text with '\n' as ' ';
//   - sentences: index 0, 1, 2, ...; non-empty text without outer spaces; begin < end, in range,
//     not overlapping and in order; CleanText(original span) == text; at most max_chars code
//     points unless one original character alone expands beyond max_chars;
//     Split(text) == Split(CleanWithOffsets(text));
//   - words: non-empty valid UTF-8; CjkFraction in [0, 1].
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "revsum/text.h"

namespace {

using revsum::fuzz::CodePointStarts;
using revsum::fuzz::EncodeUtf8;
using revsum::fuzz::Escape;
using revsum::fuzz::IsValidUtf8;

bool IsSpace(char32_t c) { return c == ' ' || c == '\n'; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static constexpr size_t kMaxChars[] = {2000, 40, 12, 3, 2, 1, 7, 80};
  revsum::SegmentOptions options;
  options.max_chars = kMaxChars[data[0] & 7];
  options.min_chars = (data[0] & 8) ? 4 : 1;
  options.line_breaks_end_sentences = (data[0] & 16) == 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string shown = "input '" + Escape(text) + "'";

  const std::vector<size_t> starts = CodePointStarts(text);
  const auto length = static_cast<int32_t>(starts.size() - 1);
  auto substr = [&](int32_t begin, int32_t end) {
    return text.substr(starts[begin], starts[end] - starts[begin]);
  };

  // --- cleaning -------------------------------------------------------------------------------
  const revsum::MappedText cleaned = revsum::CleanWithOffsets(text);
  FUZZ_CHECK(
      cleaned.begin.size() == cleaned.text.size() && cleaned.end.size() == cleaned.text.size(),
      "MappedText sizes differ: " + shown);
  size_t longest_expansion = 0;  // cleaned code points sharing one original span
  for (size_t i = 0, run = 0; i < cleaned.text.size(); ++i) {
    const char32_t c = cleaned.text[i];
    const std::string at = " at cleaned " + std::to_string(i) + ": " + shown;
    FUZZ_CHECK(
        0 <= cleaned.begin[i] && cleaned.begin[i] <= cleaned.end[i] && cleaned.end[i] <= length,
        "span out of range" + at);
    if (i > 0) {
      FUZZ_CHECK(cleaned.begin[i - 1] <= cleaned.begin[i] && cleaned.end[i - 1] <= cleaned.end[i],
                 "spans decrease" + at);
      FUZZ_CHECK(!(IsSpace(c) && IsSpace(cleaned.text[i - 1])), "whitespace run kept" + at);
    }
    FUZZ_CHECK(c != '\t' && c != '\r' && (c >= 0x20 || c == '\n') && !(c >= 0x7F && c < 0xA0),
               "control character kept" + at);
    FUZZ_CHECK(c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF), "not a scalar value" + at);
    const bool same_span =
        i > 0 && cleaned.begin[i] == cleaned.begin[i - 1] && cleaned.end[i] == cleaned.end[i - 1];
    run = same_span ? run + 1 : 1;
    longest_expansion = std::max(longest_expansion, run);
  }
  if (!cleaned.text.empty()) {
    FUZZ_CHECK(!IsSpace(cleaned.text.front()) && !IsSpace(cleaned.text.back()),
               "cleaned text has outer whitespace: " + shown);
  }
  std::u32string one_line = cleaned.text;
  std::replace(one_line.begin(), one_line.end(), U'\n', U' ');
  const std::string clean_text = revsum::CleanText(text);
  FUZZ_CHECK(clean_text == EncodeUtf8(one_line),
             "CleanText '" + Escape(clean_text) + "' differs from CleanWithOffsets: " + shown);
  FUZZ_CHECK(IsValidUtf8(clean_text), "CleanText is not valid UTF-8: " + shown);

  // --- sentences ------------------------------------------------------------------------------
  revsum::SentenceSegmenter segmenter(options);
  const std::vector<revsum::Sentence> sentences = segmenter.Split(text);
  const size_t max_chars = std::max<size_t>(options.max_chars, 2);
  int32_t previous_end = 0;
  for (size_t i = 0; i < sentences.size(); ++i) {
    const revsum::Sentence& s = sentences[i];
    const std::string at = " in sentence " + std::to_string(i) + " [" + std::to_string(s.begin) +
                           ", " + std::to_string(s.end) + ") '" + Escape(s.text) + "' of " + shown;
    FUZZ_CHECK(s.index == static_cast<int32_t>(i), "index out of sequence" + at);
    FUZZ_CHECK(!s.text.empty(), "empty sentence" + at);
    FUZZ_CHECK(s.text.front() != ' ' && s.text.back() != ' ', "outer space" + at);
    FUZZ_CHECK(IsValidUtf8(s.text), "sentence text is not valid UTF-8" + at);
    FUZZ_CHECK(previous_end <= s.begin && s.begin < s.end && s.end <= length,
               "offsets out of order or range" + at);
    const std::string span_clean = revsum::CleanText(substr(s.begin, s.end));
    FUZZ_CHECK(span_clean == s.text,
               "CleanText(original span) = '" + Escape(span_clean) + "'" + at);
    const size_t chars = CodePointStarts(s.text).size() - 1;
    FUZZ_CHECK(chars >= options.min_chars, "shorter than min_chars" + at);
    FUZZ_CHECK(chars <= max_chars || longest_expansion > max_chars,
               "longer than max_chars " + std::to_string(max_chars) + at);
    previous_end = s.end;
  }
  const std::vector<revsum::Sentence> from_cleaned = segmenter.Split(cleaned);
  FUZZ_CHECK(from_cleaned.size() == sentences.size(),
             "Split(MappedText) gives " + std::to_string(from_cleaned.size()) +
                 " sentences, Split(text) " + std::to_string(sentences.size()) + ": " + shown);
  for (size_t i = 0; i < sentences.size(); ++i) {
    const revsum::Sentence& a = sentences[i];
    const revsum::Sentence& b = from_cleaned[i];
    FUZZ_CHECK(a.index == b.index && a.begin == b.begin && a.end == b.end && a.text == b.text,
               "Split(MappedText) differs at sentence " + std::to_string(i) + ": " + shown);
  }

  // --- words ----------------------------------------------------------------------------------
  revsum::WordSegmenter words;
  for (const std::string& word : words.Words(text)) {
    FUZZ_CHECK(!word.empty(), "empty word: " + shown);
    FUZZ_CHECK(IsValidUtf8(word), "word '" + Escape(word) + "' is not valid UTF-8: " + shown);
  }
  (void)words.CountWords(text);
  const double cjk = revsum::CjkFraction(text);
  FUZZ_CHECK(cjk >= 0 && cjk <= 1, "CjkFraction out of [0, 1]: " + shown);
  return 0;
}
