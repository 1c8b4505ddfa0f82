// LexicalEmbedder: hashed TF-IDF over ICU words and CJK character bigrams (see lexical.h).
#include <cmath>
#include <memory>
#include <stdexcept>
#include <unordered_set>

#include <unicode/unistr.h>

#include "revsum/hash.h"
#include "revsum/lexical.h"

namespace revsum {
namespace {

bool IsAsciiAlpha(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 'a' || c > 'z') return false;
  }
  return !s.empty();
}

// Appends `w` to `out` with a deliberately light English plural strip; see lexical.h.
void AppendLightStem(std::string_view w, std::string* out) {
  if (!IsAsciiAlpha(w) || w.size() <= 3) {
    out->append(w);
    return;
  }
  auto ends = [&](std::string_view suffix) {
    return w.size() > suffix.size() && w.substr(w.size() - suffix.size()) == suffix;
  };
  if (ends("ies") && w.size() > 4) {
    out->append(w.substr(0, w.size() - 3));
    out->push_back('y');
  } else if (ends("sses") || ends("shes") || ends("ches") || ends("xes")) {
    out->append(w.substr(0, w.size() - 2));
  } else if (ends("ss") || ends("us") || ends("is")) {
    out->append(w);
  } else if (ends("s")) {
    out->append(w.substr(0, w.size() - 1));
  } else {
    out->append(w);
  }
}

bool IsAscii(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) return false;
  }
  return true;
}

std::string ToUtf8(const icu::UnicodeString& s) {
  std::string out;
  s.toUTF8String(out);
  return out;
}

}  // namespace

LexicalEmbedder::LexicalEmbedder(LexicalOptions options)
    : options_(options), words_(std::make_unique<WordSegmenter>()) {
  if (options_.dim <= 0) throw std::invalid_argument("LexicalEmbedder: dim must be > 0");
}

std::string LexicalEmbedder::model_hash() const {
  return "lexical-v1:dim=" + std::to_string(options_.dim) +
         ":seed=" + std::to_string(options_.seed) +
         ":tf=" + (options_.sublinear_tf ? "sub" : "raw") +
         ":cjk=" + (options_.cjk_bigrams ? "1" : "0") +
         ":stem=" + (options_.light_stem ? "1" : "0") + ":idf=" +
         (corpus_docs_ == 0 ? std::string("batch") : "corpus " + std::to_string(corpus_docs_));
}

std::vector<std::string> LexicalEmbedder::Features(std::string_view sentence) const {
  std::vector<std::string> features;
  std::vector<std::string> words = words_->Words(sentence);
  features.reserve(words.size());
  for (const std::string& w : words) {
    std::string& feature = features.emplace_back();
    feature.reserve(w.size() + 3);
    feature += "w:";
    if (options_.light_stem) {
      AppendLightStem(w, &feature);
    } else {
      feature += w;
    }
  }
  // ASCII text holds no CJK character.
  if (options_.cjk_bigrams && !IsAscii(sentence)) {
    const icu::UnicodeString text = icu::UnicodeString::fromUTF8(
        icu::StringPiece(sentence.data(), static_cast<int32_t>(sentence.size())));
    // Runs of CJK code points over the whole sentence (independent of the word segmentation).
    std::vector<UChar32> run;
    auto flush = [&]() {
      if (run.size() == 1) {
        features.push_back("c:" + ToUtf8(icu::UnicodeString(run[0])));
      }
      for (size_t i = 0; i + 1 < run.size(); ++i) {
        icu::UnicodeString bigram(run[i]);
        bigram.append(run[i + 1]);
        features.push_back("c:" + ToUtf8(bigram));
      }
      run.clear();
    };
    for (int32_t i = 0; i < text.length();) {
      const UChar32 c = text.char32At(i);
      if (IsCjk(static_cast<char32_t>(c))) {
        run.push_back(c);
      } else {
        flush();
      }
      i += U16_LENGTH(c);
    }
    flush();
  }
  return features;
}

void LexicalEmbedder::FitIdf(const std::vector<std::string>& corpus) {
  corpus_df_.clear();
  for (const std::string& doc : corpus) {
    std::vector<std::string> f = Features(doc);
    std::unordered_set<std::string> unique(f.begin(), f.end());
    for (const std::string& feature : unique) ++corpus_df_[feature];
  }
  corpus_docs_ = corpus.size();
}

void LexicalEmbedder::ClearIdf() {
  corpus_df_.clear();
  corpus_docs_ = 0;
}

std::vector<LexicalEmbedder::TermCount> LexicalEmbedder::Terms(std::string_view sentence) const {
  std::unordered_map<std::string, uint32_t> tf;
  for (std::string& f : Features(sentence)) ++tf[std::move(f)];
  std::vector<TermCount> terms;
  terms.reserve(tf.size());
  for (auto& [feature, count] : tf) {
    terms.push_back({feature, count, LexicalFeatureHash(feature, options_.seed)});
  }
  return terms;
}

Matrix LexicalEmbedder::Embed(const std::vector<std::string>& sentences) {
  const Eigen::Index n = static_cast<Eigen::Index>(sentences.size());
  // Term counts per sentence. Those of the batch's last kTailCache sentences are kept for the next
  // batch (see tail_terms_); a sentence's terms depend on its text alone. `previous` holds the
  // last batch's until this one is done, since `terms` may point into it.
  std::unordered_map<std::string, std::vector<TermCount>> previous = std::move(tail_terms_);
  std::unordered_map<std::string, std::vector<TermCount>> next_tail;
  std::vector<std::vector<TermCount>> fresh;
  fresh.reserve(sentences.size());  // `terms` points into it: no reallocation
  std::vector<const std::vector<TermCount>*> terms(sentences.size());
  const size_t tail_from = sentences.size() > kTailCache ? sentences.size() - kTailCache : 0;
  for (size_t i = 0; i < sentences.size(); ++i) {
    if (const auto kept = next_tail.find(sentences[i]); kept != next_tail.end()) {
      terms[i] = &kept->second;
    } else if (auto old = previous.find(sentences[i]); old != previous.end()) {
      // Extracting keeps the node where it is, so earlier pointers to it stay valid.
      terms[i] =
          i >= tail_from ? &next_tail.insert(previous.extract(old)).position->second : &old->second;
    } else if (i >= tail_from) {
      terms[i] = &next_tail.emplace(sentences[i], Terms(sentences[i])).first->second;
    } else {
      terms[i] = &fresh.emplace_back(Terms(sentences[i]));
    }
  }
  // Document frequencies: the batch (keys view the terms' features, which stay put), or the fixed
  // corpus.
  std::unordered_map<std::string_view, uint32_t> batch_df;
  if (corpus_docs_ == 0) {
    for (const std::vector<TermCount>* counts : terms) {
      for (const TermCount& t : *counts) ++batch_df[t.feature];
    }
  }
  auto document_frequency = [&](const std::string& feature) -> double {
    if (corpus_docs_ == 0) {
      const auto it = batch_df.find(feature);
      return it == batch_df.end() ? 0.0 : it->second;
    }
    const auto it = corpus_df_.find(feature);
    return it == corpus_df_.end() ? 0.0 : it->second;
  };
  const double docs =
      corpus_docs_ == 0 ? static_cast<double>(n) : static_cast<double>(corpus_docs_);

  Matrix E = ZeroMatrix(n, options_.dim);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (const TermCount& term : *terms[static_cast<size_t>(i)]) {
      const double d = document_frequency(term.feature);
      const double idf = std::log((1.0 + docs) / (1.0 + d)) + 1.0;
      const double t = options_.sublinear_tf ? 1.0 + std::log(static_cast<double>(term.count))
                                             : static_cast<double>(term.count);
      const uint64_t h = term.hash;
      const Eigen::Index column =
          static_cast<Eigen::Index>(h % static_cast<uint64_t>(options_.dim));
      const float sign = (h >> 63) ? -1.f : 1.f;
      E(i, column) += sign * static_cast<float>(t * idf);
    }
    const float norm = E.row(i).norm();
    if (norm > 0.f) E.row(i) /= norm;
  }
  tail_terms_ = std::move(next_tail);
  return E;
}

}  // namespace revsum
