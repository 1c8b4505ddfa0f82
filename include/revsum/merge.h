// Merge: revsum stores ──▶ one store. The other half of sharding (IngestShard, ingest.h): N
// processes or machines each build a store of one shard of the same dumps, and MergeStore joins
// them into one that holds what a single store built from those dumps would hold.
//
// Everything is matched by its natural key, never by internal id, and every internal id is
// remapped to the output's:
//   sources    by path; their counts (records, ingested, duplicates, rejected) are derived from
//              the parts (source_parts) the inputs' ingests counted: the newest complete set of
//              shard parts, summed, so a dump is counted once however often or in how many
//              overlapping shard sets it is merged
//   products   by key
//   reviews    by content_hash (ReviewContentHash); source_id and product_id remapped
//   sentences  with their review (remapped review_id), in input id order, each added to the
//              full-text index (sentences_fts) as the store indexes it (revsum_fts_text)
//   rejects    by content_hash
//   runs       by key: a run present in several inputs becomes one run; its heads are the union
//              of the inputs' (head weights re-laid out by head name), it is finished when any
//              input that has it finished it (an interrupted shard does not hide the others'
//              summaries; MergeCounts::interrupted_runs says so), and its snapshot_review_id
//              becomes the output's highest review id after the merge. What each product summary
//              covered is kept with it (summaries.reviews_covered, the product's reviews the
//              input's run read), so `summarize` re-scores every product whose merged reviews are
//              not exactly those: a product only another input summarised, or none did, or one an
//              input updated after an earlier merge
//   scores     remapped run_id and sentence_id
//   summaries  remapped run_id; a review-scope subject (a review id) and every id of sentence_ids
//              are remapped; a product-scope subject is the product key
// Rows already in the output win: a review, reject, score or summary that the output has (same
// natural key) is not replaced, so merging the same input twice adds nothing.
//
// Inputs are opened read-only and never modified. Each input is merged in one write transaction
// on the output: a failure or a kill mid-way leaves the output as it was before that input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "revsum/store.h"

namespace revsum {

// Checks that `input` can be merged: an existing revsum store at this build's schema
// (kSchemaVersion), opened read-only. Throws StoreError naming the file otherwise (another SQLite
// database, an older or newer schema, not SQLite at all). Writes nothing anywhere.
void CheckMergeInput(const std::string& input);

// Merges the store at `input` into `out` (see the top of this file), in one transaction. Throws
// StoreError naming the input when it cannot be merged (CheckMergeInput) or is `out` itself, and
// StoreError when the output cannot be written; either way `out` keeps exactly what it had.
// REQUIRES: `out` has no open batch of its own that should survive a failure (it is flushed).
MergeCounts MergeStore(ReviewStore& out, const std::string& input);

}  // namespace revsum
