// Internals of the USE-lite encoder (include/revsum/use_lite.h), shared by src/embed/use_lite*.cc.
// Not a public header: the pieces below are the model files, the tokenizer and the forward pass.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <Eigen/Dense>

#include "revsum/embed.h"
#include "use_lite_matmul.h"

namespace revsum::use_lite {

using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

// The message appended to every loading error.
extern const char kFetchHint[];

// One transformer layer (SPEC.md §3.4-3.5). Matrices are [in, out], so y = x * W + b.
struct LayerWeights {
  int width = 0;      // D: width of q, k, v and of the attention output before Wo (256 / 512)
  int head_dim = 0;   // D / heads (64 / 128)
  float q_scale = 0;  // 1/sqrt(head_dim), as stored in the graph
  RowVector ln_attn_gamma, ln_attn_beta;  // [D_in]
  Matrix qkv_w;                           // [D_in, 3D]
  RowVector qkv_b;                        // [3D]
  Matrix out_w;                           // [D, 512]
  RowVector out_b;                        // [512]
  RowVector ln_ffn_gamma, ln_ffn_beta;    // [512]
  Matrix ffn1_w;                          // [512, 1536]
  RowVector ffn1_b;                       // [1536]
  Matrix ffn2_w;                          // [1536, 512]
  RowVector ffn2_b;                       // [512]
};

struct Weights {
  Matrix embeddings;         // [8002, 256] token embedding table
  RowVector inv_timescales;  // [128]
  Matrix res_w;              // [256, 512] layer 0 residual projection
  RowVector res_b;           // [512]
  std::array<LayerWeights, 2> layers;
  Matrix tanh_w;      // [512, 512]
  RowVector tanh_b;   // [512]
  float ln_eps = 0;   // 1e-6
  float l2_eps = 0;   // 1e-12
  int num_heads = 0;  // 4
  int max_len = 0;    // 128
};

// One vocabulary entry: the piece (UTF-16, U+2581 for a word boundary) and its score; JSON null
// scores are 0 (JS arithmetic turns null into 0).
struct VocabEntry {
  std::u16string piece;
  double score = 0;
};

// Everything read from the model folder, verified.
struct ModelFiles {
  Weights weights;
  std::vector<VocabEntry> vocab;
  std::string tarball_sha256;  // from the manifest; the model hash
};

// Reads the manifest, verifies the sha256 of model.json, the shards and vocab.json, and decodes
// them. Throws UseLiteError naming the file and the problem.
ModelFiles LoadModelFiles(const std::string& model_dir, const std::string& manifest_path);

// The tokenizer of the official USE-lite TF.js pipeline (SPEC.md §1), quirks included: NFKC,
// U+0020 -> U+2581 with a leading U+2581, UTF-16 code units as symbols, a best path over the
// pieces with JS's tie rules, and runs of unknowns merged into one id 0. Thread-safe after
// construction.
class Tokenizer {
 public:
  explicit Tokenizer(const std::vector<VocabEntry>& vocab);
  std::vector<int> Encode(const std::string& utf8) const;

 private:
  struct Node {
    int32_t id = -1;   // vocab id ending here, -1 if none
    double score = 0;  // its score
  };
  int32_t Child(int32_t node, char16_t unit) const;

  std::vector<Node> nodes_;                         // nodes_[0] is the root
  std::vector<int32_t> root_children_;              // 65536 entries, -1 when absent
  std::unordered_map<uint64_t, int32_t> children_;  // (node << 16 | unit) -> child
  std::vector<int> piece_length_;                   // UTF-16 length of each vocab piece
};

// Reusable buffers of one forward pass; grow-only, so steady-state batches allocate nothing.
struct Workspace;

struct WorkspaceDeleter {
  void operator()(Workspace* w) const;
};
using WorkspacePtr = std::unique_ptr<Workspace, WorkspaceDeleter>;
WorkspacePtr NewWorkspace();

// The forward pass (SPEC.md §3). Each output row depends only on its own sequence: dense layers
// run on the batch's packed tokens as one matrix product whose every element is a fixed chain of
// FMAs over the inner dimension (so rows never interact), attention runs per sequence over its
// real tokens only.
class Encoder {
 public:
  // int8: the dense layers of the transformer run on int8 (use_lite_matmul.h, Int8Matrix); the
  // output layer and attention stay float. Otherwise every product is float.
  Encoder(const Weights& weights, bool int8);

  // Writes the embedding of sequence ids[i] into out.row(out_rows[i]). Ids must lie in
  // [0, embeddings.rows()) (checked by the caller); sequences longer than max_len are clipped.
  void Forward(const std::vector<const std::vector<int>*>& ids, Workspace& ws, Matrix& out,
               const std::vector<int64_t>& out_rows) const;

 private:
  void Attention(const LayerWeights& layer, const std::vector<int>& offsets,
                 const std::vector<int>& lengths, Workspace& ws) const;
  // The int8 copies of a layer's dense weights (all null for a float encoder).
  struct QuantizedLayer {
    std::unique_ptr<Int8Matrix> qkv, out, ffn1, ffn2;
  };
  const Weights& w_;
  Matrix timing_;  // [max_len, 256] sin/cos timing signal per position
  std::unique_ptr<Int8Matrix> res_q_;
  std::array<QuantizedLayer, 2> layer_q_;
};

}  // namespace revsum::use_lite
