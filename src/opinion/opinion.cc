// The opinion model: features, scoring, the stored form and the default model (opinion.h).
#include "revsum/opinion.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "revsum/hash.h"
#include "revsum/models.h"
#include "revsum/utf8.h"

namespace revsum {
namespace {

constexpr char kMagic[8] = {'R', 'V', 'O', 'P', 'I', 'N', '0', '1'};
constexpr size_t kHeaderBytes = 8 + 4 + 4 + 4;  // magic, dim_bits, band, bias
constexpr size_t kHashBytes = 32;

void AppendCodePoint(std::string* out, UChar32 c) {
  char buf[U8_MAX_LENGTH];
  int32_t len = 0;
  UBool error = false;
  U8_APPEND(buf, len, U8_MAX_LENGTH, c, error);
  if (!error) out->append(buf, static_cast<size_t>(len));
}

template <typename T>
void Put(std::string* out, T v) {
  static_assert(sizeof(T) == 4);
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

template <typename T>
T Get(std::string_view blob, size_t at) {
  uint32_t bits = 0;
  for (int i = 0; i < 4; ++i) {
    bits |= static_cast<uint32_t>(static_cast<unsigned char>(blob[at + i])) << (8 * i);
  }
  T v;
  std::memcpy(&v, &bits, 4);
  return v;
}

}  // namespace

std::vector<std::string> OpinionTokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string word;  // the current run of letters / digits
  auto flush = [&] {
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
  };
  const std::string_view s = text.substr(0, std::min<size_t>(text.size(), INT32_MAX));
  for (size_t i = 0; i < s.size();) {
    const UChar32 c = NextCodePoint(s, &i);
    if (c < 0) {  // ill-formed byte: a separator
      flush();
      continue;
    }
    if (u_hasBinaryProperty(c, UCHAR_IDEOGRAPHIC)) {
      flush();
      std::string one;
      AppendCodePoint(&one, c);
      tokens.push_back(std::move(one));
    } else if (u_isalnum(c) || (c == '\'' && !word.empty())) {
      AppendCodePoint(&word, u_tolower(c));
    } else {
      flush();
      const int8_t type = u_charType(c);
      if (c == '!' || c == '?' || c == 0xFF01 || c == 0xFF1F || type == U_OTHER_SYMBOL) {
        std::string one;
        AppendCodePoint(&one, c == 0xFF01 ? '!' : c == 0xFF1F ? '?' : c);
        tokens.push_back(std::move(one));
      }
    }
  }
  flush();
  return tokens;
}

OpinionFeatures ExtractOpinionFeatures(std::string_view text, int dim_bits) {
  const std::vector<std::string> tokens = OpinionTokens(text);
  OpinionFeatures f;
  const uint64_t mask = (uint64_t{1} << dim_bits) - 1;
  f.buckets.reserve(tokens.size() * 3);
  // n-gram hashes: the tokens joined by a unit separator after a byte that says n, so "ab" as a
  // unigram and "a","b" as a bigram hash apart.
  for (size_t i = 0; i < tokens.size(); ++i) {
    uint64_t h = kFnv1a64Offset;
    for (size_t n = 1; n <= 3 && i + n <= tokens.size(); ++n) {
      h = Fnv1a64("\x1f", h);
      h = Fnv1a64(tokens[i + n - 1], h);
      const char tag = static_cast<char>('0' + n);
      f.buckets.push_back(static_cast<uint32_t>(Fnv1a64(std::string_view(&tag, 1), h) & mask));
    }
  }
  f.value = f.buckets.empty() ? 0.0f : 1.0f / std::sqrt(static_cast<float>(f.buckets.size()));
  return f;
}

std::string_view OpinionSideName(OpinionSide side) {
  switch (side) {
    case OpinionSide::kPraise:
      return "praise";
    case OpinionSide::kComplaint:
      return "complaint";
    case OpinionSide::kNeutral:
      break;
  }
  return "neutral";
}

OpinionModel::OpinionModel(int dim_bits) : dim_bits_(dim_bits) {
  if (dim_bits < 8 || dim_bits > 26) {
    throw std::invalid_argument("opinion model: dim_bits " + std::to_string(dim_bits) +
                                " is outside 8-26");
  }
  w_.assign(size_t{1} << dim_bits, 0.0f);
  u_.assign(size_t{1} << dim_bits, 0.0f);
}

std::vector<SentenceOpinion> OpinionModel::Score(const std::vector<std::string>& sentences) const {
  std::vector<OpinionFeatures> features;
  features.reserve(sentences.size());
  for (const std::string& s : sentences) features.push_back(ExtractOpinionFeatures(s, dim_bits_));
  return ScoreFeatures(features);
}

std::vector<SentenceOpinion> OpinionModel::ScoreFeatures(
    const std::vector<OpinionFeatures>& sentences) const {
  std::vector<SentenceOpinion> out(sentences.size());
  float top = -INFINITY;
  for (size_t i = 0; i < sentences.size(); ++i) {
    const OpinionFeatures& f = sentences[i];
    float s = 0, g = 0;
    for (uint32_t b : f.buckets) {
      s += w_[b];
      g += u_[b];
    }
    out[i].score = std::tanh(s * f.value + bias_);
    out[i].logit = g * f.value;
    top = std::max(top, out[i].logit);
  }
  double sum = 0;
  for (SentenceOpinion& o : out) sum += std::exp(static_cast<double>(o.logit - top));
  for (SentenceOpinion& o : out) {
    o.salience = static_cast<float>(std::exp(static_cast<double>(o.logit - top)) / sum);
  }
  return out;
}

double OpinionModel::Verdict(const std::vector<SentenceOpinion>& opinions) {
  double r = 0;
  for (const SentenceOpinion& o : opinions) r += double(o.salience) * double(o.score);
  return r;
}

OpinionSide OpinionModel::Side(float score) const {
  if (score >= band_) return OpinionSide::kPraise;
  if (score <= -band_) return OpinionSide::kComplaint;
  return OpinionSide::kNeutral;
}

std::string OpinionModel::Serialize() const {
  std::string out(kMagic, sizeof kMagic);
  out.reserve(kHeaderBytes + 8 * w_.size() + kHashBytes);
  Put(&out, static_cast<uint32_t>(dim_bits_));
  Put(&out, band_);
  Put(&out, bias_);
  for (float v : w_) Put(&out, v);
  for (float v : u_) Put(&out, v);
  out += Sha256Digest(out);
  return out;
}

OpinionModel OpinionModel::Deserialize(std::string_view blob, std::string_view origin) {
  const std::string where(origin);
  if (blob.size() < kHeaderBytes + kHashBytes || std::memcmp(blob.data(), kMagic, 8) != 0) {
    throw OpinionError(where + ": not a revsum opinion model (bad header, " +
                       std::to_string(blob.size()) + " bytes)");
  }
  const std::string_view body = blob.substr(0, blob.size() - kHashBytes);
  if (Sha256Digest(body) != blob.substr(blob.size() - kHashBytes)) {
    throw OpinionError(where + ": opinion model is damaged (its sha256 does not match its " +
                       "contents); retrain it with `revsum train` or restore the file");
  }
  const auto dim_bits = Get<uint32_t>(blob, 8);
  if (dim_bits < 8 || dim_bits > 26 || body.size() != kHeaderBytes + 8 * (size_t{1} << dim_bits)) {
    throw OpinionError(where + ": opinion model has a wrong size for 2^" +
                       std::to_string(dim_bits) + " buckets");
  }
  OpinionModel m(static_cast<int>(dim_bits));
  m.band_ = Get<float>(blob, 12);
  m.bias_ = Get<float>(blob, 16);
  const size_t d = size_t{1} << dim_bits;
  for (size_t i = 0; i < d; ++i) m.w_[i] = Get<float>(blob, kHeaderBytes + 4 * i);
  for (size_t i = 0; i < d; ++i) m.u_[i] = Get<float>(blob, kHeaderBytes + 4 * (d + i));
  if (!std::isfinite(m.band_) || !std::isfinite(m.bias_) || m.band_ < 0 || m.band_ >= 1) {
    throw OpinionError(where + ": opinion model has a non-finite or out-of-range header value");
  }
  for (size_t i = 0; i < d; ++i) {
    if (!std::isfinite(m.w_[i]) || !std::isfinite(m.u_[i])) {
      throw OpinionError(where + ": opinion model has a non-finite weight");
    }
  }
  return m;
}

OpinionModel OpinionModel::Load(const std::string& path) {
  const std::optional<std::string> bytes = ReadWholeFile(path);
  if (!bytes) throw OpinionError(path + ": cannot read the opinion model");
  return Deserialize(*bytes, path);
}

std::string OpinionModel::Hash() const { return Sha256Hex(Serialize()); }

std::string DefaultOpinionModelPath() { return (ModelsDir() / "opinion" / "default.bin").string(); }

OpinionModel LoadDefaultOpinionModel() {
  const std::filesystem::path dir = ModelsDir();
  const std::string manifest_path = (dir / "opinion.manifest").string();
  std::ifstream manifest(manifest_path);
  if (!manifest) throw OpinionError(manifest_path + ": cannot read the opinion model's manifest");
  std::string line, expected;
  while (std::getline(manifest, line)) {
    if (line.rfind("sha256 ", 0) == 0) expected = line.substr(7);
  }
  if (expected.empty()) throw OpinionError(manifest_path + ": no 'sha256 <hex>' line");
  const std::string path = DefaultOpinionModelPath();
  return OpinionModel::Deserialize(ReadVerifiedModelFile(path, expected, manifest_path,
                                                         "rebuild it with scripts/train-opinions"),
                                   path);
}

float CombineWithWordLists(float p, int word_sign) {
  if (word_sign == 0) return p;
  const float clipped = std::clamp(p, -0.9999f, 0.9999f);
  return std::tanh(std::atanh(clipped) + kWordListEvidence * static_cast<float>(word_sign));
}

bool IsHeldOut(std::string_view key, int folds) {
  return folds > 1 && Fnv1a64(key) % static_cast<uint64_t>(folds) == 0;
}

}  // namespace revsum
