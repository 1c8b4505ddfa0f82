// Ingest: dump files ──read──▶ Review/Reject ──segment (ICU)──▶ Sentence[] ──▶ ReviewStore.
//
// One reader thread, `threads` segmentation workers and one writer (the calling thread), joined by
// bounded queues, so memory stays bounded whatever the dump size and records are stored in the
// order they were read. Every record read ends up either as a review (new or already stored) or
// as a reject: read == ingested + duplicates + rejected, always.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "revsum/read.h"
#include "revsum/store.h"
#include "revsum/text.h"
#include "revsum/tokens.h"

namespace revsum {

struct IngestCounts {
  uint64_t read = 0;        // records read from the dump (reviews + rejects)
  uint64_t ingested = 0;    // new reviews stored
  uint64_t duplicates = 0;  // reviews already in the store (same content hash): not stored again
  uint64_t rejected = 0;    // records kept in the rejects table
  uint64_t sentences = 0;   // sentences of the new reviews

  IngestCounts& operator+=(const IngestCounts& o);
};

struct IngestProgress {
  std::string path;
  uint64_t records = 0;      // records read so far from this file
  uint64_t bytes = 0;        // bytes consumed from the file (compressed bytes for .gz)
  uint64_t total_bytes = 0;  // the file's size; 0 when unknown (stdin, pipes)
  double seconds = 0;        // since this file was opened
};

struct IngestOptions {
  ReadOptions read;        // format, field names, limits (see read.h)
  SegmentOptions segment;  // sentence segmentation (see text.h)
  // Segmentation worker threads; 0 = one per core.
  int threads = 0;
  // Records per batch handed to a worker.
  size_t batch_records = 256;
  // Counts each sentence's LLM tokens (Sentence::tokens) when set; not owned. revsum uses
  // o200k_base here so stored counts are comparable across runs.
  const TokenCounter* tokens = nullptr;
  // Called from the writer thread about every 250 ms while a file is read, and once at its end.
  std::function<void(const IngestProgress&)> progress;
  // Called for every reject as it is stored (the CLI prints them); may be empty.
  std::function<void(const Reject&)> on_reject;
};

// Reads one dump (or "-" for stdin) into `store`. Bad records never throw: they are counted and
// stored as rejects. If the database or a thread fails (StoreError, std::bad_alloc...), every
// thread is stopped, the open batch is rolled back (committed batches stay; re-ingesting skips
// what is stored) and the first failure is rethrown.
IngestCounts IngestFile(ReviewStore& store, const std::string& path, const IngestOptions& options);

}  // namespace revsum
