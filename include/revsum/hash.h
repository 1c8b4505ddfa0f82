// revsum's stable hashes. Fnv1a64 (FNV-1a, 64 bit) is the one behind revsum's identities — review
// and reject content hashes (store.h), product shards (ingest.h), seed sets in run keys (run.h)
// and in-memory cache keys. Its values are stored in databases and compared across machines and
// releases, so it must never change; nor must LexicalFeatureHash, below.
#pragma once

#include <cstdint>
#include <string_view>

namespace revsum {

inline constexpr uint64_t kFnv1a64Offset = 14695981039346656037ULL;

// Continues the hash `h` over `bytes` (start with kFnv1a64Offset).
inline uint64_t Fnv1a64(std::string_view bytes, uint64_t h = kFnv1a64Offset) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// The lexical embedder's feature hash (lexical.h): FNV-1a's multiply-xor loop from the offset
// 1469598103934665603 (one digit short of FNV's basis; the lexical embeddings were built with it)
// xor `seed`, then the SplitMix64 finaliser, which spreads FNV's weak low bits over the word.
// Frozen like Fnv1a64: every lexical vector, and so every summary made with the lexical embedder,
// depends on its values (pinned by tests/embed/lexical_test.cc).
inline uint64_t LexicalFeatureHash(std::string_view bytes, uint64_t seed) {
  uint64_t h = 1469598103934665603ULL ^ seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

}  // namespace revsum
