// Ingest: dump files ──read──▶ Review/Reject ──segment (ICU)──▶ Sentence[] ──▶ ReviewStore.
//
// One reader thread, `threads` segmentation workers and one writer (the calling thread), joined by
// bounded queues, so memory stays bounded whatever the dump size and records are stored in the
// order they were read. Every record read ends up as a review (new or already stored), as a reject
// or, with a shard (IngestShard), as a record of another shard:
// read == ingested + duplicates + rejected + other_shard, always. A review with nothing visible
// after cleaning (only markup, spaces or zero-width characters) or whose text is over
// max_text_bytes is a reject too; one of only symbols or emoji ("？？？") is kept with its cleaned
// text as its one sentence, so no stored review is without sentences.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "revsum/read.h"
#include "revsum/store.h"
#include "revsum/text.h"
#include "revsum/tokens.h"

namespace revsum {

struct IngestCounts {
  uint64_t read = 0;         // records read from the dump (reviews + rejects)
  uint64_t ingested = 0;     // new reviews stored
  uint64_t duplicates = 0;   // reviews already in the store (same content hash): not stored again
  uint64_t rejected = 0;     // records kept in the rejects table
  uint64_t other_shard = 0;  // records left to another shard (IngestOptions::shard): not stored
  uint64_t sentences = 0;    // sentences of the new reviews

  IngestCounts& operator+=(const IngestCounts& o);
};

struct IngestProgress {
  std::string path;
  uint64_t records = 0;      // records read so far from this file
  uint64_t bytes = 0;        // bytes consumed from the file (compressed bytes for .gz)
  uint64_t total_bytes = 0;  // the file's size; 0 when unknown (stdin, pipes)
  double seconds = 0;        // since this file was opened
};

// Shard K of N (1 <= K <= N <= kMaxShards): N processes or machines ingest the same dumps, each
// keeping the reviews of the products in its shard, so that every product's reviews are in exactly
// one shard store (and `revsum merge` can join the stores without splitting a product). A review
// belongs to shard ProductShard(product key, N): FNV-1a 64 of the key's bytes, mod N, plus 1 — a
// stable function of the key alone, the same on every machine and in every release.
// Rejects: a record the reader refused (bad JSON, a missing field) has no product key to trust, so
// it is kept by shard 1 only; a review refused after reading (no visible text, text too long) has
// one, and is kept by its product's shard. Either way the N shards together keep each reject once.
struct IngestShard {
  uint32_t index = 1;  // K, from 1
  uint32_t count = 1;  // N; 1 = no sharding
};
inline constexpr uint32_t kMaxShards = 1000000;
// FNV-1a 64 of `product`, mod `count`, plus 1: the shard (1..count) a product's reviews belong to.
// REQUIRES: count >= 1.
uint32_t ProductShard(std::string_view product, uint32_t count);
// Parses "K/N" (decimal, 1 <= K <= N <= kMaxShards); throws std::invalid_argument saying what is
// wrong and what to write instead.
IngestShard ParseShard(std::string_view text);

inline constexpr int kMaxIngestThreads = 1024;

struct IngestOptions {
  ReadOptions read;        // format, field names, limits (see read.h)
  SegmentOptions segment;  // sentence segmentation (see text.h)
  // Segmentation worker threads; 0 = one per core; at most kMaxIngestThreads are started.
  int threads = 0;
  // A batch handed to a worker closes at this many records or this many bytes of text, whichever
  // comes first, so the records in flight stay bounded in bytes whatever their size: at most
  // (4 x threads + threads + 1) batches, i.e. about 5 x threads x batch_bytes plus one record.
  size_t batch_records = 256;
  size_t batch_bytes = 4 << 20;
  // A review whose text is longer than this is rejected ("review text too long"): cleaning and
  // segmentation take about 40 bytes of memory per byte of text, so this bounds the memory one
  // review can take (about 40 MB at the default 1 MiB; real reviews are a few KB).
  size_t max_text_bytes = 1 << 20;
  // Counts each sentence's LLM tokens (Sentence::tokens) when set; not owned. revsum uses
  // o200k_base here so stored counts are comparable across runs.
  const TokenCounter* tokens = nullptr;
  // Called from the writer thread about every 250 ms while a file is read, and once at its end.
  std::function<void(const IngestProgress&)> progress;
  // Called for every reject as it is stored (the CLI prints them); may be empty.
  std::function<void(const Reject&)> on_reject;
  // Keep only this shard's records (see IngestShard); the default keeps everything. The source's
  // row counts only the shard's records (sources.records = read - other_shard), so the rows of the
  // N shard stores add up to the counts of one store that ingested everything.
  IngestShard shard;
};

// Checks, before anything is stored, that every input can be read: opens each regular file as
// IngestFile would and throws ReadError (read.h) for a missing file, a directory, an unsupported
// format such as Parquet, or a named field that the first records (the look-ahead; a CSV header)
// lack. "-", pipes (`<(cat dump)`), FIFOs and devices are not opened here, as they can be read
// only once. Bad records are not checked here: they become rejects.
void CheckInputs(const std::vector<std::string>& paths, const ReadOptions& options);

// What a dump looks like to the readers, for `revsum ingest --detect`: nothing is written.
struct DetectedInput {
  std::string path;
  Format format = Format::kAuto;  // as detected (never kAuto)
  bool gzip = false;
  std::vector<std::string> notices;  // ReadOptions::on_notice messages (e.g. no product field)
  std::vector<Record> records;       // the first records, parsed as ingest would parse them
};
// Opens `path` as IngestFile would and parses up to `max_records` records. Throws ReadError
// (read.h) when the dump cannot be read as asked, like IngestFile.
DetectedInput DetectInput(const std::string& path, const ReadOptions& options, size_t max_records);

// Reads one dump (or "-" for stdin) into `store`. Throws std::invalid_argument for a bad
// options.shard before anything is read. Bad records never throw: they are counted and
// stored as rejects. If the database or a thread fails (StoreError, std::bad_alloc...), every
// thread is stopped, the open batch is rolled back (committed batches stay; re-ingesting skips
// what is stored) and the first failure is rethrown.
IngestCounts IngestFile(ReviewStore& store, const std::string& path, const IngestOptions& options);

}  // namespace revsum
