// Loading the USE-lite model files: the manifest (models/use-lite.manifest), the TF.js
// weightsManifest of model.json with its binary shards, and vocab.json. Every file is checked
// against the sha256 in the manifest before it is decoded, and every tensor against the shape
// SPEC.md §2 gives it, so a missing, truncated or tampered file is an error, never wrong vectors.

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <simdjson.h>

#include "revsum/use_lite_format.h"
#include "use_lite_internal.h"

namespace revsum::use_lite {

const char kFetchHint[] =
    "; fetch the model with scripts/fetch-use-lite (or scripts/setup), or point "
    "REVSUM_MODELS_DIR / UseLiteOptions::model_dir at a folder holding use-lite/";

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& message) { throw UseLiteError(message + kFetchHint); }

// key=value lines; '#' starts a comment line.
std::map<std::string, std::string> ReadManifest(const fs::path& path) {
  std::ifstream in(path);
  if (!in) Fail("use-lite: model manifest " + path.string() + " not found");
  std::map<std::string, std::string> kv;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
      Fail("use-lite: " + path.string() + ":" + std::to_string(line_no) +
           ": expected key=value, got \"" + line + "\"");
    }
    kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return kv;
}

class VerifiedFiles {
 public:
  VerifiedFiles(fs::path dir, fs::path manifest_path)
      : dir_(std::move(dir)),
        manifest_path_(std::move(manifest_path)),
        manifest_(ReadManifest(manifest_path_)) {}

  std::string Value(const std::string& key) const {
    auto it = manifest_.find(key);
    if (it == manifest_.end() || it->second.empty()) {
      Fail("use-lite: " + manifest_path_.string() + " has no \"" + key + "\" entry");
    }
    return it->second;
  }

  // Reads dir/rel and checks it against the manifest's file.<rel> sha256.
  std::string Read(const std::string& rel) const {
    const std::string expected = Value("file." + rel);
    try {
      return ReadVerifiedModelFile(dir_ / rel, expected, manifest_path_, "");
    } catch (const UseLiteError&) {
      throw;
    } catch (const ModelsError& e) {
      Fail(std::string("use-lite: ") + e.what());
    }
  }

 private:
  fs::path dir_;
  fs::path manifest_path_;
  std::map<std::string, std::string> manifest_;
};

// A tensor of the weightsManifest: where it lies in its group's concatenated shards.
struct TensorRef {
  std::string dtype;
  std::vector<int64_t> shape;
  const std::string* buffer = nullptr;
  size_t offset = 0;
  int64_t count = 1;
};

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << ']';
  return out.str();
}

class TensorTable {
 public:
  void Add(const std::string& name, TensorRef ref) { tensors_[name] = std::move(ref); }

  const TensorRef& Get(const std::string& name, const std::vector<int64_t>& shape,
                       const char* dtype) const {
    auto it = tensors_.find(name);
    if (it == tensors_.end()) Fail("use-lite: model.json has no weight \"" + name + "\"");
    const TensorRef& t = it->second;
    if (t.dtype != dtype || t.shape != shape) {
      Fail("use-lite: model.json weight \"" + name + "\" is " + t.dtype + ShapeText(t.shape) +
           ", expected " + dtype + ShapeText(shape));
    }
    return t;
  }

  Matrix Mat(const std::string& name, std::vector<int64_t> shape) const {
    const TensorRef& t = Get(name, shape, "float32");
    const int64_t cols = shape.back();
    const int64_t rows = t.count / cols;
    Matrix m(rows, cols);
    std::memcpy(m.data(), t.buffer->data() + t.offset, t.count * sizeof(float));
    return m;
  }

  RowVector Vec(const std::string& name, int64_t n) const {
    const TensorRef& t = Get(name, {n}, "float32");
    RowVector v(n);
    std::memcpy(v.data(), t.buffer->data() + t.offset, n * sizeof(float));
    return v;
  }

  float Scalar(const std::string& name) const {
    const TensorRef& t = Get(name, {}, "float32");
    float f;
    std::memcpy(&f, t.buffer->data() + t.offset, sizeof f);
    return f;
  }

  std::vector<int32_t> Ints(const std::string& name, std::vector<int64_t> shape) const {
    const TensorRef& t = Get(name, shape, "int32");
    std::vector<int32_t> v(t.count);
    std::memcpy(v.data(), t.buffer->data() + t.offset, t.count * sizeof(int32_t));
    return v;
  }

 private:
  std::map<std::string, TensorRef> tensors_;
};

// Decodes model.json's weightsManifest; shard bytes are kept in `shards` (one string per group).
TensorTable ReadWeightsManifest(const VerifiedFiles& files, const fs::path& dir,
                                std::vector<std::string>& shards) {
  const std::string json = files.Read("model.json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  const std::string where = (dir / "model.json").string();
  if (auto err = parser.parse(json).get(doc)) {
    Fail("use-lite: " + where + ": invalid JSON: " + simdjson::error_message(err));
  }
  simdjson::dom::array groups;
  if (doc["weightsManifest"].get(groups)) Fail("use-lite: " + where + ": no weightsManifest array");
  shards.reserve(groups.size());
  TensorTable table;
  for (simdjson::dom::element group : groups) {
    simdjson::dom::array paths, weights;
    if (group["paths"].get(paths) || group["weights"].get(weights)) {
      Fail("use-lite: " + where + ": a weightsManifest group lacks paths or weights");
    }
    std::string& buffer = shards.emplace_back();
    for (simdjson::dom::element p : paths) {
      std::string_view rel;
      if (p.get(rel)) Fail("use-lite: " + where + ": a shard path is not a string");
      buffer += files.Read(std::string(rel));
    }
    size_t offset = 0;
    for (simdjson::dom::element w : weights) {
      std::string_view name, dtype;
      simdjson::dom::array shape;
      if (w["name"].get(name) || w["dtype"].get(dtype) || w["shape"].get(shape)) {
        Fail("use-lite: " + where + ": a weight entry lacks name, dtype or shape");
      }
      if (w["quantization"].error() == simdjson::SUCCESS) {
        Fail("use-lite: " + where + ": weight \"" + std::string(name) +
             "\" is quantized, which this loader does not support");
      }
      if (dtype != "float32" && dtype != "int32") {
        Fail("use-lite: " + where + ": weight \"" + std::string(name) + "\" has dtype " +
             std::string(dtype) + " (only float32 and int32 are supported)");
      }
      TensorRef ref;
      ref.dtype = std::string(dtype);
      for (simdjson::dom::element d : shape) {
        int64_t dim;
        if (d.get(dim) || dim < 0)
          Fail("use-lite: " + where + ": bad shape of " + std::string(name));
        ref.shape.push_back(dim);
        ref.count *= dim;
      }
      ref.buffer = &buffer;
      ref.offset = offset;
      offset += static_cast<size_t>(ref.count) * 4;
      if (offset > buffer.size()) {
        Fail("use-lite: the weight shards of " + where + " are truncated: weight \"" +
             std::string(name) + "\" ends at byte " + std::to_string(offset) +
             " but the shards hold " + std::to_string(buffer.size()) + " bytes");
      }
      table.Add(std::string(name), std::move(ref));
    }
    if (offset != buffer.size()) {
      Fail("use-lite: " + where + " describes " + std::to_string(offset) +
           " bytes of weights but its shards hold " + std::to_string(buffer.size()));
    }
  }
  return table;
}

// Not NextCodePoint (revsum/utf8.h), on purpose: the vocabulary is a verified model file, read as
// it always was, leniently (no check of overlong forms, surrogates or continuation bytes) and
// failing on a bad lead byte or a cut sequence; the strict decoder would refuse pieces this
// accepts, and so change which model files load.
std::u16string Utf8ToUtf16(std::string_view s, const std::string& where) {
  std::u16string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = s[i];
    uint32_t cp;
    int extra;
    if (c < 0x80) {
      cp = c;
      extra = 0;
    } else if ((c >> 5) == 6) {
      cp = c & 0x1f;
      extra = 1;
    } else if ((c >> 4) == 14) {
      cp = c & 0x0f;
      extra = 2;
    } else if ((c >> 3) == 30) {
      cp = c & 0x07;
      extra = 3;
    } else
      Fail("use-lite: " + where + ": invalid UTF-8 in a vocabulary piece");
    if (i + extra >= s.size()) {
      Fail("use-lite: " + where + ": truncated UTF-8 in a vocabulary piece");
    }
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    i += extra + 1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3ff)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

std::vector<VocabEntry> ReadVocab(const VerifiedFiles& files, const fs::path& dir) {
  const std::string json = files.Read("vocab.json");
  const std::string where = (dir / "vocab.json").string();
  simdjson::dom::parser parser;
  simdjson::dom::array entries;
  if (auto err = parser.parse(json).get(entries)) {
    Fail("use-lite: " + where + ": expected a JSON array of [piece, score] (" +
         simdjson::error_message(err) + ")");
  }
  std::vector<VocabEntry> vocab;
  vocab.reserve(entries.size());
  for (simdjson::dom::element e : entries) {
    simdjson::dom::array pair;
    std::string_view piece;
    if (e.get(pair) || pair.size() != 2 || pair.at(0).get(piece)) {
      Fail("use-lite: " + where + ": entry " + std::to_string(vocab.size()) +
           " is not [piece, score]");
    }
    VocabEntry entry;
    entry.piece = Utf8ToUtf16(piece, where);
    simdjson::dom::element score = pair.at(1);
    if (score.is_null()) {
      entry.score = 0;  // JS: null + x == x
    } else if (score.get(entry.score)) {
      Fail("use-lite: " + where + ": entry " + std::to_string(vocab.size()) +
           " has a score that is neither a number nor null");
    }
    vocab.push_back(std::move(entry));
  }
  return vocab;
}

}  // namespace

ModelFiles LoadModelFiles(const std::string& model_dir, const std::string& manifest_path) {
  const fs::path dir(model_dir);
  if (!fs::is_directory(dir)) Fail("use-lite: model folder " + dir.string() + " does not exist");
  VerifiedFiles files(dir, manifest_path);
  ModelFiles model;
  model.tarball_sha256 = files.Value("tarball_sha256");

  std::vector<std::string> shards;
  const TensorTable t = ReadWeightsManifest(files, dir, shards);
  model.vocab = ReadVocab(files, dir);

  const std::string A = "module_apply_default/Encoder_en/KonaTransformer/";
  const std::string P = A + "Encode/";
  const std::string M = "module/Encoder_en/KonaTransformer/Encode/";
  const std::string S = P + "TransformerStack/";
  Weights& w = model.weights;
  w.embeddings = t.Mat("module/Embeddings_en", {8002, 256});
  w.inv_timescales = t.Mat(S + "Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", {1, 128});
  w.res_w = t.Mat(P + "Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat", {256, 512});
  w.res_b = t.Vec(P + "Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat", 512);
  w.tanh_w = t.Mat("module/Encoder_en/hidden_layers/tanh_layer_0/weights", {512, 512});
  w.tanh_b = t.Vec("module/Encoder_en/hidden_layers/tanh_layer_0/bias", 512);
  w.ln_eps = t.Scalar(S + "Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x");
  w.l2_eps = t.Scalar("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y");
  w.max_len = t.Ints(A + "ClipToMaxLength/Less/y", {})[0];
  w.num_heads = t.Ints(S + "Layer_1/TransformerLayer/MultiheadAttention/split_heads/"
                           "split_last_dimension/Reshape/shape/2",
                       {})[0];
  const float mask_neg = t.Scalar(S +
                                  "Layer_1/TransformerLayer/MultiheadAttention/"
                                  "DotProductAttention/attention_bias_ignore_padding/mul/y");
  // The port skips padded keys instead of adding the mask bias; that is exact only because the
  // bias drives exp() to 0.
  if (!(mask_neg <= -1e4f) || w.max_len != kUseLiteMaxTokens || w.num_heads <= 0) {
    Fail(
        "use-lite: model.json constants are not those of USE-lite (mask bias, max length 128, "
        "heads)");
  }
  for (int L = 0; L < 2; ++L) {
    const std::string pl = P + "Layer_" + std::to_string(L) + "/TransformerLayer/";
    const std::string ml = M + "Layer_" + std::to_string(L) + "/TransformerLayer/";
    const std::string tl = S + "Layer_" + std::to_string(L) + "/TransformerLayer/";
    const int64_t d_in = L == 0 ? 256 : 512;
    const int64_t d = L == 0 ? 256 : 512;
    LayerWeights& l = w.layers[L];
    l.width = static_cast<int>(d);
    l.head_dim =
        t.Ints(tl + "MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3", {})[0];
    const std::vector<int32_t> split = t.Ints(tl + "MultiheadAttention/Const", {3});
    if (l.head_dim * w.num_heads != d ||
        split != std::vector<int32_t>(3, static_cast<int32_t>(d))) {
      Fail("use-lite: layer " + std::to_string(L) + " head size/split constants are inconsistent");
    }
    l.q_scale = t.Scalar(tl + "MultiheadAttention/mul/y");
    l.ln_attn_gamma = t.Vec(
        pl + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", d_in);
    l.ln_attn_beta =
        t.Vec(pl + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", d_in);
    l.qkv_w =
        t.Mat(ml + "MultiheadAttention/qkv_transform_single/kernel/part_0", {1, 1, d_in, 3 * d});
    l.qkv_b =
        t.Vec(pl + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 3 * d);
    l.out_w =
        t.Mat(ml + "MultiheadAttention/output_transform_single/kernel/part_0", {1, 1, d, 512});
    l.out_b =
        t.Vec(pl + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", 512);
    l.ln_ffn_gamma = t.Vec(
        pl + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", 512);
    l.ln_ffn_beta = t.Vec(
        pl + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", 512);
    l.ffn1_w = t.Mat(tl + "FFN/conv1/Tensordot/Reshape_1", {512, 1536});
    l.ffn1_b = t.Vec(pl + "FFN/conv1/bias/ConcatPartitions/concat", 1536);
    l.ffn2_w = t.Mat(tl + "FFN/conv2/Tensordot/Reshape_1", {1536, 512});
    l.ffn2_b = t.Vec(pl + "FFN/conv2/bias/ConcatPartitions/concat", 512);
  }
  if (static_cast<int64_t>(model.vocab.size()) > w.embeddings.rows() || model.vocab.size() < 7) {
    Fail("use-lite: vocab.json has " + std::to_string(model.vocab.size()) +
         " entries for an embedding table of " + std::to_string(w.embeddings.rows()) + " rows");
  }
  if (!w.embeddings.allFinite()) Fail("use-lite: the embedding table holds NaN or infinity");
  return model;
}

}  // namespace revsum::use_lite
