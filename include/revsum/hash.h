// FNV-1a, 64 bit: the one stable hash behind revsum's identities — review and reject content
// hashes (store.h), product shards (ingest.h) and seed sets in run keys (run.h). Its values are
// stored in databases and compared across machines and releases, so it must never change.
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

}  // namespace revsum
