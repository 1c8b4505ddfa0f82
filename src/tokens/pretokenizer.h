// Pre-tokenization: splitting text into the pieces that BPE encodes one by one, with the regex of
// a tiktoken encoding. Internal to the tokens stage.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace revsum::tokens_internal {

// The pre-tokenization patterns revsum implements, exactly as js-tiktoken ships them.
inline constexpr std::string_view kO200kPattern =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
inline constexpr std::string_view kCl100kPattern =
    R"(('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// Translates a js-tiktoken pattern (JavaScript RegExp syntax, 'u' flag) into ICU regex syntax.
// Both are backtracking, leftmost-first engines with the same \p{..} classes; they differ in \s:
// JavaScript's \s is [\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]
// (it has U+FEFF, lacks U+0085), ICU's is Unicode White_Space. \s and \S are therefore spelled out
// as explicit sets. Returns false and sets *error for a construct this translation does not
// handle (\S inside a character class).
bool JsPatternToIcu(std::string_view js_pattern, std::string* icu_pattern, std::string* error);

// Splits text into pieces with one compiled pattern. Immutable; Split may be called from many
// threads at once (each thread compiles and keeps its own ICU matcher).
//
// Two engines: ICU's RegexMatcher on the translated pattern (any pattern), and a hand-written
// matcher for exactly kO200kPattern and kCl100kPattern, which walks the UTF-8 once and follows
// the regex's backtracking order alternative by alternative; it classifies characters with the
// same ICU property data (u_charType), so the two agree — tests/tokens/pretokenizer_test.cc
// compares them on the parity corpus and on random strings of every character class.
class Pretokenizer {
 public:
  enum class Engine {
    kFastest,  // the hand-written matcher for the two known patterns, ICU otherwise
    kIcu,      // always ICU's regex engine (the reference)
  };
  // Compiles `js_pattern` (after JsPatternToIcu). Returns nullptr and sets *error on failure.
  static std::unique_ptr<Pretokenizer> Create(std::string_view js_pattern, std::string* error,
                                              Engine engine = Engine::kFastest);

  // Appends to *pieces the pieces of `text`, in order; they cover `text` exactly, end to end
  // (the patterns of tiktoken's encodings match every character). Valid UTF-8 runs are matched
  // with the pattern; each byte that does not begin a well-formed UTF-8 sequence is a piece of
  // its own. The views point into `text`.
  void Split(std::string_view text, std::vector<std::string_view>* pieces) const;

 private:
  enum class Fast { kNone, kO200k, kCl100k };
  Pretokenizer(std::string icu_pattern, uint64_t id, Fast fast)
      : icu_pattern_(std::move(icu_pattern)), id_(id), fast_(fast) {}
  void SplitWithIcu(std::string_view text, std::vector<std::string_view>* pieces) const;
  void SplitFast(std::string_view text, std::vector<std::string_view>* pieces) const;

  std::string icu_pattern_;
  uint64_t id_;  // unique per instance, keys the per-thread matcher cache
  Fast fast_;
};

}  // namespace revsum::tokens_internal
