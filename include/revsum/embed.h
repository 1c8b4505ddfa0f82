// Sentence embedding: a batch of sentences in, one L2-normalised row per sentence out.
//
// Two implementations plug into the Embedder interface:
//   - LexicalEmbedder (lexical.h): model-free, any language, fitted on the batch it embeds.
//   - UseLiteEmbedder (use_lite.h): Universal Sentence Encoder Lite, a 2-layer transformer in
//   Eigen.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Dense>

#include "revsum/error.h"

namespace revsum {

// An embedder cannot embed: ICU's normalisation fails in the USE-lite tokenizer, or an embedder of
// a combination returns the wrong number of rows. (A missing or damaged USE-lite model file is a
// UseLiteError, use_lite_format.h.)
class EmbedError : public Error {
 public:
  using Error::Error;
};

// Row-major so that a row (one sentence) is contiguous.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A rows x cols zero matrix, its memory advised for transparent huge pages (madvise
// MADV_HUGEPAGE) when it spans a few of them: an embedding of a hotel's sentences is tens of MB,
// freshly mapped per scope, and faulting it in 4 KiB pages (with the TLB shootdowns of a
// two-thread process) took more system time than the lexical embedder's own work.
Matrix ZeroMatrix(Eigen::Index rows, Eigen::Index cols);

class Embedder {
 public:
  virtual ~Embedder() = default;

  // A short stable name recorded with every run ("lexical", "use-lite").
  virtual std::string name() const = 0;

  // Identifies the exact model/parameters (e.g. sha256 of the weights); recorded with every run.
  virtual std::string model_hash() const = 0;

  // The width of every row Embed returns (known before embedding, so a caller can size what it
  // holds for a scope before it embeds: the run's memory budget, CombinedEmbedder's output).
  virtual Eigen::Index dim() const = 0;

  // Returns one row per input sentence, in input order; every non-zero row has unit L2 norm.
  // Implementations may fit statistics on the batch (the lexical embedder's IDF does), so callers
  // pass one scope (a review or a product) per call.
  // Thread-safety: const-callable from one thread at a time unless the implementation says more.
  virtual Matrix Embed(const std::vector<std::string>& sentences) = 0;
};

}  // namespace revsum
