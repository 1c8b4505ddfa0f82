// Cost of points (issue 8, "Cost": summarising with points is at most 1.5x the time of
// summarising without). For each product, in the same iteration: (a) the summarise stage alone —
// SummarizeScope with RunOptions' defaults, the embedder EmbedderPool picks for the scope and the
// seeds SummarizeStore picks by language — and (b) the points stage on its output — ComputePoints
// with the options src/pipeline/run.cc's ProductPoints uses (cluster_columns = kUseLiteDim for
// the combined embedder, the default fragment rule reusing the selector's verdicts, ratings
// normalised with their dump's scale). Reported per product as counters summarise_s, points_s
// (wall, per iteration), ratio = (summarise + points) / summarise in wall time and cpu_ratio the
// same in process CPU time (steadier on a shared machine); after the run one line per product
// and the ratios over all of them. The store's reads and writes, which points do not add to, are
// left out of the denominator, so the ratio is an upper bound on what points add to a run.
//
// Products: one English and one Chinese product of 600 reviews from bench/gen_planted.py
// (seed 7, generated into a temp dir at start), and, when REVSUM_SHARED_DIR holds
// data/zh/online_shopping_10_cats.csv, its 手机 (phone) and 酒店 (hotel) categories.
// Each iteration starts from a fresh EmbedderPool (model loaded outside the timing), so the
// USE-lite sentence cache holds only what the product itself repeats, as in a run. USE-lite runs
// on one thread, as in a run's workers when several products run in parallel.
//
//   build/points_bench                          # all products
//   build/points_bench --benchmark_filter=planted
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <benchmark/benchmark.h>

#include "revsum/fragment.h"
#include "revsum/ingest.h"
#include "revsum/points.h"
#include "revsum/run.h"
#include "revsum/score.h"
#include "revsum/select.h"
#include "revsum/store.h"
#include "revsum/summarize.h"
#include "revsum/text.h"

namespace {

namespace fs = std::filesystem;
using revsum::StoredReview;

constexpr int kPlantedReviews = 600;
const char* const kShoppingCsv = "/data/zh/online_shopping_10_cats.csv";

// A temp folder removed at exit.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "points_bench.XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temp dir");
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// One product as SummarizeStore reads it: its reviews (with sentences) and each review's
// rating normalised with its dump's scale.
struct Product {
  std::vector<StoredReview> reviews;
  std::vector<std::optional<double>> ratings;
};

// Reads `product` from `store` and normalises ratings as SummarizeStore does (per source).
Product ReadProduct(revsum::ReviewStore& store, const std::string& product) {
  std::unordered_map<std::string, revsum::RatingScale> scales;
  for (const auto& [path, range] : store.reviews().SourceRatings()) {
    scales[path] = revsum::DetectRatingScale(range.min, range.max, range.labels_only);
  }
  Product p;
  p.reviews = store.reviews().GetProductReviews(product);
  if (p.reviews.empty()) throw std::runtime_error("no reviews for product '" + product + "'");
  for (const StoredReview& r : p.reviews) {
    std::optional<double> v;
    const auto scale = scales.find(r.source);
    if (r.rating && scale != scales.end()) v = scale->second.Normalise(*r.rating);
    p.ratings.push_back(v);
  }
  return p;
}

// The stores are built once, on first use (generating and ingesting is not measured).
struct Data {
  TempFolder dir;
  std::unique_ptr<revsum::ReviewStore> planted, shopping;
};
Data& data() {
  static Data d;
  return d;
}

revsum::ReviewStore& PlantedStore() {
  Data& d = data();
  if (!d.planted) {
    const std::string cmd = "python3 \"" REVSUM_SOURCE_DIR "/bench/gen_planted.py\" \"" +
                            d.dir.path().string() + "\" --lang both --products 1 --reviews " +
                            std::to_string(kPlantedReviews) + " --seed 7 > /dev/null";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: " + cmd);
    d.planted = revsum::ReviewStore::Open((d.dir.path() / "planted.db").string());
    revsum::IngestOptions options;
    options.threads = 1;
    for (const char* lang : {"en", "zh"}) {
      const fs::path dump = d.dir.path() / (std::string("planted_") + lang + ".jsonl");
      revsum::IngestFile(*d.planted, dump.string(), options);
    }
  }
  return *d.planted;
}

revsum::ReviewStore& ShoppingStore() {
  Data& d = data();
  if (!d.shopping) {
    d.shopping = revsum::ReviewStore::Open((d.dir.path() / "shopping.db").string());
    revsum::IngestOptions options;
    options.threads = 1;
    options.read.fields.product = "cat";
    revsum::IngestFile(*d.shopping, std::string(REVSUM_SHARED_DIR) + kShoppingCsv, options);
  }
  return *d.shopping;
}

// Whether CJK text dominates the scope (run.cc's MostlyCjk).
bool MostlyCjk(const std::vector<std::string>& texts) {
  std::string joined;
  for (const std::string& t : texts) (joined += t) += ' ';
  return revsum::CjkFraction(joined) > revsum::kAutoCjkThreshold;
}

// CPU seconds of the whole process (every thread): unlike wall time, not inflated by other work
// on a shared machine.
double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Totals {
  std::string label;
  size_t sentences = 0;
  std::string embedder;
  double summarise_s = 0, points_s = 0;      // wall
  double summarise_cpu = 0, points_cpu = 0;  // process CPU
};
std::map<std::string, Totals>& totals() {
  static std::map<std::string, Totals> t;
  return t;
}

void BM_SummariseThenPoints(benchmark::State& state, std::string name, std::string label,
                            bool planted, std::string product_key) {
  using Clock = std::chrono::steady_clock;
  const Product product = ReadProduct(planted ? PlantedStore() : ShoppingStore(), product_key);
  std::vector<std::string> texts;
  std::vector<size_t> review_of;
  for (size_t r = 0; r < product.reviews.size(); ++r) {
    for (const revsum::StoredSentence& s : product.reviews[r].sentences) texts.push_back(s.text);
    review_of.insert(review_of.end(), product.reviews[r].sentences.size(), r);
  }
  revsum::RunOptions run;
  run.use_lite.threads = 1;
  const revsum::SummarizeOptions& summarize = run.summarize;
  const revsum::SeedSet seeds =
      summarize.seeds_path.empty() ? revsum::SeedSet{} : revsum::LoadSeeds(summarize.seeds_path);
  const revsum::SeedSet cjk_seeds =
      run.cjk_seeds_path.empty() ? seeds : revsum::LoadSeeds(run.cjk_seeds_path);
  const revsum::SeedSet& scope_seeds =
      !run.cjk_seeds_path.empty() && MostlyCjk(texts) ? cjk_seeds : seeds;
  const revsum::PolarityLexicon lexicon =
      revsum::PolarityLexicon::Load(revsum::PolarityLexicon::DefaultPaths());

  Totals& total = totals()[name];
  total.label = label;
  total.sentences = texts.size();
  double summarise_s = 0, points_s = 0, summarise_cpu = 0, points_cpu = 0;
  size_t point_count = 0;
  for (auto _ : state) {
    revsum::EmbedderPool pool(run.embedder, run.use_lite);
    revsum::Embedder& embedder = pool.For(texts);  // loads the model: not measured
    total.embedder = embedder.name();

    const double c0 = ProcessCpuSeconds();
    const auto t0 = Clock::now();
    const revsum::ScopeSummary result =
        revsum::SummarizeScope(texts, revsum::Scope::kProduct, summarize, scope_seeds, embedder);
    const auto t1 = Clock::now();
    const double c1 = ProcessCpuSeconds();

    // As ProductPoints (src/pipeline/run.cc) builds its input and options.
    revsum::PointsInput in;
    in.texts = &texts;
    in.review_count = product.reviews.size();
    in.scale = revsum::RatingScale{-1, 1, revsum::RatingScale::Kind::kLinear};
    in.embeddings = &result.embeddings;
    in.weights = &result.weights;
    in.ratings = product.ratings;
    in.review_of = review_of;
    revsum::PointsOptions options;
    if (embedder.name() == "combined") options.cluster_columns = revsum::kUseLiteDim;
    const std::shared_ptr<const revsum::FragmentRule> fragments = revsum::DefaultFragmentRule();
    std::unordered_map<std::string_view, bool> known;
    if (result.fragments.size() == texts.size() &&
        (!summarize.selector.fragment_rule || summarize.selector.fragment_rule == fragments)) {
      known.reserve(texts.size());
      for (size_t i = 0; i < texts.size(); ++i) {
        known.emplace(texts[i], result.fragments[i] != revsum::FragmentReason::kNone);
      }
    }
    options.is_fragment = [&fragments, &known](std::string_view t) {
      const auto it = known.find(t);
      return it != known.end() ? it->second : fragments->IsFragment(t);
    };
    const std::vector<revsum::Point> points = revsum::ComputePoints(in, lexicon, options);
    const auto t2 = Clock::now();
    const double c2 = ProcessCpuSeconds();

    if (points.empty()) state.SkipWithError("no points");
    point_count = points.size();
    benchmark::DoNotOptimize(points.data());
    const double s = std::chrono::duration<double>(t1 - t0).count();
    const double p = std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(s + p);
    summarise_s += s;
    points_s += p;
    summarise_cpu += c1 - c0;
    points_cpu += c2 - c1;
  }
  total.summarise_s += summarise_s;
  total.points_s += points_s;
  total.summarise_cpu += summarise_cpu;
  total.points_cpu += points_cpu;
  const double n = static_cast<double>(state.iterations());
  state.counters["sentences"] = static_cast<double>(texts.size());
  state.counters["points"] = static_cast<double>(point_count);
  state.counters["summarise_s"] = summarise_s / n;
  state.counters["points_s"] = points_s / n;
  state.counters["ratio"] = summarise_s > 0 ? (summarise_s + points_s) / summarise_s : 0;
  state.counters["cpu_ratio"] =
      summarise_cpu > 0 ? (summarise_cpu + points_cpu) / summarise_cpu : 0;
  state.SetLabel(label);
}

void Register(const std::string& name, const std::string& label, bool planted,
              const std::string& product) {
  benchmark::RegisterBenchmark(("BM_SummariseThenPoints/" + name).c_str(), BM_SummariseThenPoints,
                               name, label, planted, product)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(2);
}

}  // namespace

int main(int argc, char** argv) {
  Register("planted_en", "gen_planted.py en, 600 reviews", true, "en-product-1");
  Register("planted_zh", "gen_planted.py zh, 600 reviews", true, "zh-product-1");
  if (fs::exists(std::string(REVSUM_SHARED_DIR) + kShoppingCsv)) {
    Register("shopping_phone", "online_shopping_10_cats 手机", false, "手机");
    Register("shopping_hotel", "online_shopping_10_cats 酒店", false, "酒店");
  } else {
    std::fprintf(stderr, "points_bench: no %s%s; the shopping categories are skipped\n",
                 REVSUM_SHARED_DIR, kShoppingCsv);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // Wall and CPU ratios of all iterations; the issue-8 bound (1.5) applies to each product.
  double all_s = 0, all_p = 0, all_sc = 0, all_pc = 0;
  for (const auto& [name, t] : totals()) {
    if (t.summarise_s <= 0 || t.summarise_cpu <= 0) continue;
    std::printf(
        "%s (%s; %zu sentences, %s): summarise %.3f s, points %.3f s wall; with points / without "
        "%.3f wall, %.3f CPU\n",
        name.c_str(), t.label.c_str(), t.sentences, t.embedder.c_str(), t.summarise_s, t.points_s,
        (t.summarise_s + t.points_s) / t.summarise_s,
        (t.summarise_cpu + t.points_cpu) / t.summarise_cpu);
    all_s += t.summarise_s;
    all_p += t.points_s;
    all_sc += t.summarise_cpu;
    all_pc += t.points_cpu;
  }
  if (all_s > 0 && all_sc > 0) {
    std::printf("all products: with points / without %.3f wall, %.3f CPU (issue 8 bound: 1.5)\n",
                (all_s + all_p) / all_s, (all_sc + all_pc) / all_sc);
  }
  return 0;
}
