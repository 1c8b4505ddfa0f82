// The USE-lite forward pass (Eigen + a SIMD matrix product chosen at run time), op for op as
// SPEC.md §3 describes the TF.js graph: embedding added twice plus a sin/cos timing signal, two
// pre-norm transformer layers (256 -> 512 wide, 4 heads of 64 / 128), masked mean pooling, a tanh
// dense layer and L2 normalisation.
//
// Layout: a batch's real tokens are packed into the rows of one matrix (no padding), so every dense
// layer is a single product [tokens, in] x [in, out] (Dense below). Attention runs per sequence
// over its own tokens, which equals the graph's padded attention because the -1e9 key bias makes
// exp() exactly 0 on padding.

// GCC 12 reports a false -W(maybe-)uninitialized inside its own AVX-512 intrinsics headers
// (_mm512_undefined_ps) when Eigen's vectorised exp() is inlined with -march=native.
#if !defined(__clang__)  // clang has neither false positive (nor the first flag)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <algorithm>
#include <cmath>

#include "use_lite_internal.h"
#include "use_lite_matmul.h"

namespace revsum::use_lite {

struct Workspace {
  int64_t capacity = 0;  // rows of every per-token buffer
  Matrix x0;             // [cap, 256] embedding * 2 + timing signal
  Matrix h0;             // [cap, 256] layer 0 attention LN
  Matrix qkv0;           // [cap, 768]
  Matrix o0;             // [cap, 256] layer 0 heads, concatenated
  Matrix h;              // [cap, 512] LN output (layer 0 FFN, layer 1 attention and FFN)
  Matrix qkv1;           // [cap, 1536]
  Matrix o1;             // [cap, 512]
  Matrix r;              // [cap, 512] layer 0 residual projection
  Matrix y;              // [cap, 512] attention block output
  Matrix z;              // [cap, 512] layer output
  Matrix f;              // [cap, 1536] FFN hidden
  Matrix q;              // [128, 128] scaled queries of one head
  Matrix s;              // [128, 128] attention logits / probabilities of one head
  // The int8 layers' input rows, quantised, and their scales (int8 encoders only use them; the
  // float output layer never does, so cap rows are enough).
  std::vector<int8_t> quantized;  // [cap, 1536]
  std::vector<float> row_scale;   // [cap]
  int64_t pooled_capacity = 0;
  Matrix pooled;  // [batch, 512]
  Matrix u;       // [batch, 512]

  void Reserve(int64_t rows, int64_t sequences, int max_len) {
    if (rows > capacity) {
      capacity = std::max<int64_t>(rows, 2 * capacity);
      for (auto [m, cols] : {std::pair{&x0, 256},
                             {&h0, 256},
                             {&qkv0, 768},
                             {&o0, 256},
                             {&h, 512},
                             {&qkv1, 1536},
                             {&o1, 512},
                             {&r, 512},
                             {&y, 512},
                             {&z, 512},
                             {&f, 1536}}) {
        m->setZero(capacity, cols);
      }
      quantized.assign(capacity * 1536, 0);
      row_scale.assign(capacity, 0.0f);
    }
    if (q.rows() < max_len) {
      q.setZero(max_len, max_len);
      s.setZero(max_len, max_len);
    }
    if (sequences > pooled_capacity) {
      pooled_capacity = std::max<int64_t>(sequences, 2 * pooled_capacity);
      pooled.setZero(pooled_capacity, 512);
      u.setZero(pooled_capacity, 512);
    }
  }
};

void WorkspaceDeleter::operator()(Workspace* w) const { delete w; }
WorkspacePtr NewWorkspace() { return WorkspacePtr(new Workspace); }

namespace {

// out[0:rows] = in[0:rows] * w, then the epilogue (bias, ReLU, residual: use_lite_matmul.h), on
// the top rows of the workspace matrices: in float (the variant chosen for this CPU) or, when q
// is given, in int8 with q the quantised w. Every variant keeps each output row independent of the
// other rows, which makes embeddings independent of batching.
void Dense(const Matrix& in, const Matrix& w, const Int8Matrix* q, int64_t rows, Matrix& out,
           Workspace& ws, const Epilogue& epilogue = {}) {
  if (q != nullptr) {
    static const Int8MatMulFn mat_mul_int8 = SelectedMatMulInt8();
    mat_mul_int8(in.data(), in.cols(), View(*q), out.data(), out.cols(), rows, ws.quantized.data(),
                 ws.row_scale.data(), epilogue);
    return;
  }
  static const MatMulFn mat_mul = SelectedMatMul();
  mat_mul(in.data(), in.cols(), w.data(), w.cols(), out.data(), out.cols(), rows, w.rows(),
          w.cols(), epilogue);
}

// The epilogue that adds `bias`, then applies ReLU when `relu`, then adds `residual`'s rows.
Epilogue Then(const RowVector& bias, bool relu = false, const Matrix* residual = nullptr) {
  Epilogue e;
  e.bias = bias.data();
  e.relu = relu;
  if (residual != nullptr) {
    e.add = residual->data();
    e.ld_add = residual->cols();
  }
  return e;
}

// Sum of f(j) for j in [0, n), in double, over kLanes interleaved partial sums added in a fixed
// order: the lanes vectorise (one serial chain of n additions did not), and the order, hence the
// result, is the same on every CPU.
template <typename F>
double LaneSum(int64_t n, F f) {
  constexpr int64_t kLanes = 8;
  double lane[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    for (int64_t k = 0; k < kLanes; ++k) lane[k] += f(j + k);
  }
  for (; j < n; ++j) lane[j % kLanes] += f(j);
  double sum = 0;
  for (int64_t k = 0; k < kLanes; ++k) sum += lane[k];
  return sum;
}

// LayerNorm over the last axis (SPEC.md §3.3): (gamma * rsqrt(var + eps)) * (x - mean) + beta,
// biased variance. Statistics accumulate in double; the result is float32 as in the graph.
template <typename In, typename Out>
void LayerNorm(const In& x, const RowVector& gamma, const RowVector& beta, float eps, Out&& y) {
  const int64_t cols = x.cols();
  for (int64_t i = 0; i < x.rows(); ++i) {
    const float* xi = &x(i, 0);
    float* yi = &y(i, 0);
    const double sum = LaneSum(cols, [xi](int64_t j) { return static_cast<double>(xi[j]); });
    const float mean = static_cast<float>(sum / cols);
    const double sq = LaneSum(cols, [xi, mean](int64_t j) {
      const float d = xi[j] - mean;
      return static_cast<double>(d) * d;
    });
    const float var = static_cast<float>(sq / cols);
    const float inv = 1.0f / std::sqrt(var + eps);
    for (int64_t j = 0; j < cols; ++j) yi[j] = (gamma[j] * inv) * (xi[j] - mean) + beta[j];
  }
}

}  // namespace

Encoder::Encoder(const Weights& weights, bool int8) : w_(weights), timing_(weights.max_len, 256) {
  if (int8) {
    auto quantize = [](const Matrix& m) {
      return std::make_unique<Int8Matrix>(QuantizeColumns(m.data(), m.cols(), m.rows(), m.cols()));
    };
    res_q_ = quantize(w_.res_w);
    for (size_t i = 0; i < w_.layers.size(); ++i) {
      const LayerWeights& l = w_.layers[i];
      layer_q_[i] = {quantize(l.qkv_w), quantize(l.out_w), quantize(l.ffn1_w), quantize(l.ffn2_w)};
    }
  }
  // AddTimingSignal: a = float32(t) * inv_timescales[i]; signal = [sin(a), cos(a)]. TF.js computes
  // sin/cos in double (Math.sin) and stores float32.
  const int half = static_cast<int>(w_.inv_timescales.size());
  for (int t = 0; t < w_.max_len; ++t) {
    for (int i = 0; i < half; ++i) {
      const float a = static_cast<float>(t) * w_.inv_timescales[i];
      timing_(t, i) = static_cast<float>(std::sin(static_cast<double>(a)));
      timing_(t, half + i) = static_cast<float>(std::cos(static_cast<double>(a)));
    }
  }
}

void Encoder::Attention(const LayerWeights& layer, const std::vector<int>& offsets,
                        const std::vector<int>& lengths, Workspace& ws) const {
  const int d = layer.width;
  const int hd = layer.head_dim;
  Matrix& qkv = d == 256 ? ws.qkv0 : ws.qkv1;
  Matrix& o = d == 256 ? ws.o0 : ws.o1;
  for (size_t b = 0; b < offsets.size(); ++b) {
    const int off = offsets[b];
    const int len = lengths[b];
    if (len == 0) continue;
    for (int head = 0; head < w_.num_heads; ++head) {
      auto q = ws.q.topLeftCorner(len, hd);
      auto s = ws.s.topLeftCorner(len, len);
      q = qkv.block(off, head * hd, len, hd) * layer.q_scale;
      s.noalias() = q * qkv.block(off, d + head * hd, len, hd).transpose();
      for (int i = 0; i < len; ++i) {  // softmax, max-subtracted
        auto row = s.row(i).array();
        row = (row - row.maxCoeff()).exp();
        row /= row.sum();
      }
      o.block(off, head * hd, len, hd).noalias() = s * qkv.block(off, 2 * d + head * hd, len, hd);
    }
  }
}

void Encoder::Forward(const std::vector<const std::vector<int>*>& ids, Workspace& ws, Matrix& out,
                      const std::vector<int64_t>& out_rows) const {
  const int64_t batch = static_cast<int64_t>(ids.size());
  std::vector<int> offsets(batch), lengths(batch);
  int64_t n = 0;
  for (int64_t b = 0; b < batch; ++b) {
    offsets[b] = static_cast<int>(n);
    lengths[b] = static_cast<int>(std::min<size_t>(ids[b]->size(), w_.max_len));  // ClipToMaxLength
    n += lengths[b];
  }
  const int64_t m = n;
  ws.Reserve(std::max<int64_t>(m, 1), std::max<int64_t>(batch, 1), w_.max_len);

  // Embedding + timing signal: x = e + (e + signal), on real tokens.
  for (int64_t b = 0; b < batch; ++b) {
    for (int t = 0; t < lengths[b]; ++t) {
      const float* e = w_.embeddings.row((*ids[b])[t]).data();
      const float* sig = timing_.row(t).data();
      float* x = ws.x0.row(offsets[b] + t).data();
      for (int j = 0; j < 256; ++j) x[j] = e[j] + (e[j] + sig[j]);
    }
  }

  // ---- Layer 0 (256 -> 512) ----
  const LayerWeights& l0 = w_.layers[0];
  LayerNorm(ws.x0.topRows(m), l0.ln_attn_gamma, l0.ln_attn_beta, w_.ln_eps, ws.h0.topRows(m));
  Dense(ws.h0, l0.qkv_w, layer_q_[0].qkv.get(), m, ws.qkv0, ws, Then(l0.qkv_b));
  // AdjustResidualInput on LN's input
  Dense(ws.x0, w_.res_w, res_q_.get(), m, ws.r, ws, Then(w_.res_b));
  Attention(l0, offsets, lengths, ws);
  Dense(ws.o0, l0.out_w, layer_q_[0].out.get(), m, ws.y, ws, Then(l0.out_b, false, &ws.r));

  // z = y + relu(LN(y) W1 + b1) W2 + b2
  auto ffn = [&](const LayerWeights& l, const QuantizedLayer& q) {
    LayerNorm(ws.y.topRows(m), l.ln_ffn_gamma, l.ln_ffn_beta, w_.ln_eps, ws.h.topRows(m));
    Dense(ws.h, l.ffn1_w, q.ffn1.get(), m, ws.f, ws, Then(l.ffn1_b, true));
    // z = (t + b2) + y, which is y + (t + b2): float addition commutes
    Dense(ws.f, l.ffn2_w, q.ffn2.get(), m, ws.z, ws, Then(l.ffn2_b, false, &ws.y));
  };
  ffn(l0, layer_q_[0]);

  // ---- Layer 1 (512) ----
  const LayerWeights& l1 = w_.layers[1];
  LayerNorm(ws.z.topRows(m), l1.ln_attn_gamma, l1.ln_attn_beta, w_.ln_eps, ws.h.topRows(m));
  Dense(ws.h, l1.qkv_w, layer_q_[1].qkv.get(), m, ws.qkv1, ws, Then(l1.qkv_b));
  Attention(l1, offsets, lengths, ws);
  Dense(ws.o1, l1.out_w, layer_q_[1].out.get(), m, ws.y, ws, Then(l1.out_b, false, &ws.z));
  ffn(l1, layer_q_[1]);

  // ---- Masked mean pooling, tanh dense, L2 normalisation ----
  for (int64_t b = 0; b < batch; ++b) {
    auto p = ws.pooled.row(b);
    p.setZero();
    for (int t = 0; t < lengths[b]; ++t) p += ws.z.row(offsets[b] + t);
    p /= static_cast<float>(std::max(lengths[b], 1));
  }
  Dense(ws.pooled, w_.tanh_w, nullptr, batch, ws.u, ws);
  for (int64_t b = 0; b < batch; ++b) {
    float* u = ws.u.row(b).data();
    const float* bias = w_.tanh_b.data();
    double ss = 0;
    for (int j = 0; j < 512; ++j) {
      u[j] = std::tanh(u[j] + bias[j]);
      ss += static_cast<double>(u[j]) * u[j];
    }
    const float scale = 1.0f / std::sqrt(std::max(static_cast<float>(ss), w_.l2_eps));
    float* dst = out.row(out_rows[b]).data();
    for (int j = 0; j < 512; ++j) dst[j] = u[j] * scale;
  }
}

}  // namespace revsum::use_lite
