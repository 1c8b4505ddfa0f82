// Pre-tokenization: splitting text into the pieces that BPE encodes one by one, with the regex of
// a tiktoken encoding. Internal to the tokens stage.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace revsum::tokens_internal {

// Translates a js-tiktoken pattern (JavaScript RegExp syntax, 'u' flag) into ICU regex syntax.
// Both are backtracking, leftmost-first engines with the same \p{..} classes; they differ in \s:
// JavaScript's \s is [\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]
// (it has U+FEFF, lacks U+0085), ICU's is Unicode White_Space. \s and \S are therefore spelled out
// as explicit sets. Returns false and sets *error for a construct this translation does not
// handle (\S inside a character class).
bool JsPatternToIcu(std::string_view js_pattern, std::string* icu_pattern, std::string* error);

// Splits text into pieces with one compiled pattern. Immutable; Split may be called from many
// threads at once (each thread compiles and keeps its own ICU matcher).
class Pretokenizer {
 public:
  // Compiles `js_pattern` (after JsPatternToIcu). Returns nullptr and sets *error on failure.
  static std::unique_ptr<Pretokenizer> Create(std::string_view js_pattern, std::string* error);

  // Appends to *pieces the pieces of `text`, in order; they cover `text` exactly, end to end
  // (the patterns of tiktoken's encodings match every character). Valid UTF-8 runs are matched
  // with the pattern; each byte that does not begin a well-formed UTF-8 sequence is a piece of
  // its own. The views point into `text`.
  void Split(std::string_view text, std::vector<std::string_view>* pieces) const;

 private:
  Pretokenizer(std::string icu_pattern, uint64_t id)
      : icu_pattern_(std::move(icu_pattern)), id_(id) {}
  std::string icu_pattern_;
  uint64_t id_;  // unique per instance, keys the per-thread matcher cache
};

}  // namespace revsum::tokens_internal
