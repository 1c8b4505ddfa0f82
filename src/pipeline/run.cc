#include "revsum/run.h"
#include "revsum/json.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include "revsum/combined.h"
#include "revsum/lexical.h"
#include "revsum/text.h"

namespace revsum {

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

EmbedderPool::EmbedderPool(EmbedderChoice choice, UseLiteOptions use_lite)
    : choice_(choice), use_lite_options_(std::move(use_lite)) {}

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
  if (!use_lite_) use_lite_ = UseLiteEmbedder::Load(use_lite_options_);
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
std::string SeedsKey(const std::string& path) {
  if (path.empty()) return "none";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the seed sentences");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::filesystem::path(path).filename().string() + "@" + hex;
}
}  // namespace

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
      << ";min_max=" << se.min_max_words << ";fill=" << se.fill_budget << ";products=";
  std::vector<std::string> products = o.products;
  std::sort(products.begin(), products.end());
  for (const std::string& p : products) key << p << '\x1f';
  return key.str();
}

namespace {

// Collects the run's results and writes them; the run row is created with the head names of the
// first scored scope (product scopes have every head, so they fix the layout).
class RunWriter {
 public:
  // `tokens` (may be null) counts the LLM tokens of each summary and its input.
  RunWriter(ReviewStore& store, RunInfo info, const TokenCounter* tokens)
      : store_(store), info_(std::move(info)), tokens_(tokens) {}

  // `source_text` is the scope's review texts, one per line: what token savings are measured on.
  void Write(const std::string& scope, const std::string& subject,
             const std::vector<int64_t>& sentence_ids, const std::vector<std::string>& texts,
             std::string_view source_text, const ScopeSummary& result, const CostFunction& cost,
             const std::string& unit, const std::string& embedder) {
    if (!run_id_) {
      heads_ = result.weights.head_names;
      run_id_ = store_.BeginRun(info_, heads_);
    }
    // Heads a scope has that earlier scopes lacked (consensus needs >= 2 sentences; seed sets
    // differ by language) are appended to the run's layout; earlier rows keep their prefix.
    std::vector<size_t> column(result.weights.head_names.size());
    for (size_t h = 0; h < column.size(); ++h) {
      const std::string& name = result.weights.head_names[h];
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
      rows[i].weight = result.weights.final(row);
      rows[i].head_weights.assign(heads_.size(), 0.0f);
      for (size_t h = 0; h < column.size(); ++h) {
        rows[i].head_weights[column[h]] =
            result.weights.per_head(row, static_cast<Eigen::Index>(h));
      }
    }
    store_.AddScores(*run_id_, scope, rows);
    StoredSummary summary;
    summary.run_id = *run_id_;
    summary.scope = scope;
    summary.subject = subject;
    summary.unit = unit;
    summary.embedder = embedder;
    for (const std::string& t : texts) summary.units_in += static_cast<int64_t>(cost(t));
    for (const Selected& s : result.selected) {
      if (!summary.text.empty()) summary.text += ' ';
      summary.text += s.text;
      summary.sentence_ids.push_back(sentence_ids[s.index]);
      summary.units_out += static_cast<int64_t>(s.cost);
    }
    if (tokens_) {
      summary.tokenizer = std::string(EncodingName(tokens_->encoding()));
      summary.tokens_in = static_cast<int64_t>(tokens_->Count(source_text));
      summary.tokens_out = static_cast<int64_t>(tokens_->Count(summary.text));
    }
    store_.AddSummary(summary);
  }

  // REQUIRES: at least one Write().
  int64_t Finish() {
    if (heads_changed_) store_.SetRunHeads(*run_id_, heads_);
    store_.FinishRun(*run_id_);
    return *run_id_;
  }

 private:
  ReviewStore& store_;
  RunInfo info_;
  const TokenCounter* tokens_;
  std::optional<int64_t> run_id_;
  std::vector<std::string> heads_;
  bool heads_changed_ = false;
};

}  // namespace

void CheckRunNeeds(const RunOptions& options) {
  std::string error;
  for (Encoding encoding : {Encoding::kO200kBase, options.tokenizer}) {
    if (!TokenCounter::Load(encoding, &error)) throw std::runtime_error(error);
  }
  RunKey(options);                                               // reads the seed files
  EmbedderPool(options.embedder, options.use_lite).ModelHash();  // loads the models it needs
}

RunReport SummarizeStore(ReviewStore& store, const RunOptions& options) {
  SummarizeOptions summarize = options.summarize;
  std::shared_ptr<TokenCounter> tokens;
  std::string unit = "words";
  CostFunction cost = BudgetWordCost();
  // Token counts of summaries need the tokenizer's data; token budgets cannot do without it.
  std::string token_error;
  tokens = TokenCounter::Load(options.tokenizer, &token_error);
  if (summarize.budget.unit == Budget::Unit::kTokens) {
    if (!tokens) throw std::runtime_error(token_error);
    summarize.token_cost = [tokens](std::string_view t) { return tokens->Count(t); };
    cost = summarize.token_cost;
    unit = std::string(EncodingName(options.tokenizer));
  }
  // Seeds by the scope's language: CJK scopes take cjk_seeds_path (when set).
  const SeedSet seeds = summarize.seeds_path.empty() ? SeedSet{} : LoadSeeds(summarize.seeds_path);
  const SeedSet cjk_seeds =
      options.cjk_seeds_path.empty() ? seeds : LoadSeeds(options.cjk_seeds_path);
  auto seeds_for = [&](const std::vector<std::string>& texts) -> const SeedSet& {
    if (options.cjk_seeds_path.empty()) return seeds;
    return MostlyCjk(texts) ? cjk_seeds : seeds;
  };

  // One consistent snapshot: the reviews stored when the run starts. Ingest only appends, so a
  // concurrent ingest adds reviews above this id and the run never sees half of them.
  const int64_t snapshot = store.MaxReviewId();
  std::vector<std::string> products = options.products;
  if (products.empty()) {
    products = store.Products(snapshot);
  } else {
    for (const std::string& p : products) {
      if (!store.HasProduct(p))
        throw std::runtime_error("no product '" + p + "' in " + store.path());
    }
  }

  EmbedderPool pool(options.embedder, options.use_lite);
  RunInfo info;
  info.key = RunKey(options);
  info.snapshot_review_id = snapshot;
  info.embedder = pool.Describe();
  info.model_hash = pool.ModelHash();
  std::ostringstream params;
  params << "{\"budget\":" << JsonQuote(summarize.budget.ToString()) << ",\"scopes\":"
         << JsonQuote(std::string(options.review_scope ? "review " : "") +
                      (options.product_scope ? "product" : ""))
         << ",\"embedder\":" << JsonQuote(EmbedderChoiceName(options.embedder))
         << ",\"tokenizer\":" << JsonQuote(EncodingName(options.tokenizer))
         << ",\"products\":" << (options.products.empty() ? 0 : options.products.size())
         << ",\"key\":" << JsonQuote(info.key) << "}";
  info.params_json = params.str();

  RunWriter writer(store, info, tokens.get());
  RunReport report;
  report.embedder = info.embedder;
  for (size_t p = 0; p < products.size(); ++p) {
    const std::vector<StoredReview> reviews = store.GetProductReviews(products[p], snapshot);
    if (options.product_scope) {
      std::vector<std::string> texts;
      std::vector<int64_t> ids;
      for (const StoredReview& r : reviews) {
        for (const StoredSentence& s : r.sentences) {
          texts.push_back(s.text);
          ids.push_back(s.id);
        }
      }
      if (!texts.empty()) {
        Embedder& embedder = pool.For(texts);
        ScopeSummary result =
            SummarizeScope(texts, Scope::kProduct, summarize, seeds_for(texts), embedder);
        std::string source;
        for (const StoredReview& r : reviews) (source += r.text) += '\n';
        writer.Write("product", products[p], ids, texts, source, result, cost, unit,
                     embedder.name());
        ++report.product_summaries;
        report.sentences_scored += texts.size();
      }
    }
    if (options.review_scope) {
      for (const StoredReview& r : reviews) {
        if (r.sentences.empty()) continue;
        std::vector<std::string> texts;
        std::vector<int64_t> ids;
        for (const StoredSentence& s : r.sentences) {
          texts.push_back(s.text);
          ids.push_back(s.id);
        }
        Embedder& embedder = pool.For(texts);
        ScopeSummary result =
            SummarizeScope(texts, Scope::kReview, summarize, seeds_for(texts), embedder);
        writer.Write("review", std::to_string(r.id), ids, texts, r.text, result, cost, unit,
                     embedder.name());
        ++report.review_summaries;
        report.sentences_scored += texts.size();
      }
    }
    if (options.progress) options.progress(p + 1, products.size());
  }
  if (report.product_summaries + report.review_summaries == 0) {
    throw std::runtime_error(store.path() + ": nothing to summarise (no sentences in the chosen " +
                             "products); ingest reviews first");
  }
  report.run_id = writer.Finish();
  return report;
}

}  // namespace revsum
