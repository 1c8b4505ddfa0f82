// LexicalEmbedder: a model-free sentence embedder for any language.
//
// Features of a sentence (all lowercased, Unicode-aware):
//   - word tokens of WordSegmenter::Words (text.h: ICU word breaks after NFKC_Casefold; letters,
//     numbers, kana, ideographs — punctuation, spaces and emoji are dropped), with a light English
//     plural strip for ASCII words
//     ("batteries" -> "battery", "shoes" -> "shoe", never "glass" -> "glas");
//   - character bigrams inside runs of CJK characters (Han, Hiragana, Katakana, Hangul), and the
//     character itself for a one-character run, so Chinese text without spaces still matches
//     sentences that share words whatever the dictionary segmentation did.
//
// Weights: sublinear tf (1 + ln tf) times smoothed IDF, idf(f) = ln((1 + N) / (1 + df(f))) + 1,
// where N and df are counted over the sentences of the batch being embedded (the scope), or over a
// larger corpus fixed with FitIdf (features the corpus never saw get idf = ln(1 + N) + 1).
//
// Dense projection (feature hashing, Weinberger et al. 2009): feature f goes to column
// h(f) mod dim with sign +1 or -1 from the top bit of h(f), where h is 64-bit FNV-1a of the
// feature's UTF-8 bytes (prefixed by its kind) mixed by the SplitMix64 finaliser and the seed.
// Inner products of the hashed vectors are unbiased estimates of the sparse TF-IDF inner products;
// with dim = 4096 collisions are rare for sentence-sized inputs. Rows are then L2-normalised
// (a sentence without features stays an all-zero row).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "revsum/embed.h"
#include "revsum/text.h"

namespace revsum {

struct LexicalOptions {
  // Output dimension of the hashed projection.
  int dim = 4096;

  // Seed mixed into the feature hash; changing it changes every embedding (recorded in model_hash).
  uint64_t seed = 0x5EEDu;

  // Use 1 + ln(tf) instead of raw counts.
  bool sublinear_tf = true;

  // Emit character bigrams for CJK runs.
  bool cjk_bigrams = true;

  // Strip English plural endings from ASCII words.
  bool light_stem = true;
};

class LexicalEmbedder : public Embedder {
 public:
  explicit LexicalEmbedder(LexicalOptions options = {});

  std::string name() const override { return "lexical"; }

  // "lexical-v1:dim=<d>:seed=<s>:tf=<sub|raw>:cjk=<0|1>:stem=<0|1>:idf=<batch|corpus N>".
  std::string model_hash() const override;

  // LexicalOptions::dim.
  Eigen::Index dim() const override { return options_.dim; }

  // Embeds one scope; fits the IDF on `sentences` unless FitIdf fixed a corpus IDF.
  // Not thread-safe (the word segmenter holds ICU state): one LexicalEmbedder per thread.
  Matrix Embed(const std::vector<std::string>& sentences) override;

  // Fixes the IDF to document frequencies over `corpus` (one string per document or sentence).
  void FitIdf(const std::vector<std::string>& corpus);

  // Returns to IDF fitted on each batch.
  void ClearIdf();

  // The features of one sentence as strings ("w:battery", "c:电池"), in order of occurrence with
  // repetitions; exposed so tests and users can see what the embedder looks at.
  // Not thread-safe, like Embed.
  std::vector<std::string> Features(std::string_view sentence) const;

  const LexicalOptions& options() const { return options_; }

 private:
  LexicalOptions options_;
  std::unique_ptr<WordSegmenter> words_;  // ICU state; used by the const Features
  std::unordered_map<std::string, uint32_t> corpus_df_;
  // One distinct feature of a sentence: how often it occurs there and its hash (column and sign).
  struct TermCount {
    std::string feature;
    uint32_t count = 0;
    uint64_t hash = 0;
  };
  // A sentence's distinct features, in the order Embed has always summed them (the iteration
  // order of an unordered_map filled with its features in order; float sums of colliding columns
  // depend on it, so the vectors stay the same bit for bit).
  std::vector<TermCount> Terms(std::string_view sentence) const;
  // The terms of the last Embed batch's final kTailCache sentences, by text. SummarizeScope
  // appends the same seed sentences (78 in English) to every scope's batch, and most scopes
  // are smaller than that (bench/gen_reviews.py: about six sentences a product), so without this
  // most of the work went into the seeds' features and counts.
  static constexpr size_t kTailCache = 1024;
  std::unordered_map<std::string, std::vector<TermCount>> tail_terms_;
  uint64_t corpus_docs_ = 0;  // 0: IDF fitted per batch
};

}  // namespace revsum
