// Fuzzes the tiktoken-compatible tokenizer (revsum/tokens.h) with arbitrary bytes, for both
// encodings, and the JSON string decoder used by `revsum tokens --json`.
//
// Checked, as tokens.h promises for every byte string x:
//   - Decode(Encode(x)) == x, every id an ordinary token (< vocab_size), Count(x) ==
//     Encode(x).size(), and the appending Encode overload appends exactly Encode(x);
//   - Decode(EncodeWithSpecialTokens(x)) == x (special-token ids decode to their text);
//   - DecodeJsonString either fails with an error message or, for valid UTF-8 input, yields
//     valid UTF-8 (escapes such as \ud800 alone must be refused).
//
// Needs the vocabularies under models/tiktoken/ (scripts/fetch-tiktoken, or $REVSUM_MODELS_DIR):
// without them the target aborts at start-up with the loader's message.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "revsum/tokens.h"

namespace {

using revsum::fuzz::Escape;
using revsum::fuzz::IsValidUtf8;

std::unique_ptr<revsum::TokenCounter> LoadOrDie(revsum::Encoding encoding) {
  std::string error;
  auto counter = revsum::TokenCounter::Load(encoding, &error);
  if (counter == nullptr) {
    std::fprintf(stderr,
                 "fuzz_tokens: cannot load the %s vocabulary: %s\n"
                 "Run scripts/fetch-tiktoken (or scripts/setup), or set REVSUM_MODELS_DIR.\n",
                 std::string(revsum::EncodingName(encoding)).c_str(), error.c_str());
    std::abort();
  }
  return counter;
}

void CheckEncoding(const revsum::TokenCounter& counter, std::string_view text) {
  const std::string shown =
      std::string(revsum::EncodingName(counter.encoding())) + " input '" + Escape(text) + "'";
  const std::vector<uint32_t> ids = counter.Encode(text);
  FUZZ_CHECK(text.empty() == ids.empty(), "empty/non-empty mismatch: " + shown);
  for (uint32_t id : ids) {
    FUZZ_CHECK(id < counter.vocab_size(),
               "id " + std::to_string(id) + " is not ordinary: " + shown);
  }
  std::string decoded;
  FUZZ_CHECK(counter.Decode(ids, &decoded), "Decode refused ids from Encode: " + shown);
  FUZZ_CHECK(decoded == text, "Decode(Encode(x)) = '" + Escape(decoded) + "' != x: " + shown);
  FUZZ_CHECK(counter.Count(text) == ids.size(), "Count differs from Encode().size(): " + shown);

  std::vector<uint32_t> appended = {7};
  counter.Encode(text, &appended);
  FUZZ_CHECK(appended.size() == ids.size() + 1 && appended[0] == 7 &&
                 std::equal(ids.begin(), ids.end(), appended.begin() + 1),
             "the appending Encode differs: " + shown);

  const std::vector<uint32_t> special = counter.EncodeWithSpecialTokens(text);
  FUZZ_CHECK(counter.Decode(special, &decoded), "Decode refused EncodeWithSpecialTokens: " + shown);
  FUZZ_CHECK(decoded == text,
             "Decode(EncodeWithSpecialTokens(x)) = '" + Escape(decoded) + "' != x: " + shown);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto o200k = LoadOrDie(revsum::Encoding::kO200kBase);
  static const auto cl100k = LoadOrDie(revsum::Encoding::kCl100kBase);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckEncoding(*o200k, text);
  CheckEncoding(*cl100k, text);

  std::string json, error;
  if (revsum::DecodeJsonString(text, &json, &error)) {
    FUZZ_CHECK(
        !IsValidUtf8(text) || IsValidUtf8(json),
        "DecodeJsonString gave invalid UTF-8 for '" + Escape(text) + "': '" + Escape(json) + "'");
  } else {
    FUZZ_CHECK(!error.empty(), "DecodeJsonString failed without a message: '" + Escape(text) + "'");
  }
  return 0;
}
