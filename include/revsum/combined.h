// CombinedEmbedder: one space where cosine mixes two embedders' cosines.
//
// The row of a sentence is the concatenation [sqrt(a) x, sqrt(1 - a) y] of its L2-normalised
// rows x (first embedder, e.g. lexical) and y (second, e.g. USE-lite). For two sentences with
// non-zero x and y,
//
//   cos(s, t) = a cos_x(s, t) + (1 - a) cos_y(s, t),
//
// because both halves have unit norm and the concatenated row then has norm 1. A sentence whose
// x row is zero (the lexical embedder found no features, e.g. only emoji) keeps just its scaled y
// half and is renormalised to unit norm (and likewise for a zero y row), so the Embedder contract
// (every non-zero row has unit norm) holds.
//
// Why: the lexical embedder matches the exact words that ROUGE and readers see (strong on
// OpoSum's extractive gold); USE-lite matches paraphrases ("cheap" ~ "inexpensive"). The mix keeps
// both relations in the scorer's attention and the selector's redundancy test.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "revsum/embed.h"

namespace revsum {

struct CombinedOptions {
  // a: the share of the first embedder in the cosine, in [0, 1].
  float first_share = 0.5f;
};

class CombinedEmbedder : public Embedder {
 public:
  // Does not own the embedders; both must outlive this object. Throws std::invalid_argument when
  // first_share is outside [0, 1].
  CombinedEmbedder(Embedder& first, Embedder& second, CombinedOptions options = {});

  // "combined".
  std::string name() const override { return "combined"; }

  // "combined:a=<share>:<first name>=<first hash>;<second name>=<second hash>".
  std::string model_hash() const override;

  // d_first + d_second.
  Eigen::Index dim() const override { return first_.dim() + second_.dim(); }

  // Embeds `sentences` with both embedders (one call each, so a batch-fitted first embedder sees
  // the whole scope) and concatenates as described above: n x (d_first + d_second).
  // Thread-safety: as the less thread-safe of the two embedders.
  Matrix Embed(const std::vector<std::string>& sentences) override;

  // The same rows for `sentences` given the first embedder's rows `first_rows` (computed by the
  // caller over the same batch), with the second embedder run only on the rows listed in
  // `second_rows` (ascending, each < sentences.size(), at least one when there are sentences). The
  // other rows keep only their first half (renormalised, as for a zero second row) and a zero
  // second half. With every row listed this is exactly Embed. Lets a caller spend an expensive
  // second embedder (USE-lite) only on the sentences that can matter
  // (SummarizeOptions::dense_candidates).
  // `first_rows` is taken by value and freed before the second embedder runs (move it in).
  Matrix EmbedRows(const std::vector<std::string>& sentences, Matrix first_rows,
                   const std::vector<size_t>& second_rows);

  Embedder& first() { return first_; }
  Embedder& second() { return second_; }
  const CombinedOptions& options() const { return options_; }

 private:
  Embedder& first_;
  Embedder& second_;
  CombinedOptions options_;
};

}  // namespace revsum
