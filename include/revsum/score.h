// The multi-head attention scorer: how much each sentence of a scope contributes to the overall
// review (see docs/design.md, "The scorer").
//
// For one scope (a review, or all reviews of one product) let S (n x d) hold the L2-normalised
// sentence embeddings and q the normalised mean of S (the "overall review"). Every head h has a
// query map W_Q^h and a key map W_K^h and produces one distribution over the n sentences:
//
//   overall heads    a_h = softmax( (S W_K^h)(q W_Q^h)^T / (sqrt(d_k) tau) )
//   consensus head   A   = softmax_rows( (S W_Q)(S W_K)^T / (sqrt(d_k) tau) ), diagonal masked,
//                    r   = (1/n) 1^T A   (the attention a sentence receives from the others)
//
// All heads use identity key maps (W_K = I, d_k = d): the embeddings are already the space in
// which cosine means "says the same thing". The heads differ in their queries:
//
//   centroid   q W_Q = q. The overall review itself; a sentence is weighted by how close it is to
//              what the scope says on average (the classic centroid summariser as attention).
//   opinion    q W_Q = normalise(q + beta u_op), u_op = normalise(mean(opinion seeds) -
//              mean(neutral seeds)): the overall review tilted from narration ("It arrived on
//              Tuesday.") towards evaluation ("Excellent quality, highly recommend.").
//   aspect:X   q W_Q = normalise(q + beta u_X), u_X = normalised mean of the seeds for aspect X
//              (price, quality, fit, comfort, ease of use, delivery, service): the overall review
//              tilted towards one thing shoppers write about.
//   topic:k    q W_Q = normalise(q + beta u_k), u_k the k-th principal direction of the scope's
//              centred embeddings (TopicAnchors), oriented to its heavier tail: one head per main
//              topic. Off by default (SummarizeOptions::topic_heads = 0): it measured no gain.
//   consensus  self-attention as above (product scope only): common opinions rank high.
//
// Measured (tests/pipeline/quality_test.cc, default embedder = combined on the English dev sets,
// R1 oposum/copycat/opinosis): consensus carries the product summaries (41.9/33.7/33.4 with it,
// 39.2/35.0/32.6 without; consensus alone 41.9/33.3/32.5); the opinion and aspect heads and the
// topic heads move every dev set by less than the +-2 R1 noise, in both directions. They are kept
// in the default because they make the per-head weights explainable ("which aspect picked
// this?") at no measured cost.
//
// Seed sentences are data (models/seeds/<lang>.txt, parsed by ParseSeeds); the caller embeds
// them with the same embedder as the scope and passes the anchors in (the scorer never sees text).
//
// Temperature: with W = I the logits are cosines scaled by 1 / (sqrt(d_k) tau). Because d_k
// differs between embedders, ScorerOptions::temperature is the *effective* temperature
// sqrt(d_k) * tau applied to cosines; tau itself is temperature / sqrt(d_k).
//
// Calibration (ScorerOptions::standardise, on by default): a fixed temperature on raw cosines does
// not transfer between embedders. Hashed TF-IDF cosines of two review sentences are mostly ~0
// with a thin tail; USE-lite cosines sit around 0.3-0.5 and are flatter. So each head's logits
// are standardised over the scope before the softmax: the head divides its cosines by
// z_temperature * sigma_h, where sigma_h is the standard deviation of that head's cosines in the
// scope — over the n sentences for an overall head (cos(s_i, q_h)), over the off-diagonal pairs
// for consensus (estimated on a strided sample of at most 512 rows, CosineStats). Subtracting the
// mean is implied (softmax is shift-invariant), so the head sees z-scores / z_temperature: the
// same options give every embedder the same sharpness relative to how spread its cosines are.
//
// Cost: overall heads are O(n d) each. Consensus is O(n^2 d); above max_exact_consensus sentences
// only a deterministic, evenly strided sample of m "voter" rows of A is computed (every row still
// softmaxes over all n keys), so the cost is O(m n d) with m = max(64, max_exact^2 / n) and memory
// stays O(block n). r is then the mean of the sampled rows — an unbiased estimate of (1/n) 1^T A
// when the voters are a uniform sample. Documented in docs/how-it-works.md as the approximation.
// Sparse rows (at most 1/16 of the entries non-zero: the lexical embedder's hashed TF-IDF, about
// 60 of 4,096) are multiplied as sparse matrices (Eigen SparseCore) in the heads, the Gram matrix,
// blocked consensus and PairCosineStats: each dot product sums its non-zero terms in column
// order, so the weights can differ from the dense kernels' in the last bits (which themselves
// depend on the CPU's cache sizes), not in what is selected (docs/performance.md). Combined rows
// (combined.h: such a lexical part beside USE-lite's dense 512) are split by column: the columns
// where at most a quarter of the scope's rows are non-zero are multiplied as sparse matrices, the
// others as a dense block, and the two products added, so a combined product costs about what its
// 512 dense columns cost, not all 4,608.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "revsum/embed.h"

namespace revsum {

// A seed file (ParseSeeds, LoadSeeds) is malformed; what() is "ORIGIN:LINE: problem".
class ScoreError : public Error {
 public:
  using Error::Error;
};

// Attention weights of one scope. Every column of per_head and the vector final sum to 1
// (for n >= 1); row i always refers to the i-th row of the scored matrix.
struct Weights {
  Eigen::VectorXf final;                // n: the combined weight of each sentence
  Matrix per_head;                      // n x H: the distribution produced by each head
  std::vector<std::string> head_names;  // H names, e.g. "centroid", "opinion", "aspect:price"
  std::vector<float> head_mix;          // H mixing coefficients (sum to 1); final = per_head * mix
  // The cosines between the scope's sentences, S S^T, when the consensus head computed them
  // whole (a product of at most kSharedGramRows sentences); empty otherwise. Later stages take
  // pair statistics and cluster-space dot products from it instead of multiplying S again.
  Matrix gram;
};
// Products of at most this many sentences keep Weights::gram (at most 256 KB).
inline constexpr Eigen::Index kSharedGramRows = 256;

// A scope is a single review or a whole product; consensus is only computed for products.
enum class Scope { kReview, kProduct };

struct ScorerOptions {
  // Standardise each head's logits over the scope (see "Calibration" above); the temperature is
  // then z_temperature in units of the head's cosine standard deviation. false: raw cosines
  // divided by `temperature` (the calibration of one embedder only).
  bool standardise = true;

  // Softmax temperature on standardised logits (z-scores), when standardise is true.
  // 0.8: the middle of the plateau 0.7-1.0 of mean dev-set R1 for the lexical and combined
  // embedders (tests/pipeline/quality_test.cc prints the rows).
  float z_temperature = 0.8f;

  // Effective softmax temperature on raw cosine logits (= sqrt(d_k) * tau), when standardise is
  // false. Smaller is sharper. 0.065: best mean over the three dev sets among 0.02-0.1 for the
  // lexical embedder (0.06-0.07 is a plateau); it is far too sharp for USE-lite.
  float temperature = 0.065f;

  // beta: how far an anchored head's query is pulled from q towards its anchor u_h.
  float anchor_strength = 0.5f;

  // Share of the final weight given to the consensus head in product scopes (the rest is spread
  // over the overall heads by their mix). 0 disables consensus; 1 means consensus only.
  // 0.85: consensus carries the product summaries (OpoSum +3.8 R1 over 0.5); keeping 15% for
  // the overall heads helps the short single-topic summaries (Opinosis).
  float consensus_mix = 0.85f;

  // Share of the overall part given to the centroid head; the rest is split evenly between the
  // anchored heads (if there are none, the centroid head takes it all).
  float centroid_mix = 0.5f;

  // Above this many sentences consensus is computed from a strided sample of voter rows.
  int max_exact_consensus = 4000;
};

// An anchored head: a named unit direction in embedding space (see header comment).
struct HeadAnchor {
  std::string name;        // e.g. "opinion", "aspect:price"
  Eigen::VectorXf anchor;  // d; normalised by the scorer, must not be all zero
};

// Seed sentences parsed from a seed file (models/seeds/<lang>.txt).
//
// Format: UTF-8 text; lines starting with '#' are comments; "[section]" starts a section; every
// other non-blank line is one seed sentence of the current section. Sections: "opinion",
// "neutral", and "aspect:<name>". A "# lang: <tag>" comment gives the language tag.
struct SeedSet {
  std::string lang;                  // e.g. "en"
  std::vector<std::string> opinion;  // evaluative sentences
  std::vector<std::string> neutral;  // factual / narrative sentences
  std::vector<std::pair<std::string, std::vector<std::string>>> aspects;  // name -> seeds
};

// Parses the seed format above. `origin` names the source in error messages. Throws
// std::runtime_error("<origin>:<line>: <problem>") on a seed outside any section, an unknown
// section, or an empty section.
SeedSet ParseSeeds(std::string_view text, std::string_view origin);

// Reads and parses a seed file; throws ModelsError naming the path when it cannot be read.
SeedSet LoadSeeds(const std::string& path);

// Builds the opinion and aspect anchors from the embeddings of a SeedSet's sentences, laid out
// as: opinion rows, then neutral rows, then each aspect's rows in order (as SeedSentences
// returns them). REQUIRES: rows == SeedSentences(seeds).size().
std::vector<HeadAnchor> BuildAnchors(const SeedSet& seeds, const Matrix& seed_embeddings);

// All seed sentences of a SeedSet in the layout BuildAnchors expects.
std::vector<std::string> SeedSentences(const SeedSet& seeds);

// Topic heads: anchors along the top `heads` principal directions of the scope's centred
// embeddings (the main topics the scope talks about), computed from a deterministic strided
// sample of at most max_rows rows through its Gram matrix. Each direction is oriented towards its
// heavier tail (positive third moment). Named "topic:1", "topic:2", ...
std::vector<HeadAnchor> TopicAnchors(const Matrix& S, int heads, int max_rows = 512);

class AttentionScorer {
 public:
  explicit AttentionScorer(ScorerOptions options = {}, std::vector<HeadAnchor> anchors = {});

  // Scores one scope. S: n x d, rows L2-normalised (zero rows are allowed and get the weight of
  // a sentence orthogonal to everything). Anchors must have d entries.
  // Returns uniform weights for n == 1, and empty weights for n == 0.
  // Thread-safety: const; safe to call concurrently.
  Weights Score(const Matrix& S, Scope scope) const;

  const ScorerOptions& options() const { return options_; }

 private:
  ScorerOptions options_;
  std::vector<HeadAnchor> anchors_;
};

// Mean and standard deviation of the cosines between distinct rows of S (rows L2-normalised),
// from the Gram matrix of a deterministic strided sample of at most max_rows rows (exact when
// n <= max_rows). {0, 0} for n < 2.
struct CosineStats {
  float mean = 0;
  float stddev = 0;
};
inline constexpr int kPairCosineRows = 512;
CosineStats PairCosineStats(const Matrix& S, int max_rows = kPairCosineRows);
// The same statistics from a whole Gram matrix (every pair; what PairCosineStats computes when
// n <= max_rows).
CosineStats GramCosineStats(const Matrix& gram);

// The consensus term alone: r = (1/n) 1^T softmax_rows(S S^T / temperature) with the diagonal
// masked, sampled above max_exact rows as described in the header comment. Sums to 1 (n >= 2).
Eigen::VectorXf ConsensusAttention(const Matrix& S, float temperature, int max_exact);

// One overall head: softmax(S query / temperature). `query` need not be normalised.
Eigen::VectorXf OverallAttention(const Matrix& S, const Eigen::VectorXf& query, float temperature);

// Appends a head whose logits were computed elsewhere (the learned opinion attention,
// opinion.h: u . h_i per sentence): softmax(logits / (z_temperature sigma)), standardised like
// every other head (sigma the logits' standard deviation over the scope), named `name`, with
// mixing coefficient `mix` in [0, 1]: final = (1 - mix) final + mix head, the other heads' mix
// scaled by (1 - mix), so both still sum to 1. REQUIRES: logits.size() == w->final.size().
void AddLogitHead(Weights* w, const std::string& name, const Eigen::VectorXf& logits, float mix,
                  float z_temperature);

}  // namespace revsum
