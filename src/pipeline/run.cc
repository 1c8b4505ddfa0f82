#include "revsum/run.h"
#include "revsum/escape.h"
#include "revsum/json.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include "bounded_queue.h"
#include "memory_budget.h"
#include "revsum/combined.h"
#include "revsum/fragment.h"
#include "revsum/hash.h"
#include "revsum/lexical.h"
#include "revsum/models.h"
#include "revsum/parallel.h"
#include "revsum/points.h"
#include "revsum/text.h"
#include "revsum/train.h"

namespace revsum {

using pipeline_internal::BoundedQueue;
using pipeline_internal::MemoryBudget;

std::string_view EmbedderChoiceName(EmbedderChoice choice) {
  switch (choice) {
    case EmbedderChoice::kLexical:
      return "lexical";
    case EmbedderChoice::kUseLite:
      return "use-lite";
    case EmbedderChoice::kCombined:
      return "combined";
    case EmbedderChoice::kAuto:
      return "auto";
  }
  return "?";
}

EmbedderChoice ParseEmbedderChoice(std::string_view name) {
  if (name == "lexical") return EmbedderChoice::kLexical;
  if (name == "use-lite") return EmbedderChoice::kUseLite;
  if (name == "combined") return EmbedderChoice::kCombined;
  if (name == "auto") return EmbedderChoice::kAuto;
  throw std::invalid_argument("unknown embedder '" + std::string(name) +
                              "' (lexical, use-lite, combined, auto)");
}

SharedUseLite::SharedUseLite(UseLiteOptions options) : options_(std::move(options)) {}
SharedUseLite::~SharedUseLite() = default;

Embedder& SharedUseLite::Get() {
  std::lock_guard lock(mu_);
  if (!model_) model_ = UseLiteEmbedder::Load(options_);
  return *model_;
}

bool SharedUseLite::HelpOnce() {
  UseLiteEmbedder* model = nullptr;
  {
    std::lock_guard lock(mu_);
    model = model_.get();
  }
  return model && model->HelpOnce();
}

void SharedUseLite::SetThreads(int threads) {
  std::lock_guard lock(mu_);
  options_.threads = threads;
  if (model_) model_->set_threads(threads);
}

EmbedderPool::EmbedderPool(EmbedderChoice choice, UseLiteOptions use_lite)
    : EmbedderPool(choice, std::make_shared<SharedUseLite>(std::move(use_lite))) {}

EmbedderPool::EmbedderPool(EmbedderChoice choice, std::shared_ptr<SharedUseLite> use_lite)
    : choice_(choice), shared_use_lite_(std::move(use_lite)) {}

EmbedderPool::~EmbedderPool() = default;

namespace {

// Whether CJK text dominates a scope (CjkFraction of its sentences above kAutoCjkThreshold).
bool MostlyCjk(const std::vector<std::string>& texts) {
  std::string joined;
  for (const std::string& t : texts) (joined += t) += ' ';
  return CjkFraction(joined) > kAutoCjkThreshold;
}

}  // namespace

Embedder& EmbedderPool::For(const std::vector<std::string>& texts) {
  EmbedderChoice kind = choice_;
  if (kind == EmbedderChoice::kAuto) {
    kind = MostlyCjk(texts) ? EmbedderChoice::kLexical : EmbedderChoice::kCombined;
  }
  if (texts.size() > kHugeScopeSentences && kind != EmbedderChoice::kUseLite) {
    if (!huge_lexical_) {
      LexicalOptions options;
      options.dim = kHugeScopeLexicalDim;
      huge_lexical_ = std::make_unique<LexicalEmbedder>(options);
    }
    return *huge_lexical_;
  }
  const bool large = texts.size() > kLargeScopeSentences;
  std::unique_ptr<Embedder>& lexical = large ? large_lexical_ : lexical_;
  if (kind != EmbedderChoice::kUseLite && !lexical) {
    LexicalOptions options;
    if (large) options.dim = kLargeScopeLexicalDim;
    lexical = std::make_unique<LexicalEmbedder>(options);
  }
  if (kind == EmbedderChoice::kLexical) return *lexical;
  if (!use_lite_) use_lite_ = &shared_use_lite_->Get();
  if (kind == EmbedderChoice::kUseLite) return *use_lite_;
  std::unique_ptr<Embedder>& combined = large ? large_combined_ : combined_;
  if (!combined) {
    combined = std::make_unique<CombinedEmbedder>(*lexical, *use_lite_,
                                                  CombinedOptions{kCombinedLexicalShare});
  }
  return *combined;
}

std::string EmbedderPool::Describe() const {
  return choice_ == EmbedderChoice::kAuto ? "auto(combined|lexical)"
                                          : std::string(EmbedderChoiceName(choice_));
}

std::string EmbedderPool::ModelHash() {
  if (choice_ == EmbedderChoice::kUseLite) return For({"model hash"}).model_hash();
  // Every other choice has a lexical part, narrower above kLargeScopeSentences.
  const std::string large = ";above " + std::to_string(kLargeScopeSentences) +
                            " sentences lexical dim=" + std::to_string(kLargeScopeLexicalDim) +
                            ";above " + std::to_string(kHugeScopeSentences) +
                            " sentences lexical alone dim=" + std::to_string(kHugeScopeLexicalDim);
  if (choice_ == EmbedderChoice::kLexical) return LexicalEmbedder().model_hash() + large;
  // combined; auto takes combined for this Latin text, and the combined hash names both parts
  // (a = share, lexical hash, USE-lite hash).
  return For({"model hash"}).model_hash() + large;
}

namespace {
// Names a seed file in a run key by its file name and a hash of its content, never by its path:
// the same seeds give the same key on every machine and install prefix.
// The same for a data folder of word lists (fragments, polarity): "en.txt,zh.txt@<hash>".
std::string DataFilesKey(const std::vector<std::string>& paths) {
  std::string names;
  uint64_t h = kFnv1a64Offset;
  for (const std::string& path : paths) {
    const std::optional<std::string> bytes = ReadWholeFile(path);
    if (!bytes) throw ModelsError(path + ": cannot read this data file; run scripts/setup");
    h = Fnv1a64(*bytes, Fnv1a64(std::string_view("\0", 1), h));
    names += (names.empty() ? "" : ",") + std::filesystem::path(path).filename().string();
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return names + "@" + hex;
}

std::string SeedsKey(const std::string& path) {
  return path.empty() ? "none" : DataFilesKey({path});
}
}  // namespace

int64_t ParseFilterTime(std::string_view text, bool end_of_day) {
  const std::string shown(text);
  auto bad = [&]() -> std::invalid_argument {
    return std::invalid_argument("'" + TerminalSafe(shown) +
                                 "' is not a date YYYY-MM-DD or unix seconds");
  };
  auto digits = [](std::string_view t) {
    return !t.empty() &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (text.size() == 10 && text[4] == '-' && text[7] == '-' && digits(text.substr(0, 4)) &&
      digits(text.substr(5, 2)) && digits(text.substr(8, 2))) {
    const int y = std::stoi(std::string(text.substr(0, 4)));
    const unsigned m = static_cast<unsigned>(std::stoi(std::string(text.substr(5, 2))));
    const unsigned d = static_cast<unsigned>(std::stoi(std::string(text.substr(8, 2))));
    const std::chrono::year_month_day date{std::chrono::year(y), std::chrono::month(m),
                                           std::chrono::day(d)};
    if (!date.ok()) throw bad();
    const int64_t day = std::chrono::sys_days(date).time_since_epoch().count();
    return day * 86400 + (end_of_day ? 86399 : 0);
  }
  const std::string_view number = !text.empty() && text[0] == '-' ? text.substr(1) : text;
  if (!digits(number) || number.size() > 15) throw bad();
  return std::stoll(shown);
}

double ParseFilterRating(std::string_view text) {
  const std::string shown(text);
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(shown, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (shown.empty() || used != shown.size() || !std::isfinite(value) ||
      std::isspace(static_cast<unsigned char>(shown[0]))) {
    throw std::invalid_argument("'" + shown + "' is not a number");
  }
  return value;
}

RunOptions::Opinions ParseOpinionsChoice(std::string_view name) {
  if (name == "auto") return RunOptions::Opinions::kAuto;
  if (name == "default") return RunOptions::Opinions::kDefault;
  if (name == "none") return RunOptions::Opinions::kNone;
  throw std::invalid_argument("--opinions: '" + std::string(name) +
                              "' is not one of auto, default, none");
}

std::string RunKey(const RunOptions& o) {
  const ScorerOptions& sc = o.summarize.scorer;
  const SelectorOptions& se = o.summarize.selector;
  std::ostringstream key;
  key << "scopes=" << (o.review_scope ? "review," : "") << (o.product_scope ? "product" : "")
      << ";budget=" << o.summarize.budget.ToString()
      << ";embedder=" << EmbedderChoiceName(o.embedder)
      << ";tokenizer=" << EncodingName(o.tokenizer) << ";seeds=" << SeedsKey(o.summarize.seeds_path)
      << ";cjk_seeds=" << SeedsKey(o.cjk_seeds_path) << ";standardise=" << sc.standardise
      << ";z_tau=" << sc.z_temperature << ";relative_sim=" << se.relative_similarity
      << ";tau=" << sc.temperature << ";beta=" << sc.anchor_strength
      << ";consensus=" << sc.consensus_mix << ";centroid=" << sc.centroid_mix
      << ";exact=" << sc.max_exact_consensus << ";lambda=" << se.lambda
      << ";dup=" << se.duplicate_threshold << ";alpha=" << se.cost_exponent
      << ";min_words=" << se.min_words << ";max_share=" << se.max_budget_share
      << ";min_max=" << se.min_max_words << ";fill=" << se.fill_budget
      << ";fragments="
      // The lists choose points' faces even when the selector keeps fragments.
      << DataFilesKey({(ModelsDir() / "fragments" / "en.txt").string(),
                       (ModelsDir() / "fragments" / "zh.txt").string()})
      << (se.skip_fragments ? "" : ";fragments_kept")
      << ";polarity=" << DataFilesKey(PolarityLexicon::DefaultPaths())
      << ";points=" << kPointsVersion;
  if (o.summarize.salience_mix != 0) key << ";salience_mix=" << o.summarize.salience_mix;
  // Only a set filter is named, so unfiltered runs keep the keys (and incremental re-runs) of
  // runs made before filters existed.
  // The encoder's candidate count changes combined results (SummarizeOptions::dense_candidates).
  if (o.embedder != EmbedderChoice::kLexical && o.summarize.dense_candidates > 0) {
    key << ";dense=" << o.summarize.dense_candidates;
  }
  const ReviewFilter& f = o.filter;
  if (f.min_rating) key << ";min_rating=" << *f.min_rating;
  if (f.max_rating) key << ";max_rating=" << *f.max_rating;
  if (f.since) key << ";since=" << *f.since;
  if (f.until) key << ";until=" << *f.until;
  key << ";products=";
  std::vector<std::string> products = o.products;
  std::sort(products.begin(), products.end());
  for (const std::string& p : products) key << p << '\x1f';
  return key.str();
}

namespace {

// Drops from each review the sentences of a merchant's reply appended to it
// (FragmentRule::StartsReply: the shopping dump's "宾馆反馈 2008年7月2日 ： ..." hotel answers), so
// summaries and points read the reviewer's words only; the review itself still counts, and its
// text (what a summary's tokens_in measures) ends where the reply's first sentence begins.
void DropMerchantReplies(std::vector<StoredReview>* reviews, const FragmentRule& rule) {
  for (StoredReview& r : *reviews) {
    const size_t kept = rule.ReviewerSentenceCount(
        r.sentences, [](const StoredSentence& s) -> std::string_view { return s.text; });
    if (kept == r.sentences.size()) continue;
    // StoredSentence::begin counts code points; find its byte offset (the text is valid UTF-8).
    const int32_t cut = r.sentences[kept].begin;
    size_t byte = 0;
    for (int32_t points = 0; byte < r.text.size(); ++byte) {
      if ((static_cast<unsigned char>(r.text[byte]) & 0xC0) != 0x80 && points++ == cut) break;
    }
    r.text.resize(byte);
    r.sentences.resize(kept);
  }
}

// Collects the run's results and writes them; the run row is created with the head names of the
// first scored scope (product scopes have every head, so they fix the layout).
// A scope's summary as stored (all but run_id): the kept sentences joined, sizes in the budget's
// unit, and tokens when `tokens` is set. `source_text` is the scope's review texts, one per line:
// what token savings are measured on. Runs in the workers (thread-safe).
StoredSummary MakeSummary(const std::string& scope, const std::string& subject,
                          const std::vector<int64_t>& sentence_ids,
                          const std::vector<std::string>& texts, std::string_view source_text,
                          const ScopeSummary& result, const CostFunction& cost,
                          const std::string& unit, const std::string& embedder,
                          const TokenCounter* tokens) {
  StoredSummary summary;
  summary.scope = scope;
  summary.subject = subject;
  summary.unit = unit;
  summary.embedder = embedder;
  for (const std::string& t : texts) summary.units_in += static_cast<int64_t>(cost(t));
  summary.text = JoinSelected(result.selected);  // what a token budget was held on
  for (const Selected& s : result.selected) {
    summary.sentence_ids.push_back(sentence_ids[s.index]);
    summary.units_out += static_cast<int64_t>(s.cost);
  }
  if (tokens) {
    summary.tokenizer = std::string(EncodingName(tokens->encoding()));
    summary.tokens_in = static_cast<int64_t>(tokens->Count(source_text));
    summary.tokens_out = static_cast<int64_t>(tokens->Count(summary.text));
  }
  return summary;
}

class RunWriter {
 public:
  // `heads` is the layout of the rows already stored when `keep_results` (an incremental run);
  // new heads are appended to it.
  RunWriter(ReviewStore& store, RunInfo info, std::vector<std::string> heads, bool keep_results)
      : store_(store),
        info_(std::move(info)),
        heads_(std::move(heads)),
        keep_results_(keep_results) {}

  // Drops the stored product-scope results of `product` before it is written again.
  void DeleteProduct(const std::string& product) {
    Start({});
    WritePending();
    store_.runs().DeleteProductResults(*run_id_, product);
    store_.points().DeleteProductPoints(*run_id_, product);
  }

  // Writes the points of one product (points.h) after its scores.
  void WritePoints(const std::string& product, std::vector<StoredPoint> points) {
    Start({});
    points_.emplace_back(product, std::move(points));
  }

  // Writes the summaries and points held back by Write and WritePoints (they are written in
  // batches, each statement prepared once per batch); call before committing.
  void WritePending() {
    store_.runs().AddSummaries(summaries_);
    summaries_.clear();
    if (run_id_) store_.points().AddPointsOfProducts(*run_id_, points_);
    points_.clear();
  }

  // Writes one scope's scores (per-head weights laid out in the run's head order) and its summary
  // (made by MakeSummary; run_id is set here).
  void Write(const std::vector<int64_t>& sentence_ids, const Weights& weights,
             const std::vector<SentenceOpinion>& opinions, StoredSummary summary) {
    Start(weights.head_names);
    // Heads a scope has that earlier scopes lacked (consensus needs >= 2 sentences; seed sets
    // differ by language) are appended to the run's layout; earlier rows keep their prefix.
    std::vector<size_t> column(weights.head_names.size());
    for (size_t h = 0; h < column.size(); ++h) {
      const std::string& name = weights.head_names[h];
      auto at = std::find(heads_.begin(), heads_.end(), name);
      if (at == heads_.end()) {
        heads_.push_back(name);
        heads_changed_ = true;
        at = heads_.end() - 1;
      }
      column[h] = static_cast<size_t>(at - heads_.begin());
    }
    std::vector<ScoreRow> rows(sentence_ids.size());
    for (size_t i = 0; i < sentence_ids.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      rows[i].sentence_id = sentence_ids[i];
      rows[i].weight = weights.final(row);
      rows[i].head_weights.assign(heads_.size(), 0.0f);
      if (i < opinions.size()) {
        rows[i].opinion = opinions[i].score;
        rows[i].salience = opinions[i].salience;
      }
      for (size_t h = 0; h < column.size(); ++h) {
        rows[i].head_weights[column[h]] = weights.per_head(row, static_cast<Eigen::Index>(h));
      }
    }
    store_.runs().AddScores(*run_id_, summary.scope, rows);
    summary.run_id = *run_id_;
    summaries_.push_back(std::move(summary));
  }

  int64_t Finish() {
    Start({});
    WritePending();
    if (heads_changed_) store_.runs().SetRunHeads(*run_id_, heads_);
    store_.runs().FinishRun(*run_id_, info_.snapshot_review_id);
    return *run_id_;
  }

 private:
  // Creates (or restarts) the run row on first use; a fresh run takes the first scope's heads.
  void Start(const std::vector<std::string>& first_heads) {
    if (run_id_) return;
    if (heads_.empty()) heads_ = first_heads;
    run_id_ = store_.runs().BeginRun(info_, heads_, keep_results_);
    if (!keep_results_) store_.points().DeleteRunPoints(*run_id_);
  }

  ReviewStore& store_;
  RunInfo info_;
  std::optional<int64_t> run_id_;
  std::vector<std::string> heads_;
  bool keep_results_;
  bool heads_changed_ = false;
  std::vector<StoredSummary> summaries_;
  std::vector<std::pair<std::string, std::vector<StoredPoint>>> points_;
};

// The encoder's options for a run (RunOptions::use_lite, kProductRunCacheEntries).
UseLiteOptions RunUseLite(const RunOptions& options) {
  UseLiteOptions use_lite = options.use_lite;
  if (!options.review_scope) {
    use_lite.cache_entries = std::min(use_lite.cache_entries, kProductRunCacheEntries);
  }
  return use_lite;
}

}  // namespace

RunModels CheckRunNeeds(const RunOptions& options) {
  RunModels models;
  std::string error;
  // o200k_base too: the export's prompt counts with it whatever the run's tokenizer.
  if (options.tokenizer != Encoding::kO200kBase &&
      !TokenCounter::Load(Encoding::kO200kBase, &error)) {
    throw RunError(error);
  }
  models.tokens = TokenCounter::Load(options.tokenizer, &error);
  if (!models.tokens) throw RunError(error);
  RunKey(options);  // reads the seed files
  models.use_lite = std::make_shared<SharedUseLite>(RunUseLite(options));
  EmbedderPool(options.embedder, models.use_lite).ModelHash();  // loads the models it needs
  return models;
}

namespace {

// One product's work: its reviews, and which scopes to (re)compute.
struct ProductJob {
  size_t seq = 0;
  std::string product;
  std::vector<StoredReview> reviews;
  bool product_scope = false;
  bool review_scope = false;
  // Product scope: the product's reviews in the store (any filter), StoredSummary::reviews_covered.
  int64_t reviews_covered = 0;
  // Review scope: reviews that keep the summary an earlier (incremental) run gave them; null =
  // none does.
  const std::unordered_set<int64_t>* reviews_done = nullptr;
};

// One scope's result, ready to write.
struct ScopeResult {
  std::vector<int64_t> sentence_ids;
  Weights weights;
  std::vector<SentenceOpinion> opinions;  // row i: sentence_ids[i] (salience within its review)
  StoredSummary summary;                  // all but run_id
  size_t sentences = 0;
  std::vector<StoredPoint> points;  // product scope only (points.h)
};

// Per source path, the rating scale of its dump (schema 6: sources.rating_*).
using SourceScales = std::unordered_map<std::string, RatingScale>;

// The points of a product scope (points.h) as stored: `reviews` in scope order, `texts` and `ids`
// their sentences in order. Clusters on the USE-lite half of a combined embedding (the half that
// matches paraphrases).
std::vector<StoredPoint> ProductPoints(const std::vector<StoredReview>& reviews,
                                       const std::vector<std::string>& texts,
                                       const std::vector<int64_t>& ids, const ScopeSummary& result,
                                       const SelectorOptions& selector,
                                       const std::string& embedder_name,
                                       const PolarityLexicon& lexicon, const SourceScales& scales,
                                       const std::vector<SentenceOpinion>& opinions, float band) {
  PointsInput in;
  in.texts = &texts;
  for (const SentenceOpinion& o : opinions) {
    in.opinions.push_back(o.score);
    in.salience.push_back(o.salience);
  }
  in.opinion_band = band;
  in.review_count = reviews.size();
  // Ratings arrive normalised with their own dump's scale; the points stage maps [-1, 1] onto
  // itself.
  in.scale = RatingScale{-1, 1, RatingScale::Kind::kLinear};
  in.embeddings = &result.embeddings;
  in.weights = &result.weights;
  std::vector<int64_t> review_ids;
  for (size_t r = 0; r < reviews.size(); ++r) {
    std::optional<double> v;
    const auto scale = scales.find(reviews[r].source);
    if (reviews[r].rating && scale != scales.end()) v = scale->second.Normalise(*reviews[r].rating);
    in.ratings.push_back(v);
    review_ids.push_back(reviews[r].id);
    in.review_of.insert(in.review_of.end(), reviews[r].sentences.size(), r);
  }
  PointsOptions options;
  if (embedder_name == "combined") options.cluster_columns = kUseLiteDim;
  const std::shared_ptr<const FragmentRule> fragments = DefaultFragmentRule();
  // The selector already classified every sentence (ScopeSummary::fragments); when it used this
  // same rule, the points stage reads its verdicts instead of classifying again (a sentence's
  // verdict depends on its text alone, so a lookup by text is exact). Texts the map lacks are
  // classified here.
  std::unordered_map<std::string_view, bool> known;
  if (result.fragments.size() == texts.size() &&
      (!selector.fragment_rule || selector.fragment_rule == fragments)) {
    known.reserve(texts.size());
    for (size_t i = 0; i < texts.size(); ++i) {
      known.emplace(texts[i], result.fragments[i] != FragmentReason::kNone);
    }
  }
  options.is_fragment = [&fragments, &known](std::string_view t) {
    const auto it = known.find(t);
    return it != known.end() ? it->second : fragments->IsFragment(t);
  };
  std::vector<StoredPoint> out;
  for (const Point& p : ComputePoints(in, lexicon, options)) {
    StoredPoint s;
    s.idx = static_cast<int64_t>(out.size());
    s.text = p.text;
    s.sentence_id = ids[p.representative];
    s.review_id = review_ids[in.review_of[p.representative]];
    s.polarity = std::string(PolarityName(p.polarity));
    s.support = static_cast<int64_t>(p.support);
    s.share = p.share;
    s.aspect = p.aspect;
    s.weight = p.weight;
    for (const PointMember& m : p.members) {
      s.members.push_back({ids[m.index], review_ids[in.review_of[m.index]], m.similarity});
    }
    out.push_back(std::move(s));
  }
  return out;
}

struct ProductResult {
  size_t seq = 0;
  bool sampled = false;  // summarised from SampleReviews
  std::vector<ScopeResult> scopes;
};

size_t SentenceCount(const std::vector<StoredReview>& reviews) {
  size_t n = 0;
  for (const StoredReview& r : reviews) n += r.sentences.size();
  return n;
}

// The reviews a product above kMaxScopeSentences is summarised from (see there): each review cut
// to its first kMaxSampledReviewSentences sentences, then every k-th review for an evenly spaced
// subset of at most kMaxScopeSentences sentences. Deterministic.
std::vector<StoredReview> SampleReviews(const std::vector<StoredReview>& reviews) {
  size_t total = 0;
  for (const StoredReview& r : reviews) {
    total += std::min(r.sentences.size(), kMaxSampledReviewSentences);
  }
  const double keep = std::min(1.0, static_cast<double>(kMaxScopeSentences) / total);
  std::vector<StoredReview> out;
  size_t sentences = 0;
  for (size_t i = 0; i < reviews.size(); ++i) {
    // Review i is taken when the running quota floor((i + 1) keep) steps up.
    if (std::floor((i + 1) * keep) == std::floor(i * keep)) continue;
    const size_t n = std::min(reviews[i].sentences.size(), kMaxSampledReviewSentences);
    if (sentences + n > kMaxScopeSentences) break;
    const StoredReview& r = reviews[i];
    out.push_back({r.id,
                   r.product,
                   r.external_id,
                   r.citation,
                   r.source,
                   r.line,
                   r.rating,
                   r.title,
                   r.text,
                   {r.sentences.begin(), r.sentences.begin() + static_cast<std::ptrdiff_t>(n)}});
    sentences += n;
  }
  return out;
}

// What embedding and scoring `sentences` sentences with `embedder` (EmbedderPool::For's for
// them) holds at its peak, estimated: the embedding matrix three times over, plus, with USE-lite,
// what any scope holds while it runs (its workspace grows to ~32 MB, kept for reuse). Three was
// measured when a scope held both combined parts beside the output and the points a dense copy;
// since 1d6f62c and 287cfa9 it is conservative (the largest hotel alone: 754 -> 615 MB with the
// default embedder), and the whole TripAdvisor dump's peak (939 MB) was measured with it. Measured
// with the default embedder, one TripAdvisor hotel alone (`summarize --threads 1 --product`, peak
// RSS above that of a 200-sentence hotel): 3,039 sentences 93 MiB (this estimate 192), 6,086: 180
// (353), 13,408: 171 (739), 25,066: 297 (1,354). Half the factor (1.5) lets two hotels of up to
// ~6,000 sentences run together instead of ~3,000, but gained nothing: on the first 50,000
// reviews, `EMBEDDER=auto bench/compare_summarize.sh` (2 rounds) wall 0.987, user time 1.060
// (two scorers at once run slower than one scorer beside a helping encoder).
size_t EstimatedScopeBytes(size_t sentences, const Embedder& embedder) {
  const size_t per_scope = embedder.name() != "lexical" ? size_t{32} << 20 : 0;
  return per_scope + sentences * static_cast<size_t>(embedder.dim()) * sizeof(float) * 3;
}

}  // namespace

namespace {

// SummarizeStore's run, as named steps (the shape of Merger::Run, merge.cc): a planner (what the
// run reads and what it re-scores), workers (embed, score, select, points per product) and an
// ordered writer on this thread (results written in product order, so the store is the same
// whatever the thread count).
class StoreSummarizer {
 public:
  StoreSummarizer(ReviewStore& store, const RunOptions& options)
      : store_(store),
        options_(options),
        summarize_(options.summarize),
        shared_use_lite_(options.models.use_lite
                             ? options.models.use_lite
                             : std::make_shared<SharedUseLite>(RunUseLite(options))) {}

  RunReport Run() {
    LoadScoringData();
    ListProducts();
    ChooseOpinions();
    DescribeRun();
    PlanRescoring();
    writer_.emplace(store_, info_, previous_heads_, incremental_);
    StartWorkers();
    try {
      FeedAndWrite();
    } catch (...) {
      Fail(std::current_exception());
    }
    jobs_->Cancel();
    for (auto& w : workers_) w.join();
    if (failure_) {
      store_.Rollback();
      std::rethrow_exception(failure_);
    }
    CheckSomethingWasSummarised();
    report_.run_id = writer_->Finish();
    return report_;
  }

 private:
  // Reviews are read in batches of products (kReadBatchProducts, at most kReadBatchReviews
  // reviews unless one product alone has more): two queries per batch instead of two per product.
  static constexpr size_t kReadBatchProducts = 256;
  static constexpr int64_t kReadBatchReviews = 20000;
  // Writes are committed at most every kCommitEvery, and before this thread waits for a worker
  // longer than what is left of that interval: the write lock is never held much longer than
  // kCommitEvery, so a concurrent ingest waits at most about that, not the length of the run. A
  // commit per product (or before every short wait for a small product, which with one worker is
  // every product) writes the same B-tree pages to the WAL again and again: it was half of this
  // thread's time on 27,000 one-to-four-review products. The scores index takes each product's
  // rows at scattered places, so a longer interval writes each touched page once for more rows:
  // 1 s instead of 0.1 s wrote 0.59 instead of 1.33 M blocks on 100,000 reviews in 20-review
  // products (a concurrent ingest waits up to about 1 s, well within the 10 s busy timeout).
  static constexpr auto kCommitEvery = std::chrono::milliseconds(1000);

  // Step 1: the tokenizer (token counts of summaries; token budgets cannot do without it), the
  // seeds, the polarity word lists and each dump's rating scale — a property of the dump, so a
  // shard store and a merged store read a rating alike.
  void LoadScoringData() {
    std::string token_error;
    if (options_.models.tokens) {
      tokens_ = options_.models.tokens;
    } else {
      tokens_ = TokenCounter::Load(options_.tokenizer, &token_error);
    }
    if (summarize_.budget.unit == Budget::Unit::kTokens) {
      if (!tokens_) throw RunError(token_error);
      std::shared_ptr<TokenCounter> tokens = tokens_;
      summarize_.token_cost = [tokens](std::string_view t) { return tokens->Count(t); };
      cost_ = summarize_.token_cost;
      unit_ = std::string(EncodingName(options_.tokenizer));
    }
    seeds_ = summarize_.seeds_path.empty() ? SeedSet{} : LoadSeeds(summarize_.seeds_path);
    lexicon_ = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
    for (const auto& [path, range] : store_.reviews().SourceRatings()) {
      scales_[path] = DetectRatingScale(range.min, range.max, range.labels_only,
                                        {range.count, range.stars, range.tenths});
    }
    cjk_seeds_ = options_.cjk_seeds_path.empty() ? seeds_ : LoadSeeds(options_.cjk_seeds_path);
  }

  // Seeds by the scope's language: CJK scopes take cjk_seeds_path (when set).
  const SeedSet& SeedsFor(const std::vector<std::string>& texts) const {
    if (options_.cjk_seeds_path.empty()) return seeds_;
    return MostlyCjk(texts) ? cjk_seeds_ : seeds_;
  }

  // Step 2: one consistent snapshot, the reviews stored when the run starts (ingest only appends,
  // so a concurrent ingest adds reviews above this id and the run never sees half of them), and
  // the products with at least one review in it that passes the filter, with the number of such
  // reviews (to size the batches read).
  void ListProducts() {
    snapshot_ = store_.reviews().MaxReviewId();
    std::vector<std::pair<std::string, int64_t>> counts =
        store_.reviews().ProductReviewCounts(snapshot_, options_.filter);
    if (options_.products.empty()) {
      for (auto& [key, n] : counts) {
        products_.push_back(std::move(key));
        review_counts_.push_back(n);
      }
      return;
    }
    for (const std::string& p : options_.products) {
      if (!store_.reviews().HasProduct(p))
        throw RunError("no product '" + p + "' in " + store_.path());
      const auto at = std::lower_bound(counts.begin(), counts.end(), p,
                                       [](const std::pair<std::string, int64_t>& c,
                                          const std::string& k) { return c.first < k; });
      products_.push_back(p);
      review_counts_.push_back(at != counts.end() && at->first == p ? at->second : 0);
    }
  }

  // Step 3: the opinion model (train.h): chosen, or trained on the store's ratings.
  void ChooseOpinions() {
    if (options_.opinions == RunOptions::Opinions::kDefault) {
      opinion_ = DefaultOpinion();
    } else if (options_.opinions == RunOptions::Opinions::kAuto) {
      opinion_ = ChooseOpinionModel(store_, true);
#ifdef __GLIBC__
      // Training a model here (a store without one) frees its features on this thread, but the
      // workers allocate from their own arenas: give the freed pages back first (peak RSS of
      // --embedder lexical on the first 50,000 TripAdvisor reviews, 1 thread: 804 -> 755 MB;
      // 610 MB when the store already had its model).
      malloc_trim(0);
#endif
    }
    if (opinion_) summarize_.opinions = &opinion_->model;
  }

  // Step 4: the run's key, models and parameters, as stored in `runs`.
  void DescribeRun() {
    info_.key = RunKey(options_) + ";opinion=" + (opinion_ ? opinion_->hash : "none");
    info_.snapshot_review_id = snapshot_;
    {
      EmbedderPool pool(options_.embedder, shared_use_lite_);
      info_.embedder = pool.Describe();
      info_.model_hash = pool.ModelHash();
    }
    std::ostringstream params;
    params << "{\"budget\":" << JsonQuote(summarize_.budget.ToString()) << ",\"scopes\":"
           << JsonQuote(std::string(options_.review_scope ? "review " : "") +
                        (options_.product_scope ? "product" : ""))
           << ",\"embedder\":" << JsonQuote(EmbedderChoiceName(options_.embedder))
           << ",\"tokenizer\":" << JsonQuote(EncodingName(options_.tokenizer))
           << ",\"products\":" << (options_.products.empty() ? 0 : options_.products.size())
           << ",\"opinion_model\":"
           << JsonQuote(opinion_ ? opinion_->description : "none (word lists)")
           << ",\"key\":" << JsonQuote(info_.key) << "}";
    info_.params_json = params.str();
  }

  // Step 5, incremental: a finished run with the same key (same parameters, same models) stays
  // valid for every product whose summary covered exactly the reviews the product has now
  // (summaries.reviews_covered); the others are re-scored: a product with new reviews, one the
  // run never summarised, one a merge gave reviews another shard's run read (merge.h). A summary
  // made before schema 9 (no coverage) falls back to the run's snapshot: re-scored when the
  // product has a review above it. Reviews never change once stored, so their review-scope
  // summaries stay valid too; a review without one gets one. Fills todo_.
  void PlanRescoring() {
    std::optional<RunInfo> previous = store_.runs().FindRun(info_.key);
    incremental_ = options_.incremental && previous && !previous->finished_at.empty() &&
                   previous->snapshot_review_id > 0 && previous->model_hash == info_.model_hash;
    for (auto& [key, n] : store_.reviews().ProductReviewCounts(snapshot_, ReviewFilter{})) {
      all_reviews_[key] = n;
    }
    std::vector<bool> recompute(products_.size(), true);
    if (incremental_) {
      const std::vector<std::string> changed =
          store_.reviews().ProductsChangedSince(previous->snapshot_review_id, snapshot_);
      const auto covered = store_.runs().ProductCoverage(previous->id);
      for (size_t p = 0; p < products_.size(); ++p) {
        const auto c = covered.find(products_[p]);
        if (c == covered.end()) continue;  // never summarised: re-score
        recompute[p] = c->second ? *c->second != all_reviews_[products_[p]]
                                 : std::binary_search(changed.begin(), changed.end(), products_[p]);
      }
      if (options_.review_scope) reviews_done_ = store_.runs().ReviewsSummarised(previous->id);
    }
    report_.embedder = info_.embedder;
    report_.opinion_model = opinion_ ? opinion_->description : "none (word lists)";
    if (opinion_ && opinion_->training && !opinion_->training->trained) {
      report_.opinion_notice = opinion_->training->notice;
    }
    for (size_t p = 0; p < products_.size(); ++p) {
      if (recompute[p]) {
        todo_.push_back(p);
      } else {
        ++report_.products_reused;
      }
    }
    if (incremental_) previous_heads_ = store_.runs().RunHeadNames(previous->id);
  }

  // Step 6: the workers. Products run in parallel, each on one worker (one USE-lite model shared
  // by all), and a worker with no product to start runs batches of the others' encoder calls
  // (NextJob, the memory budget's wait, the run's end). Merchants' replies are dropped, on this
  // thread before a product's size is judged, with the other text that is not a reviewer's point
  // (fragments; kept with skip_fragments off).
  void StartWorkers() {
    threads_ = options_.threads > 0
                   ? options_.threads
                   : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    threads_ = std::min<int>(
        {threads_, kMaxRunThreads, static_cast<int>(std::max<size_t>(todo_.size(), 1))});
    // A worker's encoder calls take one thread (and the idle workers' help). A single worker's
    // take the threads the run may use (--threads 1 is one core; 0, all cores).
    shared_use_lite_->SetThreads(threads_ > 1           ? 1
                                 : options_.threads > 0 ? options_.threads
                                                        : options_.use_lite.threads);
    jobs_.emplace(static_cast<size_t>(threads_));
    results_.emplace(static_cast<size_t>(threads_) * 2);
    reply_rule_ = !summarize_.selector.skip_fragments ? nullptr
                  : summarize_.selector.fragment_rule ? summarize_.selector.fragment_rule
                                                      : DefaultFragmentRule();
    StartThreads(
        &workers_, threads_, std::to_string(threads_) + " summarize threads",
        [this](int) { WorkerLoop(); },
        [this](size_t) {
          jobs_->Cancel();
          results_->Cancel();
        });
  }

  void Fail(std::exception_ptr e) {
    {
      std::lock_guard lock(failure_mu_);
      if (!failure_) failure_ = e;
    }
    jobs_->Cancel();
    results_->Cancel();
  }

  // A worker: products from jobs_ to results_ until the queue closes or the run fails.
  void WorkerLoop() {
    ++busy_workers_;
    try {
      EmbedderPool pool(options_.embedder, shared_use_lite_);
      const CostFunction worker_cost = unit_ == "words" ? BudgetWordCost() : cost_;
      while (auto job = NextJob()) {
        ProductResult out;
        out.seq = job->seq;
        if (job->product_scope) {
          out.sampled = SentenceCount(job->reviews) > kMaxScopeSentences;
          SummarizeScopeOf(*job, "product", job->product,
                           out.sampled ? SampleReviews(job->reviews) : job->reviews, nullptr, pool,
                           worker_cost, out);
        }
        for (const StoredReview& review : job->reviews) {
          if (job->review_scope && !(job->reviews_done && job->reviews_done->count(review.id))) {
            SummarizeScopeOf(*job, "review", std::to_string(review.id), job->reviews, &review, pool,
                             worker_cost, out);
          }
        }
        if (!results_->Push(std::move(out))) break;  // cancelled
      }
    } catch (...) {
      Fail(std::current_exception());
    }
    --busy_workers_;
    // No product left: the core goes to the encoders of the workers still busy (the run's last
    // products), until none is.
    while (busy_workers_.load() > 0) {
      if (!HelpEncoder()) std::this_thread::sleep_for(MemoryBudget::kHelpPoll);
    }
  }

  // Runs a batch of another worker's encoder call, if any (SharedUseLite::HelpOnce); false
  // without one, and always in a run that cannot load USE-lite.
  bool HelpEncoder() { return uses_use_lite_ && shared_use_lite_->HelpOnce(); }

  // The next product for a worker; while none is queued (behind a product that runs alone, or
  // while the writer waits for a slow one) the worker helps the encoders of the others. Nullopt
  // once the queue is closed and drained.
  std::optional<ProductJob> NextJob() {
    while (true) {
      if (std::optional<ProductJob> job = jobs_->TryPop()) return job;
      if (HelpEncoder()) continue;
      std::optional<ProductJob> job =
          jobs_->PopUntil(std::chrono::steady_clock::now() + MemoryBudget::kHelpPoll);
      if (job || jobs_->Drained()) return job;
    }
  }

  // One scope of a product (`only` null) or of one review: embed, score, select, the sentences'
  // opinions and, for a product, its points; appended to `out`.
  void SummarizeScopeOf(const ProductJob& job, const std::string& scope, const std::string& subject,
                        const std::vector<StoredReview>& reviews, const StoredReview* only,
                        EmbedderPool& pool, const CostFunction& worker_cost, ProductResult& out) {
    std::vector<std::string> texts;
    std::vector<int64_t> ids;
    std::string source_text;
    for (const StoredReview& review : reviews) {
      if (only && &review != only) continue;
      for (const StoredSentence& s : review.sentences) {
        texts.push_back(s.text);
        ids.push_back(s.id);
      }
      (source_text += review.text) += only ? "" : "\n";
    }
    if (texts.empty()) return;
    Embedder& embedder = pool.For(texts);
    // While a worker waits for the budget, it runs batches of the encoders that hold it: a scope
    // that holds most of the budget (or all of it, running alone: 28 % of the TripAdvisor dump's
    // sentences are in such hotels) gets the waiting workers' cores as well.
    const MemoryBudget::Hold hold(budget_, EstimatedScopeBytes(texts.size(), embedder),
                                  [this] { return HelpEncoder(); });
    ScopeSummary result =
        SummarizeScope(texts, scope == "product" ? Scope::kProduct : Scope::kReview, summarize_,
                       SeedsFor(texts), embedder);
    ScopeResult r;
    // Each review's sentences scored together: salience is their share of its verdict; the
    // stored score is the model's with the word lists as a prior (CombineWithWordLists).
    for (const StoredReview& review : reviews) {
      if (!opinion_ || (only && &review != only)) continue;
      std::vector<std::string> sentences;
      for (const StoredSentence& s : review.sentences) sentences.push_back(s.text);
      std::vector<SentenceOpinion> o = opinion_->model.Score(sentences);
      for (size_t i = 0; i < o.size(); ++i) {
        const int words = lexicon_.Score(sentences[i]);
        o[i].score = CombineWithWordLists(o[i].score, (words > 0) - (words < 0));
      }
      r.opinions.insert(r.opinions.end(), o.begin(), o.end());
    }
    r.summary = MakeSummary(scope, subject, ids, texts, source_text, result, worker_cost, unit_,
                            embedder.name(), tokens_.get());
    if (scope == "product") r.summary.reviews_covered = job.reviews_covered;
    if (scope == "product") {
      r.points =
          ProductPoints(reviews, texts, ids, result, summarize_.selector, embedder.name(), lexicon_,
                        scales_, r.opinions, opinion_ ? opinion_->model.band() : 0.0f);
    }
    r.sentence_ids = std::move(ids);
    r.weights = std::move(result.weights);
    r.sentences = texts.size();
    out.scopes.push_back(std::move(r));
  }

  // Step 7, on this thread: reads each product's reviews, hands them to the workers and writes
  // their results in product order. A product above kHugeScopeSentences waits for the others to
  // finish and runs alone, so memory stays that of one product.
  void FeedAndWrite() {
    last_commit_ = std::chrono::steady_clock::now();
    for (size_t k = 0; k < todo_.size() && !failure_; ++k) {
      if (k >= batch_first_ + batch_.size()) ReadBatch(k);
      ProductJob job;
      job.seq = k;
      job.product = products_[todo_[k]];
      job.reviews = std::move(batch_[k - batch_first_]);
      if (reply_rule_) DropMerchantReplies(&job.reviews, *reply_rule_);
      job.product_scope = options_.product_scope;
      job.reviews_covered = all_reviews_[job.product];
      job.review_scope = options_.review_scope;
      if (incremental_) job.reviews_done = &reviews_done_;
      const bool huge = SentenceCount(job.reviews) > kHugeScopeSentences;
      while (in_flight_ > 0 && (huge || in_flight_ >= static_cast<size_t>(threads_) * 2)) {
        if (!WriteReady(true)) break;
      }
      ++in_flight_;
      if (!jobs_->Push(std::move(job))) break;
      if (huge) {
        while (in_flight_ > 0 && WriteReady(true)) {
        }
      }
    }
    jobs_->Close();
    while (in_flight_ > 0 && WriteReady(true)) {
    }
    Commit();
  }

  // The reviews of the products todo_[k...] that make the next batch.
  void ReadBatch(size_t k) {
    std::vector<std::string> keys;
    int64_t reviews = 0;
    for (size_t j = k; j < todo_.size() && keys.size() < kReadBatchProducts; ++j) {
      const int64_t n = review_counts_[todo_[j]];
      if (!keys.empty() && reviews + n > kReadBatchReviews) break;
      keys.push_back(products_[todo_[j]]);
      reviews += n;
    }
    batch_ = store_.reviews().GetProductsReviews(keys, snapshot_, options_.filter);
    batch_first_ = k;
  }

  void Commit() {
    writer_->WritePending();
    store_.Flush();
    last_commit_ = std::chrono::steady_clock::now();
    if (options_.progress && reported_ != next_write_) {
      reported_ = next_write_;
      options_.progress(report_.products_reused + next_write_, products_.size());
    }
  }

  // Writes every result that is next in product order; with `wait`, first waits for one result
  // (committing when the wait would outlast kCommitEvery). False when the workers are done or
  // cancelled.
  bool WriteReady(bool wait) {
    if (wait) {
      std::optional<ProductResult> r = results_->PopUntil(last_commit_ + kCommitEvery);
      if (!r) {
        Commit();
        r = results_->Pop();
      }
      if (!r) return false;
      pending_.emplace(r->seq, std::move(*r));
    }
    for (auto it = pending_.find(next_write_); it != pending_.end();
         it = pending_.find(next_write_)) {
      const size_t p = todo_[it->first];
      if (incremental_) writer_->DeleteProduct(products_[p]);
      for (ScopeResult& r : it->second.scopes) {
        ++(r.summary.scope == "product" ? report_.product_summaries : report_.review_summaries);
        report_.sentences_scored += r.sentences;
        const std::string subject = r.summary.subject;
        writer_->Write(r.sentence_ids, r.weights, r.opinions, std::move(r.summary));
        if (!r.points.empty()) writer_->WritePoints(subject, std::move(r.points));
      }
      ++report_.products_rescored;
      report_.products_sampled += it->second.sampled;
      pending_.erase(it);
      ++next_write_;
      --in_flight_;
      if (std::chrono::steady_clock::now() - last_commit_ > kCommitEvery) Commit();
    }
    return true;
  }

  void CheckSomethingWasSummarised() const {
    if (incremental_ || report_.product_summaries + report_.review_summaries > 0) return;
    if (!options_.filter.empty()) {
      throw RunError(store_.path() +
                     ": nothing to summarise: no review of the chosen products passes "
                     "the rating and date filter");
    }
    throw RunError(store_.path() + ": nothing to summarise (no sentences in the chosen " +
                   "products); ingest reviews first");
  }

  ReviewStore& store_;
  const RunOptions& options_;
  SummarizeOptions summarize_;
  // Step 1.
  std::shared_ptr<TokenCounter> tokens_;
  std::string unit_ = "words";
  CostFunction cost_ = BudgetWordCost();
  SeedSet seeds_, cjk_seeds_;
  PolarityLexicon lexicon_;
  SourceScales scales_;
  // Steps 2-5.
  int64_t snapshot_ = 0;
  std::vector<std::string> products_;
  std::vector<int64_t> review_counts_;
  std::optional<ChosenOpinionModel> opinion_;
  RunInfo info_;
  bool incremental_ = false;
  std::unordered_map<std::string, int64_t> all_reviews_;  // per product, whatever the filter
  std::unordered_set<int64_t> reviews_done_;
  std::vector<std::string> previous_heads_;
  std::vector<size_t> todo_;  // indexes into products_ to (re)score, in order
  RunReport report_;
  std::optional<RunWriter> writer_;
  // Step 6.
  int threads_ = 1;
  std::atomic<int> busy_workers_{0};  // workers started and still taking products
  const bool uses_use_lite_ = options_.embedder != EmbedderChoice::kLexical;
  std::optional<BoundedQueue<ProductJob>> jobs_;
  std::optional<BoundedQueue<ProductResult>> results_;
  std::mutex failure_mu_;
  std::exception_ptr failure_;
  std::shared_ptr<const FragmentRule> reply_rule_;
  std::shared_ptr<SharedUseLite> shared_use_lite_;
  MemoryBudget budget_{options_.memory_budget};
  std::vector<std::thread> workers_;
  // Step 7.
  std::vector<std::vector<StoredReview>> batch_;
  size_t batch_first_ = 0;
  std::map<size_t, ProductResult> pending_;
  size_t next_write_ = 0, in_flight_ = 0;
  std::chrono::steady_clock::time_point last_commit_;
  size_t reported_ = 0;
};

}  // namespace

RunReport SummarizeStore(ReviewStore& store, const RunOptions& options) {
  return StoreSummarizer(store, options).Run();
}

}  // namespace revsum
