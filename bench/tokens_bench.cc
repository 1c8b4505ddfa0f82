// Token counting speed on the parity corpus (tests/data/tokens/parity.jsonl: English and Chinese
// reviews, code, URLs, emoji, whitespace runs, random mixes). Reports tokens/s and bytes/s for
// Encode and Count with both encodings, and the pre-tokenizer alone with both engines (the
// hand-written matcher and ICU's regex), so the share of the time spent splitting is visible.
// bench/tokens_vs_js.sh compares with js-tiktoken.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "../src/tokens/pretokenizer.h"
#include "revsum/tokens.h"

namespace {

const std::vector<std::string>& Corpus() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    const char* env = std::getenv("REVSUM_TOKENS_CORPUS");
    std::string path = env && *env ? env : REVSUM_SOURCE_DIR "/tests/data/tokens/parity.jsonl";
    std::ifstream in(path);
    std::string line, text, error;
    while (std::getline(in, line)) {
      size_t pos = line.find("\"text\":");
      if (pos == std::string::npos) continue;
      pos += 7;
      if (!revsum::ParseJsonString(line, &pos, &text, &error)) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
        std::exit(1);
      }
      out.push_back(text);
    }
    if (out.empty()) {
      std::fprintf(stderr, "tokens_bench: no texts in %s\n", path.c_str());
      std::exit(1);
    }
    return out;
  }();
  return texts;
}

const revsum::TokenCounter& Counter(revsum::Encoding encoding) {
  static std::unique_ptr<revsum::TokenCounter> counters[2];
  auto& c = counters[encoding == revsum::Encoding::kO200kBase ? 0 : 1];
  if (!c) {
    std::string error;
    c = revsum::TokenCounter::Load(encoding, &error);
    if (!c) {
      std::fprintf(stderr, "tokens_bench: %s\n", error.c_str());
      std::exit(1);
    }
  }
  return *c;
}

size_t CorpusBytes() {
  size_t bytes = 0;
  for (const std::string& t : Corpus()) bytes += t.size();
  return bytes;
}

void BM_Encode(benchmark::State& state, revsum::Encoding encoding) {
  const revsum::TokenCounter& counter = Counter(encoding);
  std::vector<uint32_t> ids;
  size_t tokens = 0;
  for (auto _ : state) {
    for (const std::string& text : Corpus()) {
      ids.clear();
      counter.Encode(text, &ids);
      tokens += ids.size();
    }
    benchmark::DoNotOptimize(ids.data());
  }
  state.counters["tokens/s"] =
      benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
  state.counters["texts"] = static_cast<double>(Corpus().size());
  state.counters["tokens_per_pass"] =
      static_cast<double>(tokens) / static_cast<double>(std::max<int64_t>(state.iterations(), 1));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}

void BM_Count(benchmark::State& state, revsum::Encoding encoding) {
  const revsum::TokenCounter& counter = Counter(encoding);
  size_t tokens = 0;
  for (auto _ : state) {
    for (const std::string& text : Corpus()) tokens += counter.Count(text);
  }
  state.counters["tokens/s"] =
      benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}

// The pre-tokenizer alone (o200k_base pattern, no BPE), with either engine.
void BM_PretokenizeO200k(benchmark::State& state,
                         revsum::tokens_internal::Pretokenizer::Engine engine) {
  std::string error;
  auto pretokenizer = revsum::tokens_internal::Pretokenizer::Create(
      revsum::tokens_internal::kO200kPattern, &error, engine);
  std::vector<std::string_view> pieces;
  size_t count = 0;
  for (auto _ : state) {
    for (const std::string& text : Corpus()) {
      pieces.clear();
      pretokenizer->Split(text, &pieces);
      count += pieces.size();
    }
  }
  state.counters["pieces/s"] =
      benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * CorpusBytes()));
}

BENCHMARK_CAPTURE(BM_Encode, o200k_base, revsum::Encoding::kO200kBase)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Encode, cl100k_base, revsum::Encoding::kCl100kBase)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Count, o200k_base, revsum::Encoding::kO200kBase)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PretokenizeO200k, fast,
                  revsum::tokens_internal::Pretokenizer::Engine::kFastest)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PretokenizeO200k, icu, revsum::tokens_internal::Pretokenizer::Engine::kIcu)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
