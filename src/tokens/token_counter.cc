// TokenCounter: loading a tiktoken vocabulary file (checked against the manifest) and encoding
// text with it. The file format is written by scripts/convert-tiktoken.cjs.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <utility>

#include "bpe_ranks.h"
#include "pretokenizer.h"
#include "revsum/models.h"
#include "revsum/tokens.h"

namespace revsum {

using tokens_internal::BpeRanks;
using tokens_internal::kNoRank;
using tokens_internal::Pretokenizer;

namespace {

// A vocabulary file whose pattern is not one of these is refused: the parity tests only vouch for
// these.
using tokens_internal::kCl100kPattern;
using tokens_internal::kO200kPattern;

std::string_view PatternOf(Encoding encoding) {
  return encoding == Encoding::kO200kBase ? kO200kPattern : kCl100kPattern;
}

// Decodes standard base64 (with '=' padding). Returns false on any other character.
bool DecodeBase64(std::string_view in, std::string* out) {
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+')
      v = 62;
    else if (c == '/')
      v = 63;
    else if (c == '=')
      break;
    else
      return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

std::string HowToFetch() {
  return "run scripts/fetch-tiktoken (or scripts/setup) from the revsum source tree, or set "
         "REVSUM_MODELS_DIR to a folder that holds tiktoken.manifest and tiktoken/";
}

}  // namespace

std::string_view EncodingName(Encoding encoding) {
  return encoding == Encoding::kO200kBase ? "o200k_base" : "cl100k_base";
}

bool ParseEncoding(std::string_view name, Encoding* encoding) {
  if (name == "o200k_base") {
    *encoding = Encoding::kO200kBase;
    return true;
  }
  if (name == "cl100k_base") {
    *encoding = Encoding::kCl100kBase;
    return true;
  }
  return false;
}

std::filesystem::path DefaultModelsDir() { return ModelsDir(); }

struct SpecialToken {
  std::string text;
  uint32_t id;
};

struct TokenCounter::Rep {
  Encoding encoding;
  std::string source_version;
  BpeRanks ranks;
  std::vector<SpecialToken> specials;  // in file order (= js-tiktoken's alternation order)
  std::unique_ptr<Pretokenizer> pretokenizer;
};

TokenCounter::TokenCounter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
TokenCounter::~TokenCounter() = default;

std::unique_ptr<TokenCounter> TokenCounter::Load(Encoding encoding, std::string* error) {
  std::filesystem::path dir;
  try {
    dir = DefaultModelsDir();
  } catch (const ModelsError& e) {
    *error = e.what();
    return nullptr;
  }
  return Load(encoding, dir, error);
}

std::unique_ptr<TokenCounter> TokenCounter::Load(Encoding encoding,
                                                 const std::filesystem::path& models_dir,
                                                 std::string* error) {
  const std::string name(EncodingName(encoding));
  const std::string file_name = name + ".tiktoken";
  const std::filesystem::path path = models_dir / "tiktoken" / file_name;

  // The expected sha256, from the manifest beside the data or else the default models folder's.
  std::filesystem::path manifest = models_dir / "tiktoken.manifest";
  if (!std::filesystem::exists(manifest)) {
    try {
      manifest = ModelsDir() / "tiktoken.manifest";
    } catch (const ModelsError&) {
      // keep the path beside the data: the error below names it
    }
  }
  const std::optional<std::string> manifest_bytes = ReadWholeFile(manifest);
  if (!manifest_bytes) {
    *error = "tokenizer manifest " + manifest.string() + " cannot be read; " + HowToFetch();
    return nullptr;
  }
  const std::string& manifest_text = *manifest_bytes;
  std::string expected_sha;
  {
    std::istringstream lines(manifest_text);
    std::string line;
    const std::string key = "file." + file_name + "=";
    while (std::getline(lines, line)) {
      if (line.rfind(key, 0) == 0) expected_sha = line.substr(key.size());
    }
  }
  if (expected_sha.empty()) {
    *error = manifest.string() + ": no line 'file." + file_name + "=<sha256>'";
    return nullptr;
  }

  if (!std::filesystem::exists(path)) {
    *error = "tokenizer vocabulary " + name + " is missing: " + path.string() +
             " does not exist or cannot be read; " + HowToFetch();
    return nullptr;
  }
  std::string data;
  try {
    data = ReadVerifiedModelFile(path, expected_sha, manifest,
                                 "re-run scripts/fetch-tiktoken --force");
  } catch (const ModelsError& e) {
    *error = e.what();
    return nullptr;
  }

  auto rep = std::make_unique<Rep>();
  rep->encoding = encoding;
  std::string pattern;
  std::string bytes;
  size_t line_no = 0;
  size_t begin = 0;
  auto fail = [&](const std::string& what) {
    *error = path.string() + ":" + std::to_string(line_no) + ": " + what;
    return nullptr;
  };
  while (begin < data.size()) {
    size_t end = data.find('\n', begin);
    if (end == std::string::npos) end = data.size();
    std::string_view line(data.data() + begin, end - begin);
    begin = end + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line[0] == '#') {
      auto value_of = [&](std::string_view key) -> std::optional<std::string_view> {
        if (line.substr(0, key.size()) != key) return std::nullopt;
        return line.substr(key.size());
      };
      if (auto v = value_of("#revsum-tiktoken "); v && *v != "1") {
        return fail("unsupported format version " + std::string(*v));
      } else if (auto v = value_of("#encoding "); v && *v != name) {
        return fail("file holds encoding " + std::string(*v) + ", expected " + name);
      } else if (auto v = value_of("#source js-tiktoken ")) {
        rep->source_version = std::string(*v);
      } else if (auto v = value_of("#pattern ")) {
        pattern = std::string(*v);
      } else if (auto v = value_of("#special ")) {
        size_t space = v->rfind(' ');
        if (space == std::string_view::npos) return fail("malformed #special line");
        SpecialToken special{std::string(v->substr(0, space)), 0};
        std::string id(v->substr(space + 1));
        char* stop = nullptr;
        unsigned long parsed = std::strtoul(id.c_str(), &stop, 10);
        if (id.empty() || *stop != '\0') return fail("malformed special token id '" + id + "'");
        special.id = static_cast<uint32_t>(parsed);
        rep->specials.push_back(std::move(special));
      }
      continue;
    }
    size_t space = line.find(' ');
    if (space == std::string_view::npos) return fail("expected '<base64 token> <rank>'");
    std::string rank_text(line.substr(space + 1));
    char* stop = nullptr;
    unsigned long rank = std::strtoul(rank_text.c_str(), &stop, 10);
    if (rank_text.empty() || *stop != '\0') return fail("malformed rank '" + rank_text + "'");
    if (rank != rep->ranks.size()) {
      return fail("rank " + rank_text + " out of order, expected " +
                  std::to_string(rep->ranks.size()));
    }
    if (!DecodeBase64(line.substr(0, space), &bytes) || bytes.empty()) {
      return fail("malformed base64 token");
    }
    rep->ranks.Add(bytes);
  }
  line_no = 4;
  if (pattern != PatternOf(encoding)) {
    return fail("the pre-tokenization pattern differs from the one revsum implements for " + name +
                " (js-tiktoken " + rep->source_version +
                "); update src/tokens/pretokenizer.h and re-run the parity fixtures");
  }
  if (rep->ranks.size() < 256) return fail("vocabulary has fewer than 256 tokens");
  rep->ranks.Finish();
  for (int b = 0; b < 256; ++b) {
    if (rep->ranks.Find(std::string(1, static_cast<char>(b))) == kNoRank) {
      return fail("byte " + std::to_string(b) + " has no token; not a byte-level vocabulary");
    }
  }
  rep->pretokenizer = Pretokenizer::Create(pattern, error);
  if (!rep->pretokenizer) {
    *error = path.string() + ": " + *error;
    return nullptr;
  }
  return std::unique_ptr<TokenCounter>(new TokenCounter(std::move(rep)));
}

namespace {

// Calls f on each pre-token piece of `text`. The piece list is kept per thread between calls (no
// allocation per sentence) unless one text made it large: a product's whole text must not stay
// resident in every worker after it was counted.
template <typename F>
void ForEachPiece(const tokens_internal::Pretokenizer& pretokenizer, std::string_view text, F f) {
  constexpr size_t kKeptPieces = 1 << 16;
  thread_local std::vector<std::string_view> pieces;
  pieces.clear();
  pretokenizer.Split(text, &pieces);
  for (std::string_view piece : pieces) f(piece);
  if (pieces.capacity() > kKeptPieces) std::vector<std::string_view>().swap(pieces);
}

}  // namespace

void TokenCounter::Encode(std::string_view text, std::vector<uint32_t>* ids) const {
  ForEachPiece(*rep_->pretokenizer, text, [&](std::string_view piece) {
    tokens_internal::BytePairEncode(rep_->ranks, piece, ids);
  });
}

std::vector<uint32_t> TokenCounter::Encode(std::string_view text) const {
  std::vector<uint32_t> ids;
  Encode(text, &ids);
  return ids;
}

size_t TokenCounter::Count(std::string_view text) const {
  thread_local std::vector<uint32_t> ids;  // one piece's tokens at a time
  size_t count = 0;
  ForEachPiece(*rep_->pretokenizer, text, [&](std::string_view piece) {
    ids.clear();
    tokens_internal::BytePairEncode(rep_->ranks, piece, &ids);
    count += ids.size();
  });
  return count;
}

std::vector<uint32_t> TokenCounter::EncodeWithSpecialTokens(std::string_view text) const {
  std::vector<uint32_t> ids;
  size_t start = 0;
  while (true) {
    // The leftmost special token; at one position, the first in file order.
    size_t best = std::string_view::npos;
    const SpecialToken* found = nullptr;
    for (const SpecialToken& special : rep_->specials) {
      size_t at = text.find(special.text, start);
      if (at < best) {
        best = at;
        found = &special;
      }
    }
    Encode(text.substr(start, best == std::string_view::npos ? text.size() - start : best - start),
           &ids);
    if (found == nullptr) break;
    ids.push_back(found->id);
    start = best + found->text.size();
  }
  return ids;
}

bool TokenCounter::Decode(std::span<const uint32_t> ids, std::string* bytes) const {
  bytes->clear();
  for (uint32_t id : ids) {
    if (id < rep_->ranks.size()) {
      bytes->append(rep_->ranks.Bytes(id));
      continue;
    }
    auto special = std::find_if(rep_->specials.begin(), rep_->specials.end(),
                                [id](const SpecialToken& s) { return s.id == id; });
    if (special == rep_->specials.end()) return false;
    bytes->append(special->text);
  }
  return true;
}

Encoding TokenCounter::encoding() const { return rep_->encoding; }
size_t TokenCounter::vocab_size() const { return rep_->ranks.size(); }
const std::string& TokenCounter::source_version() const { return rep_->source_version; }

}  // namespace revsum
