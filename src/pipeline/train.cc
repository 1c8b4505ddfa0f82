// A store's own opinion model (train.h).
#include "revsum/train.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <unordered_map>

#include "revsum/hash.h"
#include "revsum/json.h"
#include "revsum/points.h"

namespace revsum {
namespace {

constexpr size_t kReadBatchProducts = 256;

struct HeldOutExample {
  std::string source;
  OpinionExample example;
  int lexicon_sign = 0;         // sign of the summed word-list scores of its sentences
  std::vector<int> word_signs;  // each sentence's word-list sign
};

// EvaluateOpinions with each sentence's score combined with its word-list sign.
void AddCombined(OpinionEvaluation* ev, const OpinionModel& model, const HeldOutExample& h) {
  std::vector<SentenceOpinion> o = model.ScoreFeatures(h.example.sentences);
  for (size_t i = 0; i < o.size(); ++i)
    o[i].score = CombineWithWordLists(o[i].score, h.word_signs[i]);
  const double r = OpinionModel::Verdict(o);
  const float target = h.example.target;
  if (target == 0) return;
  ++ev->examples;
  const bool right = (r > 0 && target > 0) || (r < 0 && target < 0);
  ev->correct += right;
  if (std::abs(r) >= model.band()) {
    ++ev->sided;
    ev->sided_correct += right;
  }
}

void AddLexicon(OpinionEvaluation* ev, int sign, float target) {
  if (target == 0) return;
  ++ev->examples;
  const bool right = (sign > 0 && target > 0) || (sign < 0 && target < 0);
  ev->correct += right;
  if (sign != 0) {
    ++ev->sided;
    ev->sided_correct += right;
  }
}

std::string Fixed(double v, int digits = 4) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string EvaluationJson(const OpinionEvaluation& e) {
  return "{\"reviews\":" + std::to_string(e.examples) + ",\"accuracy\":" + Fixed(e.accuracy()) +
         ",\"coverage\":" + Fixed(e.coverage()) +
         ",\"sided_accuracy\":" + Fixed(e.sided_accuracy()) + "}";
}

ChosenOpinionModel DefaultOpinion(OpinionModel model) {
  ChosenOpinionModel out{std::move(model), "", "", std::nullopt};
  out.hash = out.model.Hash();
  out.description = "default model (sha256 " + out.hash.substr(0, 12) + ")";
  return out;
}

}  // namespace

StoreTrainReport TrainStoreOpinions(ReviewStore& store, const StoreTrainOptions& options,
                                    const std::optional<OpinionModel>& start) {
  const auto t0 = std::chrono::steady_clock::now();
  StoreTrainReport report;
  const int64_t snapshot = store.reviews().MaxReviewId();
  const int dim_bits = options.train.dim_bits;

  // Each source's scale; a source on an unknown scale cannot teach (train.h).
  std::unordered_map<std::string, RatingScale> scales;
  std::string unknown_scales;
  for (const auto& [path, range] : store.reviews().SourceRatings()) {
    const RatingScale scale = DetectRatingScale(range.min, range.max, range.labels_only,
                                                {range.count, range.stars, range.tenths});
    // A linear range symmetric about 0 (stances -1/+1, -2..2) has its middle at 0: known.
    if (scale.kind == RatingScale::Kind::kLinear && !(range.max > 0 && range.min == -range.max)) {
      unknown_scales += (unknown_scales.empty() ? "" : ", ") + path + " (" + Fixed(range.min, 6) +
                        " to " + Fixed(range.max, 6) + ")";
    }
    scales.emplace(path, scale);
  }
  if (!unknown_scales.empty()) {
    report.notice = "ratings on an unknown scale in " + unknown_scales +
                    ": not labels 0/1, stars 1-5 or 0-10, so their middle is unknown";
    return report;
  }

  const int64_t rated = store.reviews().RatedReviewCount(snapshot);
  // Cheap refusals first, so that a store that cannot teach is not read whole on every run.
  if (static_cast<size_t>(rated) < options.min_rated_reviews) {
    report.rated_reviews = static_cast<size_t>(rated);
    report.notice = std::to_string(rated) + " rated reviews, fewer than the " +
                    std::to_string(options.min_rated_reviews) + " a store's own model needs";
    return report;
  }
  if (const auto range = store.reviews().Ratings(); range && range->min == range->max) {
    report.rated_reviews = static_cast<size_t>(rated);
    report.notice = "every rating is " + Fixed(range->min, 2) + ": equal ratings teach nothing";
    return report;
  }
  // Training reviews are kept with probability keep (by a hash of their text) so that at most
  // about max_train_reviews are read into memory.
  const double train_pool = double(rated) * (1.0 - 1.0 / std::max(options.folds, 1));
  const double keep = options.max_train_reviews == 0 || train_pool <= 0
                          ? 1.0
                          : std::min(1.0, double(options.max_train_reviews) / train_pool);

  const PolarityLexicon lexicon = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
  std::vector<OpinionExample> train;
  std::vector<HeldOutExample> heldout;
  std::map<std::string, size_t> source_reviews;
  const auto products = store.reviews().ProductReviewCounts(snapshot, ReviewFilter{});
  for (size_t begin = 0; begin < products.size(); begin += kReadBatchProducts) {
    std::vector<std::string> batch;
    for (size_t i = begin; i < products.size() && i < begin + kReadBatchProducts; ++i) {
      batch.push_back(products[i].first);
    }
    for (const auto& reviews : store.reviews().GetProductsReviews(batch, snapshot)) {
      for (const StoredReview& r : reviews) {
        if (!r.rating || r.sentences.empty()) continue;
        const auto scale = scales.find(r.source);
        if (scale == scales.end()) continue;
        const float target = static_cast<float>(scale->second.Normalise(*r.rating));
        ++report.rated_reviews;
        report.praise_reviews += target > 0;
        report.complaint_reviews += target < 0;
        const bool held = IsHeldOut(r.text, options.folds);
        if (!held && keep < 1.0) {
          const uint64_t h = Fnv1a64("train", Fnv1a64(r.text));
          if (double(h >> 11) * 0x1.0p-53 >= keep) continue;
        }
        OpinionExample e;
        e.target = target;
        int lex = 0;
        std::vector<int> signs;
        for (const StoredSentence& s : r.sentences) {
          e.sentences.push_back(ExtractOpinionFeatures(s.text, dim_bits));
          if (held) {
            const int words = lexicon.Score(s.text);
            lex += words;
            signs.push_back((words > 0) - (words < 0));
          }
        }
        if (held) {
          heldout.push_back({r.source, std::move(e), (lex > 0) - (lex < 0), std::move(signs)});
          ++source_reviews[r.source];
        } else {
          report.train_sentences += e.sentences.size();
          train.push_back(std::move(e));
        }
      }
    }
  }
  report.train_reviews = train.size();
  report.heldout_reviews = heldout.size();
  if (report.rated_reviews < options.min_rated_reviews) {
    report.notice = std::to_string(report.rated_reviews) + " rated reviews, fewer than the " +
                    std::to_string(options.min_rated_reviews) + " a store's own model needs";
    return report;
  }
  if (report.praise_reviews < options.min_side_reviews ||
      report.complaint_reviews < options.min_side_reviews) {
    report.notice = std::to_string(report.praise_reviews) + " reviews rated above the middle and " +
                    std::to_string(report.complaint_reviews) +
                    " below: a store's own model needs " +
                    std::to_string(options.min_side_reviews) + " of each";
    return report;
  }

  OpinionTrainer trainer(options.train);
  const OpinionModel model =
      trainer.Train(train, options.start_from_default ? start : std::nullopt);
  report.train_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Held-out rows: all sources, then each source.
  auto evaluate = [&](const std::string& source) {
    HeldOutRow row;
    row.source = source;
    std::vector<OpinionExample> examples;
    for (const HeldOutExample& h : heldout) {
      if (!source.empty() && h.source != source) continue;
      examples.push_back(h.example);
      AddLexicon(&row.lexicon, h.lexicon_sign, h.example.target);
      AddCombined(&row.combined, model, h);
    }
    row.trained = EvaluateOpinions(model, examples);
    if (start) row.start = EvaluateOpinions(*start, examples);
    return row;
  };
  report.heldout.push_back(evaluate(""));
  if (source_reviews.size() > 1) {
    for (const auto& [source, n] : source_reviews) report.heldout.push_back(evaluate(source));
  }
  const HeldOutRow& all = report.heldout.front();
  if (options.require_gain && start && all.trained.accuracy() < all.start.accuracy()) {
    report.notice = "the model trained on this store was less accurate on its held-out reviews (" +
                    Fixed(100 * all.trained.accuracy(), 1) + " %) than the default model (" +
                    Fixed(100 * all.start.accuracy(), 1) + " %)";
    return report;
  }
  report.trained = true;
  report.model_hash = model.Hash();
  report.model = model;
  if (options.store) {
    StoredOpinionModel stored;
    stored.sha256 = report.model_hash;
    stored.snapshot_review_id = snapshot;
    stored.reviews = static_cast<int64_t>(report.train_reviews);
    stored.heldout_reviews = static_cast<int64_t>(report.heldout_reviews);
    if (all.trained.examples) stored.heldout_accuracy = all.trained.accuracy();
    if (start && all.start.examples) stored.default_accuracy = all.start.accuracy();
    std::ostringstream json;
    json << "{\"rated_reviews\":" << report.rated_reviews
         << ",\"train_reviews\":" << report.train_reviews
         << ",\"train_sentences\":" << report.train_sentences
         << ",\"heldout_reviews\":" << report.heldout_reviews << ",\"folds\":" << options.folds
         << ",\"epochs\":" << options.train.epochs << ",\"dim_bits\":" << options.train.dim_bits
         << ",\"start\":\"" << (start && options.start_from_default ? start->Hash() : "none")
         << "\",\"heldout\":{\"trained\":" << EvaluationJson(all.trained);
    if (start) json << ",\"default\":" << EvaluationJson(all.start);
    json << ",\"word_lists\":" << EvaluationJson(all.lexicon)
         << ",\"with_word_lists\":" << EvaluationJson(all.combined) << "},\"sources\":[";
    bool first = true;
    for (const auto& [path, n] : source_reviews) {
      json << (first ? "" : ",") << JsonQuote(path);
      first = false;
    }
    json << "]}";
    stored.trained_on = json.str();
    stored.blob = model.Serialize();
    report.model_id = store.opinion_models().Add(stored);
  }
  return report;
}

ChosenOpinionModel ChooseOpinionModel(ReviewStore& store, bool train,
                                      const StoreTrainOptions& options) {
  if (std::optional<StoredOpinionModel> stored = store.opinion_models().Latest()) {
    OpinionModel model = OpinionModel::Deserialize(
        stored->blob, store.path() + ": opinion_models row " + std::to_string(stored->id));
    ChosenOpinionModel out{std::move(model), "", "", std::nullopt};
    out.hash = out.model.Hash();
    out.description = "store model " + std::to_string(stored->id) + " (sha256 " +
                      out.hash.substr(0, 12) + ", trained on " + std::to_string(stored->reviews) +
                      " reviews of this store)";
    return out;
  }
  OpinionModel fallback = LoadDefaultOpinionModel();
  std::optional<StoreTrainReport> training;
  if (train) {
    training = TrainStoreOpinions(store, options, fallback);
    if (training->trained) {
      ChosenOpinionModel out = ChooseOpinionModel(store, false, options);
      out.training = std::move(training);
      return out;
    }
  }
  ChosenOpinionModel out = DefaultOpinion(std::move(fallback));
  out.training = std::move(training);
  return out;
}

ChosenOpinionModel DefaultOpinion() { return DefaultOpinion(LoadDefaultOpinionModel()); }

}  // namespace revsum
