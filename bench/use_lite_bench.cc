// Throughput of the USE-lite encoder on ordinary review sentences
// (bench/data/use_lite_sentences.txt, 200 sentences written for revsum), at batch 1 and batch 32,
// float32 and int8 (UseLiteOptions::precision), cache disabled so that every sentence runs the
// whole tokenizer + forward pass. Counters:
//   sentences/s  - Embed() throughput, tokenization included
//   FLOP/s       - useful model arithmetic (2 x multiply-adds of the dense layers, attention and
//                  output layer, counted from the real token counts), for comparing with peak
// bench/use_lite_vs_numpy.sh runs this and the numpy reference on the same sentences.
// BM_Int8Kernel times the int8 matrix product alone (the variant this CPU selects) on the
// encoder's five weight shapes, and BM_VpdpbusdPeak the rate at which this CPU retires VPDPBUSD
// (24 independent accumulators in registers): its OP/s is the kernel's ceiling.
//
//   build/use_lite_bench [--benchmark_filter=...] [REVSUM_USE_LITE_THREADS=n in the environment]

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "../src/embed/use_lite_matmul.h"
#include "review_sentences.h"
#include "revsum/use_lite.h"

namespace {

std::vector<std::string> Sentences() { return revsum::bench::ReviewSentences(); }

revsum::UseLiteEmbedder& Model(int threads, size_t cache_entries,
                               revsum::UseLitePrecision precision) {
  static std::unique_ptr<revsum::UseLiteEmbedder> models[64][2][2];
  const bool int8 = precision == revsum::UseLitePrecision::kInt8;
  auto& slot = models[threads][cache_entries > 0][int8];
  if (!slot) {
    revsum::UseLiteOptions options;
    options.threads = threads;
    options.cache_entries = cache_entries;
    options.precision = precision;
    slot = revsum::UseLiteEmbedder::Load(options);
  }
  return *slot;
}

int ThreadsFromEnv() {
  const char* env = std::getenv("REVSUM_USE_LITE_THREADS");
  return env && *env ? std::atoi(env) : 0;
}

// Multiply-adds of one sentence of n tokens (clipped to 128), SPEC.md §3.
double SentenceMacs(size_t tokens) {
  const double n = static_cast<double>(std::min<size_t>(tokens, revsum::kUseLiteMaxTokens));
  const double per_token = 256.0 * 768 + 256.0 * 512 + 256.0 * 512  // L0 qkv, residual, out
                           + 512.0 * 1536 + 512.0 * 512             // L1 qkv, out
                           + 2 * (2 * 512.0 * 1536);                // two FFNs
  const double attention = 2 * n * n * 256 + 2 * n * n * 512;       // QK^T and PV, both layers
  return n * per_token + attention + 512.0 * 512;                   // + tanh layer
}

void EmbedBatches(benchmark::State& state, int batch, size_t cache_entries,
                  revsum::UseLitePrecision precision = revsum::UseLitePrecision::kFloat32) {
  const int threads = ThreadsFromEnv();
  revsum::UseLiteEmbedder& model = Model(threads, cache_entries, precision);
  const std::vector<std::string> sentences = Sentences();
  std::vector<std::vector<std::string>> batches;
  std::vector<double> batch_macs;
  std::vector<double> batch_tokens;
  for (size_t i = 0; i + batch <= sentences.size(); i += batch) {
    batches.emplace_back(sentences.begin() + i, sentences.begin() + i + batch);
    double macs = 0, tokens = 0;
    for (const auto& ids : model.Tokenize(batches.back())) {
      macs += SentenceMacs(ids.size());
      tokens += static_cast<double>(ids.size());
    }
    batch_macs.push_back(macs);
    batch_tokens.push_back(tokens);
  }
  size_t k = 0;
  double sentences_done = 0, macs = 0, tokens = 0;
  for (auto _ : state) {
    revsum::Matrix e = model.Embed(batches[k]);
    benchmark::DoNotOptimize(e.data());
    sentences_done += batch;
    macs += batch_macs[k];
    tokens += batch_tokens[k];
    k = (k + 1) % batches.size();
  }
  state.counters["sentences/s"] = benchmark::Counter(sentences_done, benchmark::Counter::kIsRate);
  if (cache_entries == 0) {  // with the cache on, most sentences do no arithmetic at all
    state.counters["FLOP/s"] = benchmark::Counter(2 * macs, benchmark::Counter::kIsRate);
  }
  state.counters["tokens/sentence"] = tokens / sentences_done;
  state.counters["threads"] = model.threads();
}

void BM_UseLiteBatch1(benchmark::State& state) { EmbedBatches(state, 1, 0); }
void BM_UseLiteBatch32(benchmark::State& state) { EmbedBatches(state, 32, 0); }
// The same 32-sentence batches with the cache on: every call after the first round is served from
// the cache (what repeated review sentences such as "Great product!" cost).
void BM_UseLiteBatch32Cached(benchmark::State& state) { EmbedBatches(state, 32, 100000); }
// The int8 encoder (UseLitePrecision::kInt8, what summarize runs by default) on the same batches;
// FLOP/s counts the same model arithmetic, done in int8.
void BM_UseLiteInt8Batch1(benchmark::State& state) {
  EmbedBatches(state, 1, 0, revsum::UseLitePrecision::kInt8);
}
void BM_UseLiteInt8Batch32(benchmark::State& state) {
  EmbedBatches(state, 32, 0, revsum::UseLitePrecision::kInt8);
}

// The int8 product alone: rows x depth times depth x cols for the encoder's five weight shapes
// (L0 qkv, L0 out and residual, FFN in, FFN out, L1 out), random values, OP/s = 2 x multiply-adds.
void BM_Int8Kernel(benchmark::State& state) {
  const int64_t rows = state.range(0);
  const int64_t shapes[][2] = {{256, 768}, {256, 512}, {512, 1536}, {1536, 512}, {512, 512}};
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  struct Case {
    revsum::use_lite::Int8Matrix b;
    std::vector<float> a, c;
  };
  std::vector<Case> cases;
  double macs = 0;
  for (const auto& shape : shapes) {
    Case k;
    std::vector<float> b(shape[0] * shape[1]);
    for (float& x : b) x = normal(rng);
    k.b = revsum::use_lite::QuantizeColumns(b.data(), shape[1], shape[0], shape[1]);
    k.a.resize(rows * shape[0]);
    for (float& x : k.a) x = normal(rng);
    k.c.resize(rows * shape[1]);
    macs += static_cast<double>(rows * shape[0] * shape[1]);
    cases.push_back(std::move(k));
  }
  std::vector<int8_t> scratch(rows * 1536);
  std::vector<float> scales(rows);
  const revsum::use_lite::Int8MatMulFn product = revsum::use_lite::SelectedMatMulInt8();
  double done = 0;
  for (auto _ : state) {
    for (Case& k : cases) {
      product(k.a.data(), k.b.depth, revsum::use_lite::View(k.b), k.c.data(), k.b.cols, rows,
              scratch.data(), scales.data(), {});
      benchmark::DoNotOptimize(k.c.data());
    }
    done += 2 * macs;
  }
  state.counters["OP/s"] = benchmark::Counter(done, benchmark::Counter::kIsRate);
  state.SetLabel(revsum::use_lite::SelectedMatMulName());
}

// VPDPBUSD on zmm registers, 24 independent accumulators: 64 multiply-adds (128 OP) an instruction.
__attribute__((target("avx512f,avx512vnni"))) void VpdpbusdLoop(int64_t rounds) {
  asm volatile(
      "vpxord %%zmm0, %%zmm0, %%zmm0\n"
      "vpternlogd $0xff, %%zmm30, %%zmm30, %%zmm30\n"
      "vpternlogd $0xff, %%zmm31, %%zmm31, %%zmm31\n"
      "1:\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23\n"
      "vpdpbusd %%zmm31, %%zmm30, %%zmm\\r\n"
      ".endr\n"
      "dec %0\n"
      "jnz 1b\n"
      : "+r"(rounds)
      :
      : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19",
        "xmm20", "xmm21", "xmm22", "xmm23", "xmm30", "xmm31");
}
void BM_VpdpbusdPeak(benchmark::State& state) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512vnni")) {
    state.SkipWithError("this CPU has no AVX512-VNNI");
    return;
  }
  constexpr int64_t kRounds = 1 << 20;
  double done = 0;
  for (auto _ : state) {
    VpdpbusdLoop(kRounds);
    done += 128.0 * 24 * kRounds;
  }
  state.counters["OP/s"] = benchmark::Counter(done, benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Int8Kernel)->Arg(416)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VpdpbusdPeak)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_UseLiteBatch1)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(3.0);
BENCHMARK(BM_UseLiteBatch32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);
BENCHMARK(BM_UseLiteBatch32Cached)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_UseLiteInt8Batch1)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(3.0);
BENCHMARK(BM_UseLiteInt8Batch32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

}  // namespace

BENCHMARK_MAIN();
