// Fuzzes the USE-lite tokenizer (UseLiteEmbedder::TokenizeOne / Tokenize, revsum/use_lite.h) with
// arbitrary bytes. Checked, following ../shared/reference/use-lite/SPEC.md §1:
//   - "" (and any input whose NFKC form is empty) gives no ids (§1.2 step 2);
//   - every id is 0 (unknown) or an ordinary piece 6..7999 (§1.1: ids 1-5 are never emitted and
//     the vocabulary has 8000 entries);
//   - no two consecutive unknowns (§1.6 merges runs of id 0);
//   - at most 1 + (UTF-16 length of NFKC(input)) ids: every id covers at least one symbol of
//     "▁" + NFKC(input) (§1.2-1.6); invalid UTF-8 is read as U+FFFD, as use_lite.h says;
//   - Tokenize of a batch equals TokenizeOne of each sentence.
//
// Needs the model under models/use-lite/ (scripts/fetch-use-lite, or $REVSUM_MODELS_DIR): without
// it the target aborts at start-up with the loader's message.
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "revsum/use_lite.h"

namespace {

using revsum::fuzz::Escape;

constexpr int kVocabSize = 8000;
constexpr int kReservedIds = 6;

std::unique_ptr<revsum::UseLiteEmbedder> LoadOrDie() {
  revsum::UseLiteOptions options;
  options.threads = 1;
  options.cache_entries = 0;
  try {
    return revsum::UseLiteEmbedder::Load(options);
  } catch (const revsum::UseLiteError& e) {
    std::fprintf(stderr,
                 "fuzz_use_lite: cannot load the USE-lite model: %s\n"
                 "Run scripts/fetch-use-lite (or scripts/setup), or set REVSUM_MODELS_DIR.\n",
                 e.what());
    std::abort();
  }
}

// The UTF-16 length of NFKC(text), computed here with ICU directly.
int32_t NfkcLength(const std::string& text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  FUZZ_CHECK(U_SUCCESS(status), "no ICU NFKC instance");
  const icu::UnicodeString normalized = nfkc->normalize(icu::UnicodeString::fromUTF8(text), status);
  FUZZ_CHECK(U_SUCCESS(status), "ICU NFKC failed");
  return normalized.length();
}

void CheckIds(const std::string& text, const std::vector<int>& ids) {
  const std::string shown = "input '" + Escape(text) + "'";
  const int32_t symbols = NfkcLength(text);
  if (symbols == 0) {
    FUZZ_CHECK(ids.empty(), "ids for an input whose NFKC form is empty: " + shown);
    return;
  }
  FUZZ_CHECK(!ids.empty(), "no ids for a non-empty input: " + shown);
  FUZZ_CHECK(ids.size() <= static_cast<size_t>(symbols) + 1,
             std::to_string(ids.size()) + " ids for " + std::to_string(symbols + 1) +
                 " symbols: " + shown);
  for (size_t i = 0; i < ids.size(); ++i) {
    const int id = ids[i];
    FUZZ_CHECK(id == 0 || (id >= kReservedIds && id < kVocabSize),
               "id " + std::to_string(id) + " out of range: " + shown);
    FUZZ_CHECK(!(i > 0 && id == 0 && ids[i - 1] == 0), "consecutive unknown ids: " + shown);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto embedder = LoadOrDie();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<int> ids = embedder->TokenizeOne(text);
  CheckIds(text, ids);

  const std::string tail = text.substr(text.size() / 2);
  const std::vector<std::vector<int>> batch = embedder->Tokenize({tail, text});
  FUZZ_CHECK(batch.size() == 2 && batch[1] == ids && batch[0] == embedder->TokenizeOne(tail),
             "Tokenize differs from TokenizeOne: input '" + Escape(text) + "'");
  return 0;
}
