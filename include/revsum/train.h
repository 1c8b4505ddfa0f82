// Each dump teaches its own store: the opinion model (opinion.h) trained on a store's rated
// reviews, checked on a held-out part of them, and kept in the store (table opinion_models) with
// what it was trained on. `revsum train` runs it; `revsum run` / `summarize` run it when the store
// has no model yet (StoreOpinionPolicy).
//
//   ReviewStore ──rated reviews (their sentences, rating normalised by the dump's scale)──▶
//   held-out tenth (IsHeldOut of the review text) | the rest ──OpinionTrainer──▶ model
//   ──held-out accuracy against the default model and the word lists──▶ opinion_models
//
// A store gets its own model only when its ratings can teach one (else the default model, and
// the report says why, StoreTrainReport::notice):
//   - at least min_rated_reviews rated reviews, at least min_side_reviews rated above and below
//     the middle of the scale (all-equal ratings teach nothing);
//   - every source's ratings on a known scale (RatingScale: labels 0/1, stars 1-5, 0-10, or a
//     range symmetric about 0 such as stances -1/+1): a linear map of another range (ratings
//     0-100, or one outlier of 1e308) may put "middle" in the wrong place;
//   - the trained model at least as accurate as the default model on the held-out part (it
//     learned the dump, not its noise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "revsum/opinion.h"
#include "revsum/store.h"

namespace revsum {

struct StoreTrainOptions {
  OpinionTrainOptions train;
  // 200 rated reviews, 30 of each side. Models trained on 54 / 208 / 1,018 TripAdvisor reviews
  // predicted its 17,461 held-out reviews at 86.9 / 88.6 / 90.8 % (default model 64.9 %, word
  // lists 86.5 %; docs/opinions.md), so few ratings already teach; below ~200 the held-out tenth
  // that decides whether to keep the model is too small to trust.
  size_t min_rated_reviews = 200;
  size_t min_side_reviews = 30;
  // Training reviews at most (every review kept when 0): a deterministic choice by the hash of
  // the review's text, so the cost stays bounded on a dump of millions. 100,000: on TripAdvisor
  // 95.1 % held-out accuracy in 64 s CPU and 561 MB, against 95.3 % in 112 s and 783 MB for all
  // 176,196 (docs/opinions.md).
  size_t max_train_reviews = 100000;
  // Every review whose text hashes to 0 mod folds is held out (IsHeldOut).
  int folds = 10;
  // Continue the default model (false: start from zero weights).
  bool start_from_default = true;
  // Keep the model only when it beats the default on the held-out part (false: always keep it;
  // for training the default model itself, which has no default to beat).
  bool require_gain = true;
  // Store the model (false: only report).
  bool store = true;
};

// One model's accuracy on the held-out reviews of one source (or all of them).
struct HeldOutRow {
  std::string source;  // dump path; "" = all sources
  // The new model, the start (default) model, the word lists alone, and the new model with the
  // word lists as a prior (CombineWithWordLists: the scores a run stores), each review's verdict
  // the salience-weighted mean of its sentences' scores.
  OpinionEvaluation trained, start, lexicon, combined;
};

struct StoreTrainReport {
  bool trained = false;  // a model was trained and kept
  std::string notice;    // why the store keeps the default model (empty when trained)
  size_t rated_reviews = 0, praise_reviews = 0, complaint_reviews = 0;
  size_t train_reviews = 0, heldout_reviews = 0, train_sentences = 0;
  std::vector<HeldOutRow> heldout;  // all sources first, then one row per source
  double train_seconds = 0;
  int64_t model_id = 0;  // opinion_models.id when stored
  std::string model_hash;
  std::optional<OpinionModel> model;  // when trained
};

// Trains (see header comment). `start` is the model to continue and compare with (the default);
// the word lists (PolarityLexicon) give the baseline row. Throws StoreError, OpinionError.
StoreTrainReport TrainStoreOpinions(ReviewStore& store, const StoreTrainOptions& options,
                                    const std::optional<OpinionModel>& start);

// The model a run uses: the store's latest trained model when it has one; else, with train set
// and enough ratings, one trained now; else the default. `description` says which, for the run
// record and the user ("store model 3 (sha256 ab12..., 1,840 reviews)", "default model ...").
struct ChosenOpinionModel {
  OpinionModel model;
  std::string description;
  std::string hash;
  std::optional<StoreTrainReport> training;  // when this call trained
};
ChosenOpinionModel ChooseOpinionModel(ReviewStore& store, bool train,
                                      const StoreTrainOptions& options = {});
// The shipped default model, described as runs name it (LoadDefaultOpinionModel).
ChosenOpinionModel DefaultOpinion();

}  // namespace revsum
