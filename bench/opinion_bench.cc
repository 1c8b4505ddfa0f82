// Inference cost of the sentence opinion model (include/revsum/opinion.h) against the USE-lite
// encoder (int8, one thread, cache off) on the same 200 review sentences
// (bench/data/use_lite_sentences.txt), in one run: the ratio of their sentences/s is the cost of
// a sentence's opinion relative to its embedding, whatever the machine.
//
//   build/opinion_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "review_sentences.h"
#include "revsum/opinion.h"
#include "revsum/use_lite.h"

namespace {

std::vector<std::string> Sentences() { return revsum::bench::ReviewSentences(); }

// Features, both dot products and the review softmax: what a run does per sentence.
void BM_OpinionScore(benchmark::State& state) {
  static const revsum::OpinionModel model = revsum::LoadDefaultOpinionModel();
  const std::vector<std::string> sentences = Sentences();
  for (auto _ : state) {
    benchmark::DoNotOptimize(model.Score(sentences));
  }
  state.counters["sentences/s"] = benchmark::Counter(
      static_cast<double>(sentences.size() * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OpinionScore)->Unit(benchmark::kMillisecond);

void BM_UseLiteEmbed(benchmark::State& state) {
  revsum::UseLiteOptions options;
  options.threads = 1;
  options.cache_entries = 0;
  options.precision = revsum::UseLitePrecision::kInt8;
  static std::unique_ptr<revsum::UseLiteEmbedder> model = revsum::UseLiteEmbedder::Load(options);
  const std::vector<std::string> sentences = Sentences();
  for (auto _ : state) {
    benchmark::DoNotOptimize(model->Embed(sentences));
  }
  state.counters["sentences/s"] = benchmark::Counter(
      static_cast<double>(sentences.size() * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_UseLiteEmbed)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
