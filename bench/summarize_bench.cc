// Cost of the summarizer core on large products: SummarizeTexts (segment, lexical embed, score
// with sampled consensus, select 100 words) on synthetic products of N sentences built from the
// review sentences of the shared dev sets (../shared/data/bench), and AttentionScorer alone on
// the same embeddings.
//
//   build/summarize_bench --benchmark_filter=Summarize
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "revsum/eval.h"
#include "revsum/lexical.h"
#include "revsum/summarize.h"

namespace {

// `n` review texts of ~5 sentences each, drawn with a fixed seed from the dev sets' reviews, so
// the product has about 5n sentences of real review language.
std::vector<std::string> SyntheticProduct(size_t sentences) {
  static std::vector<std::string> pool = [] {
    std::vector<std::string> p;
    revsum::SentenceSegmenter segmenter;
    for (const char* set : {"oposum_dev", "copycat_dev", "opinosis_dev"}) {
      const std::string path = std::string(REVSUM_SHARED_DIR) + "/data/bench/" + set + ".jsonl";
      for (const auto& entity : revsum::ReadBenchSet(path)) {
        for (const auto& review : entity.reviews) {
          for (auto& s : segmenter.Split(review.text)) p.push_back(std::move(s.text));
        }
      }
    }
    return p;
  }();
  std::mt19937 rng(42);
  std::vector<std::string> reviews;
  size_t made = 0;
  while (made < sentences) {
    std::string review;
    for (int k = 0; k < 5 && made < sentences; ++k, ++made) {
      if (!review.empty()) review += ' ';
      review += pool[rng() % pool.size()];
    }
    reviews.push_back(std::move(review));
  }
  return reviews;
}

void BM_SummarizeTexts(benchmark::State& state) {
  const std::vector<std::string> reviews = SyntheticProduct(static_cast<size_t>(state.range(0)));
  revsum::LexicalEmbedder embedder;
  revsum::SummarizeOptions options;
  size_t scope = 0;
  for (auto _ : state) {
    const revsum::Summary summary = revsum::SummarizeTexts(reviews, options, embedder);
    scope = summary.scope.size();
    benchmark::DoNotOptimize(summary.sentences.data());
  }
  state.counters["sentences"] = static_cast<double>(scope);
}
BENCHMARK(BM_SummarizeTexts)
    ->Arg(1000)
    ->Arg(4000)
    ->Arg(50000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_AttentionScorer(benchmark::State& state) {
  const std::vector<std::string> reviews = SyntheticProduct(static_cast<size_t>(state.range(0)));
  revsum::SentenceSegmenter segmenter;
  std::vector<std::string> sentences;
  for (const auto& r : reviews) {
    for (auto& s : segmenter.Split(r)) sentences.push_back(std::move(s.text));
  }
  revsum::LexicalEmbedder embedder;
  const revsum::Matrix S = embedder.Embed(sentences);
  const revsum::AttentionScorer scorer;
  for (auto _ : state) {
    const revsum::Weights w = scorer.Score(S, revsum::Scope::kProduct);
    benchmark::DoNotOptimize(w.final.data());
  }
  state.counters["sentences"] = static_cast<double>(S.rows());
}
BENCHMARK(BM_AttentionScorer)
    ->Arg(1000)
    ->Arg(4000)
    ->Arg(50000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
