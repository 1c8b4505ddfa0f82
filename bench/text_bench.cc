// Throughput of the text stage: SentenceSegmenter::Split, WordSegmenter and the fragment rule
// (FragmentRule::Classify with the shipped lexicons) on English and Chinese review text generated
// here (deterministic), and on real Chinese reviews from ../shared when present. Reports bytes/s
// (MB/s) and sentences/s.
//
//   build-x/text_bench --benchmark_min_time=1s

#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "revsum/fragment.h"
#include "revsum/text.h"

namespace {

// A small deterministic generator (xorshift64*), so every run segments the same text.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  size_t Below(size_t n) {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return static_cast<size_t>((state_ * 2685821657736338717ull) >> 33) % n;
  }

 private:
  uint64_t state_;
};

const std::vector<std::string> kEnglish = {
    "This blender is loud but it crushes ice in seconds.",
    "The battery lasts about two days with heavy use!",
    "Would I buy it again? Absolutely.",
    "Arrived broken.Returned it the same day.",
    "great.love it!!!so happy",
    "Price was $3.50 on amazon.com, e.g. cheaper than the store.",
    "Fits true to size<br />Color is a bit darker than the photo.",
    "The &quot;waterproof&quot; case isn&#39;t waterproof at all...",
    "Mr. Smith at customer service was very helpful 😍😍",
    "Works fine for a small dorm room, but the cord is short.",
    "I've had it for 6 months and it still looks new.",
    "Not worth the money; the handle broke after a week."};

const std::vector<std::string> kChinese = {
    "东西不错.物流很快,下次还来",       "衣服质量很好。尺码偏大！",
    "客服态度怎么样？还不错～～",       "屏幕清晰；电池耐用;就是有点重。",
    "等了一个星期……终于到了！！！",     "很好吃～～下次还会买~送货3~5天。",
    "iPad的屏幕很好，就是价格有点贵。", "包装很仔细，水果很新鲜，个头也大。",
    "酒店位置很好，离地铁站很近。",     "热水器安装师傅很专业，服务到位👍"};

// `count` reviews of 2..8 sentences each.
std::vector<std::string> MakeReviews(const std::vector<std::string>& sentences, bool spaces,
                                     size_t count) {
  Rng rng(42);
  std::vector<std::string> reviews;
  for (size_t r = 0; r < count; ++r) {
    std::string review;
    const size_t n = 2 + rng.Below(7);
    for (size_t i = 0; i < n; ++i) {
      if (spaces && i) review += ' ';
      review += sentences[rng.Below(sentences.size())];
    }
    reviews.push_back(review);
  }
  return reviews;
}

void RunSplit(benchmark::State& state, const std::vector<std::string>& reviews) {
  revsum::SentenceSegmenter segmenter;
  size_t bytes = 0;
  for (const auto& r : reviews) bytes += r.size();
  int64_t sentences = 0;
  for (auto _ : state) {
    for (const auto& r : reviews) {
      const auto out = segmenter.Split(r);
      sentences += static_cast<int64_t>(out.size());
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["sentences/s"] =
      benchmark::Counter(static_cast<double>(sentences), benchmark::Counter::kIsRate);
  state.counters["reviews/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * reviews.size()), benchmark::Counter::kIsRate);
}

void BM_SplitEnglish(benchmark::State& state) {
  static const auto reviews = MakeReviews(kEnglish, true, 1000);
  RunSplit(state, reviews);
}
BENCHMARK(BM_SplitEnglish)->Unit(benchmark::kMillisecond);

void BM_SplitChinese(benchmark::State& state) {
  static const auto reviews = MakeReviews(kChinese, false, 1000);
  RunSplit(state, reviews);
}
BENCHMARK(BM_SplitChinese)->Unit(benchmark::kMillisecond);

// The first 5,000 reviews of ../shared/data/zh/online_shopping_10_cats.csv (skipped if absent).
void BM_SplitSharedChinese(benchmark::State& state) {
  static const auto reviews = [] {
    std::vector<std::string> out;
    std::ifstream in(std::filesystem::path(REVSUM_SHARED_DIR) /
                     "data/zh/online_shopping_10_cats.csv");
    std::string line;
    std::getline(in, line);
    while (out.size() < 5000 && std::getline(in, line)) {
      const size_t first = line.find(',');
      const size_t second = first == std::string::npos ? first : line.find(',', first + 1);
      if (second != std::string::npos) out.push_back(line.substr(second + 1));
    }
    return out;
  }();
  if (reviews.empty()) {
    state.SkipWithError("shared data not present");
    return;
  }
  RunSplit(state, reviews);
}
BENCHMARK(BM_SplitSharedChinese)->Unit(benchmark::kMillisecond);

void RunWords(benchmark::State& state, const std::vector<std::string>& reviews) {
  revsum::WordSegmenter words;
  size_t bytes = 0;
  for (const auto& r : reviews) bytes += r.size();
  int64_t count = 0;
  for (auto _ : state) {
    for (const auto& r : reviews) count += static_cast<int64_t>(words.Words(r).size());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["words/s"] =
      benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsRate);
}

void BM_WordsEnglish(benchmark::State& state) {
  static const auto reviews = MakeReviews(kEnglish, true, 1000);
  RunWords(state, reviews);
}
BENCHMARK(BM_WordsEnglish)->Unit(benchmark::kMillisecond);

void BM_WordsChinese(benchmark::State& state) {
  static const auto reviews = MakeReviews(kChinese, false, 1000);
  RunWords(state, reviews);
}
BENCHMARK(BM_WordsChinese)->Unit(benchmark::kMillisecond);

// Every sentence of the reviews through the fragment rule, as the selector does for each scope.
void RunClassify(benchmark::State& state, const std::vector<std::string>& reviews) {
  const revsum::FragmentRule rule(
      revsum::LoadFragmentLexicon({std::string(REVSUM_SOURCE_DIR) + "/models/fragments/en.txt",
                                   std::string(REVSUM_SOURCE_DIR) + "/models/fragments/zh.txt"}));
  revsum::SentenceSegmenter segmenter;
  std::vector<std::string> sentences;
  size_t bytes = 0;
  for (const auto& r : reviews) {
    for (auto& s : segmenter.Split(r)) {
      bytes += s.text.size();
      sentences.push_back(std::move(s.text));
    }
  }
  int64_t fragments = 0;
  for (auto _ : state) {
    for (const auto& s : sentences)
      fragments += rule.Classify(s) != revsum::FragmentReason::kNone ? 1 : 0;
  }
  benchmark::DoNotOptimize(fragments);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["sentences/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * sentences.size()), benchmark::Counter::kIsRate);
}

void BM_ClassifyEnglish(benchmark::State& state) {
  static const auto reviews = MakeReviews(kEnglish, true, 1000);
  RunClassify(state, reviews);
}
BENCHMARK(BM_ClassifyEnglish)->Unit(benchmark::kMillisecond);

void BM_ClassifyChinese(benchmark::State& state) {
  static const auto reviews = MakeReviews(kChinese, false, 1000);
  RunClassify(state, reviews);
}
BENCHMARK(BM_ClassifyChinese)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
