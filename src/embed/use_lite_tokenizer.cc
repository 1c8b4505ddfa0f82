// The USE-lite tokenizer, a port of the JS Tokenizer of
// @tensorflow-models/universal-sentence-encoder 1.3.3 as SPEC.md §1 describes it. It is not
// SentencePiece's algorithm; its quirks (UTF-16 code units, "0 means unset" in the best-path table,
// ties to the later candidate, unknown runs merged) decide the token ids and are kept on purpose.

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <stdexcept>

#include "revsum/use_lite.h"
#include "use_lite_internal.h"

namespace revsum::use_lite {

namespace {

constexpr char16_t kWordBoundary = u'\u2581';
constexpr int kReservedIds = 6;  // <unk>-like U+FFFD, <s>, </s>, extra_token_id_1..3

const icu::Normalizer2& Nfkc() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  if (U_FAILURE(status) || nfkc == nullptr) {
    throw EmbedError(std::string("use-lite: ICU NFKC normalizer unavailable: ") +
                     u_errorName(status));
  }
  return *nfkc;
}

}  // namespace

Tokenizer::Tokenizer(const std::vector<VocabEntry>& vocab) : nodes_(1), root_children_(65536, -1) {
  piece_length_.reserve(vocab.size());
  for (const VocabEntry& e : vocab) piece_length_.push_back(static_cast<int>(e.piece.size()));
  if (!piece_length_.empty()) piece_length_[0] = 1;  // unknown: U+FFFD, one code unit
  // Ids 6.. in increasing order; a later duplicate piece overwrites an earlier one (Trie.insert).
  for (size_t id = kReservedIds; id < vocab.size(); ++id) {
    const std::u16string& piece = vocab[id].piece;
    if (piece.empty()) continue;  // unreachable by commonPrefixSearch
    int32_t node = 0;
    for (char16_t unit : piece) {
      int32_t next = Child(node, unit);
      if (next < 0) {
        next = static_cast<int32_t>(nodes_.size());
        nodes_.emplace_back();
        if (node == 0) {
          root_children_[unit] = next;
        } else {
          children_[(static_cast<uint64_t>(node) << 16) | unit] = next;
        }
      }
      node = next;
    }
    nodes_[node].id = static_cast<int32_t>(id);
    nodes_[node].score = vocab[id].score;
  }
}

int32_t Tokenizer::Child(int32_t node, char16_t unit) const {
  if (node == 0) return root_children_[unit];
  auto it = children_.find((static_cast<uint64_t>(node) << 16) | unit);
  return it == children_.end() ? -1 : it->second;
}

std::vector<int> Tokenizer::Encode(const std::string& utf8) const {
  // processInput: NFKC; "" stays empty; otherwise "▁" + text with every U+0020 -> "▁".
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString normalized =
      Nfkc().normalize(icu::UnicodeString::fromUTF8(utf8), status);
  if (U_FAILURE(status)) {
    throw EmbedError(std::string("use-lite: NFKC normalization failed: ") + u_errorName(status));
  }
  if (normalized.isEmpty()) return {};
  std::u16string sym;
  sym.reserve(normalized.length() + 1);
  sym.push_back(kWordBoundary);
  for (int32_t i = 0; i < normalized.length(); ++i) {
    const char16_t unit = normalized.charAt(i);
    sym.push_back(unit == u' ' ? kWordBoundary : unit);
  }
  const int n = static_cast<int>(sym.size());

  // Lattice + best path in one sweep over start positions. The JS builds the lattice, then for
  // each end position visits its edges in increasing start order; relaxing edges forward from
  // increasing starts applies exactly the same updates in the same order per end position, and
  // best[start] is final when read because every edge into `start` begins earlier.
  // Every piece that starts at i is an edge; an unknown edge (id 0, score 0, length 1) is added
  // only when none does. best == 0 means "unset" (JS quirk); ties go to the later candidate.
  std::vector<double> best(n + 1, 0.0);
  std::vector<int> words(n + 1, 0);
  auto relax = [&](int start, int end, double score, int id) {
    const double s = score + best[start];
    if (best[end] == 0.0 || s >= best[end]) {
      best[end] = s;
      words[end] = id;
    }
  };
  for (int i = 0; i < n; ++i) {
    bool found = false;
    int32_t node = Child(0, sym[i]);
    for (int j = i; node >= 0;) {
      if (nodes_[node].id >= 0) {
        relax(i, j + 1, nodes_[node].score, nodes_[node].id);
        found = true;
      }
      if (++j >= n) break;
      node = Child(node, sym[j]);
    }
    if (!found) relax(i, i + 1, 0.0, 0);
  }

  // Backtrack from the end; drop an unknown when the one scanned just before it was unknown too.
  std::vector<int> ids;
  bool previous_unknown = false;
  for (int it = n; it > 0;) {
    const int id = words[it];
    if (!(previous_unknown && id == 0)) ids.push_back(id);
    previous_unknown = id == 0;
    it -= piece_length_[id];
  }
  return std::vector<int>(ids.rbegin(), ids.rend());
}

}  // namespace revsum::use_lite
