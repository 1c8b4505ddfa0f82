// Sentence opinions learned from ratings: each sentence's polarity and its contribution to the
// overall evaluation (docs/design.md, "Learned opinions"; MILNET, Angelidis & Lapata 2018,
// "Multiple Instance Learning Networks for Fine-Grained Sentiment Analysis", TACL 6).
//
// Only reviews carry a label (their rating); the model explains a review's normalised rating
// r in [-1, 1] as the attention-weighted mean of what its sentences say:
//
//   r^ = sum_i a_i p_i,   p_i = tanh(w . h_i + b),   a = softmax_i(u . h_i)
//
// h_i is the sentence's feature vector (OpinionFeatures), p_i its polarity, a_i its share of the
// review's verdict (its salience). The attention's logit u . h_i is the design's q . W_K h_i / √d
// with one learned query q and a linear key map: only their product u = W_K^T q / √d is ever
// used, so that is what is learned and stored. A one-sentence "review" (a labelled phrase, an
// argument with a stance) makes the same loss plain supervised learning, so labelled sentences
// and rated reviews train one model.
//
// Features (the same for every language, so mixed text needs nothing special): fastText-style
// hashed n-grams (Joulin et al. 2017) over a token sequence in which a run of Latin letters or
// digits is one token (lower-cased), every CJK ideograph is a token of its own, and '!', '?' and
// each symbol (emoji) stand alone; unigrams, bigrams and trigrams of that sequence, hashed with
// FNV-1a (hash.h) into 2^dim_bits buckets, each worth 1 / sqrt(count of n-grams) so long and
// short sentences score on one scale. USE-lite maps Chinese to its unknown piece, so its vectors
// cannot carry Chinese opinions; character n-grams do, and "not good" is a bigram of its own.
// Measured against the word lists and against a tanh-linear layer on USE-lite vectors of the same
// English phrases (no better on review sentences, and no use for Chinese): docs/opinions.md.
//
// Training (OpinionTrainer): squared error (r - r^)^2 / 2 with each review weighted so that
// praise, complaint and neutral ratings weigh alike (a dump of 90 % five stars would otherwise
// teach that every sentence praises), AdaGrad on the touched buckets with L2 decay, a fixed
// number of epochs over a deterministic shuffle (its own generator, not std::shuffle), one
// thread: the same data give the same bytes on every run (scripts/train-opinions checks the
// shipped model that way).
//
// Stored form (OpinionModel::Serialize): "RVOPIN01", dim_bits, the neutral band, b, w, u
// (float32, little-endian) and the sha256 of everything before it; Deserialize refuses a blob
// whose hash, size or header is wrong (OpinionError naming the origin).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/error.h"

namespace revsum {

class OpinionError : public Error {
 public:
  using Error::Error;
};

// The hashed n-grams of one sentence: bucket indexes (a bucket may repeat: it counts twice) and
// the value of each, 1 / sqrt(indexes.size()).
struct OpinionFeatures {
  std::vector<uint32_t> buckets;
  float value = 0;
};

// Tokens of `text` as described in the header comment (lower-cased UTF-8 strings).
std::vector<std::string> OpinionTokens(std::string_view text);
// The hashed n-grams of `text` into 2^dim_bits buckets. Deterministic, thread-safe.
OpinionFeatures ExtractOpinionFeatures(std::string_view text, int dim_bits);

// A sentence's side under a model: praise when score >= band, complaint when score <= -band,
// neutral otherwise.
enum class OpinionSide { kPraise, kComplaint, kNeutral };
std::string_view OpinionSideName(OpinionSide side);  // "praise", "complaint", "neutral"

struct SentenceOpinion {
  float score = 0;     // p_i in [-1, 1]
  float salience = 0;  // a_i: softmax over the sentences scored together (one review), sums to 1
  float logit = 0;     // u . h_i, the attention logit before the softmax
};

class OpinionModel {
 public:
  // 2^dim_bits buckets. 18: 2 x 1 MB of float32 weights, small enough to commit; not tuned.
  static constexpr int kDefaultDimBits = 18;
  // |score| below this is neutral (the score a run stores: CombineWithWordLists). 0.8: chosen
  // with kWordListEvidence on 500 hand-labelled development sentences (bench/opinion_dev.py,
  // docs/opinions.md).
  static constexpr float kDefaultBand = 0.8f;

  explicit OpinionModel(int dim_bits = kDefaultDimBits);

  // The sentences of one review (or any group that shares a verdict), scored together: salience
  // is the softmax over them. Thread-safe (const).
  std::vector<SentenceOpinion> Score(const std::vector<std::string>& sentences) const;
  std::vector<SentenceOpinion> ScoreFeatures(const std::vector<OpinionFeatures>& sentences) const;
  // The review's predicted normalised rating r^ = sum a_i p_i (0 for no sentence).
  static double Verdict(const std::vector<SentenceOpinion>& opinions);
  OpinionSide Side(float score) const;

  int dim_bits() const { return dim_bits_; }
  float band() const { return band_; }
  void set_band(float band) { band_ = band; }

  // Binary form (header comment). Serialize is deterministic.
  std::string Serialize() const;
  // Throws OpinionError("<origin>: ...") on a damaged or foreign blob.
  static OpinionModel Deserialize(std::string_view blob, std::string_view origin);
  // Reads and deserializes a file (OpinionError naming the path when unreadable or damaged).
  static OpinionModel Load(const std::string& path);
  // Lower-case hex sha256 of Serialize(): the model's identity in runs and the store.
  std::string Hash() const;

 private:
  friend class OpinionTrainer;
  int dim_bits_;
  float band_ = kDefaultBand;
  float bias_ = 0;
  std::vector<float> w_;  // polarity weights, 2^dim_bits
  std::vector<float> u_;  // attention (salience) weights, 2^dim_bits
};

// The word lists (PolarityLexicon, points.h) as a prior: a sentence's score in a run is the model's
// polarity p and the lists' sign w (-1, 0, +1) added as evidence in the model's logit space,
//   score = tanh(atanh(p) + kWordListEvidence w),
// then sided at the model's band. Learned sentence polarity from ratings is noisy on sentences
// that say nothing (narrative, facts): on the 500 development sentences the default model alone
// gave a side to 369 of them with 42 % wrong, the word lists to 215 with 16 % wrong; this
// combination at band 0.8 gives 257 with 20 % wrong and the best accuracy of the grid k in
// {0, 0.5, ..., 5} x band in {0.25, ..., 0.9} for the default model and for a model trained on
// hotel ratings alike (docs/opinions.md). A strong model verdict still outweighs one word
// ("The battery lasts three weeks, not the months the listing claims": p = -0.92 and a word-list
// +1 give neutral, where the lists alone said praise).
inline constexpr float kWordListEvidence = 2.0f;
float CombineWithWordLists(float p, int word_sign);

// The shipped default model, <models>/opinion/default.bin, checked against the sha256 in
// <models>/opinion.manifest (ReadVerifiedModelFile). Throws ModelsError when no models folder is
// found or the file is missing or does not match the manifest, OpinionError when the manifest
// cannot be read or the file is not an opinion model.
OpinionModel LoadDefaultOpinionModel();
std::string DefaultOpinionModelPath();

// One training example: the sentences of a review and its normalised rating in [-1, 1].
struct OpinionExample {
  std::vector<OpinionFeatures> sentences;
  float target = 0;
};

struct OpinionTrainOptions {
  int dim_bits = OpinionModel::kDefaultDimBits;
  // Passes over the training examples. 5: all held-out folds of the default model's data 91.4 %
  // (3 epochs 91.5 %, 8 epochs 91.3 %: TRAIN_ARGS="--epochs N" scripts/train-opinions --check).
  int epochs = 5;
  // AdaGrad step size and the L2 decay applied to each touched weight.
  float learning_rate = 0.2f;
  float l2 = 1e-6f;
  // Seed of the example order.
  uint64_t seed = 20261204;
  // Weigh the examples of each side (r > 0, r < 0, r == 0) so that the sides weigh alike.
  bool balance_sides = true;
};

// Accuracy of a model on examples: the side of r^ against the side of the target, over examples
// with a non-zero target, and the sentences' coverage. For one-sentence examples this is
// sentence accuracy.
struct OpinionEvaluation {
  size_t examples = 0;  // with a non-zero target
  size_t correct = 0;   // sign(r^) == sign(target) (r^ == 0 counts wrong)
  size_t sided = 0;     // |r^| >= band: given a side
  size_t sided_correct = 0;
  double mean_abs_error = 0;  // over all examples, |r - r^|
  double accuracy() const { return examples ? double(correct) / double(examples) : 0; }
  double coverage() const { return examples ? double(sided) / double(examples) : 0; }
  double sided_accuracy() const { return sided ? double(sided_correct) / double(sided) : 0; }
};
OpinionEvaluation EvaluateOpinions(const OpinionModel& model,
                                   const std::vector<OpinionExample>& examples);

class OpinionTrainer {
 public:
  explicit OpinionTrainer(OpinionTrainOptions options = {});
  // Trains a new model, or continues `start` (same dim_bits) when given: a dump's own model
  // starts from the default so that a small dump adjusts it rather than starting from nothing.
  // Deterministic. Throws std::invalid_argument on an empty set.
  OpinionModel Train(const std::vector<OpinionExample>& examples,
                     const std::optional<OpinionModel>& start = std::nullopt) const;

 private:
  OpinionTrainOptions options_;
};

// Which part of a dump is held out: every review whose key hashes (FNV-1a) to 0 mod `folds`.
// 10 folds: a tenth of the reviews.
bool IsHeldOut(std::string_view key, int folds = 10);

}  // namespace revsum
