// LLM token counting: a byte-level BPE tokenizer compatible with OpenAI's tiktoken encodings
// o200k_base (GPT-4o family) and cl100k_base (GPT-4, GPT-3.5), used for token budgets.
//
// Compatibility contract: for valid UTF-8 text, TokenCounter::Encode returns exactly the ids of
// js-tiktoken (the npm package version pinned in models/tiktoken.manifest)
//     getEncoding(name).encode(text, [], [])
// i.e. tiktoken's encode_ordinary. tests/tokens/ checks this on tests/data/tokens/parity.jsonl
// (texts in many scripts, emoji, code, URLs, whitespace runs; made by scripts/make-token-fixtures).
//
// Special tokens ("<|endoftext|>", "<|endofprompt|>", ...): js-tiktoken's plain encode(text)
// throws when the text contains one. Review text is data, never control input, so revsum does not
// throw: Encode treats such text as ordinary characters (encode_ordinary), which is also what a
// budget should count when the text is pasted into a prompt. EncodeWithSpecialTokens is the
// opt-in equivalent of encode(text, "all"), mapping each special-token text to its single id.
//
// Invalid UTF-8: tiktoken only ever sees valid UTF-8. Here every byte that does not start a
// well-formed UTF-8 sequence (Unicode 15, table 3-7) becomes a piece of its own, encoded as its
// single-byte token; the valid runs between such bytes are pre-tokenized independently. So
// arbitrary bytes never crash the tokenizer and Decode(Encode(x)) == x for every byte string x.
//
// Known, documented divergences from js-tiktoken (outside the contract above): characters that
// Unicode assigned after version 15.0 (ICU 72 here; Node 20's ICU knows later versions) may be
// classified differently by \p{L}/\p{N}, so their pieces may split differently.
//
// Data: <models>/tiktoken/<encoding>.tiktoken, made by scripts/fetch-tiktoken (run by
// scripts/setup) and verified against the sha256 in <models>/tiktoken.manifest (falling back to
// the manifest in the source tree). <models> is $REVSUM_MODELS_DIR when set, else
// <source>/models.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace revsum {

enum class Encoding {
  kO200kBase,   // "o200k_base": GPT-4o, GPT-4o mini, o1, o3
  kCl100kBase,  // "cl100k_base": GPT-4, GPT-3.5 turbo, text-embedding-3
};

// "o200k_base" or "cl100k_base".
std::string_view EncodingName(Encoding encoding);

// Parses an encoding name as EncodingName spells it. Returns false for any other name.
bool ParseEncoding(std::string_view name, Encoding* encoding);

// $REVSUM_MODELS_DIR when set and non-empty, else <source>/models.
std::filesystem::path DefaultModelsDir();

// A loaded tiktoken encoding. Immutable once loaded: every const method may be called from many
// threads at once (each thread keeps its own regex matcher and scratch buffers).
class TokenCounter {
 public:
  // Loads <models_dir>/tiktoken/<encoding>.tiktoken after checking its sha256 against the
  // manifest. On failure returns nullptr and sets *error to a message that names the file, the
  // line or the mismatch, and what to run (scripts/fetch-tiktoken or scripts/setup).
  // REQUIRES: error != nullptr.
  static std::unique_ptr<TokenCounter> Load(Encoding encoding,
                                            const std::filesystem::path& models_dir,
                                            std::string* error);
  // Same, from DefaultModelsDir().
  static std::unique_ptr<TokenCounter> Load(Encoding encoding, std::string* error);

  ~TokenCounter();
  TokenCounter(const TokenCounter&) = delete;
  TokenCounter& operator=(const TokenCounter&) = delete;

  // The token ids of `text` (any bytes; see the contract above). Special-token texts are
  // encoded as ordinary text. REQUIRES: text.size() < 4 GiB (offsets are 32-bit).
  std::vector<uint32_t> Encode(std::string_view text) const;
  // Appends the ids of `text` to *ids. REQUIRES: ids != nullptr.
  void Encode(std::string_view text, std::vector<uint32_t>* ids) const;

  // Encode(text).size(), without building the id list for the caller.
  size_t Count(std::string_view text) const;

  // Like Encode, but each occurrence of a special-token text (leftmost first) becomes that
  // special token's id, as js-tiktoken's encode(text, "all") does.
  std::vector<uint32_t> EncodeWithSpecialTokens(std::string_view text) const;

  // Concatenates the bytes of `ids` (ordinary and special) into *bytes (replacing its content).
  // Returns false, leaving *bytes unspecified, when an id is neither. The result is the original
  // bytes for ids from Encode, which need not be valid UTF-8 for a prefix of a token list.
  bool Decode(std::span<const uint32_t> ids, std::string* bytes) const;

  Encoding encoding() const;
  // Number of ordinary (BPE) tokens; their ids are 0..vocab_size()-1.
  size_t vocab_size() const;
  // The version of js-tiktoken the vocabulary came from, as recorded in the file.
  const std::string& source_version() const;

 private:
  struct Rep;
  explicit TokenCounter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// Decodes one JSON string literal (RFC 8259) that makes up all of `json` apart from surrounding
// white space, into UTF-8. Used for `revsum tokens --json` input lines. Returns false and sets
// *error (naming the byte offset) on malformed input, including unpaired surrogate escapes.
bool DecodeJsonString(std::string_view json, std::string* out, std::string* error);

// Decodes the JSON string literal that starts at json[*pos] (the opening quote) and moves *pos
// past its closing quote. Same errors as DecodeJsonString.
bool ParseJsonString(std::string_view json, size_t* pos, std::string* out, std::string* error);

}  // namespace revsum
