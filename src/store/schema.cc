// The schema and its migrations. Each migration moves PRAGMA user_version up by one; Open() runs
// the check and every pending migration inside one BEGIN IMMEDIATE transaction, so a database is
// always at exactly one version and concurrent first opens wait for each other instead of racing.
// Never edit a released migration: add the next one.
#include <string>

#include "statement.h"

namespace revsum::store_internal {
namespace {

// Version 1: what `revsum ingest` writes.
constexpr const char* kMigration1 = R"sql(
CREATE TABLE sources (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,          -- as given on the command line; '-' for stdin
  format      TEXT NOT NULL,                 -- jsonl, csv, tsv, text
  size_bytes  INTEGER,                       -- file size when known
  records     INTEGER NOT NULL DEFAULT 0,    -- records read by the latest ingest
  ingested    INTEGER NOT NULL DEFAULT 0,    -- new reviews stored by the latest ingest
  duplicates  INTEGER NOT NULL DEFAULT 0,    -- reviews already stored (same content hash)
  rejected    INTEGER NOT NULL DEFAULT 0,
  ingested_at TEXT
);
CREATE TABLE products (
  id  INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE                   -- asin, parent_asin, category...; '' when unknown
);
CREATE TABLE reviews (
  id           INTEGER PRIMARY KEY,
  source_id    INTEGER NOT NULL REFERENCES sources(id),
  line         INTEGER NOT NULL,             -- where the record starts in its dump
  product_id   INTEGER NOT NULL REFERENCES products(id),
  external_id  TEXT NOT NULL DEFAULT '',
  rating       REAL,
  title        TEXT NOT NULL DEFAULT '',
  text         TEXT NOT NULL,                -- original text; sentence offsets index into it
  time         INTEGER,                      -- unix seconds
  content_hash INTEGER NOT NULL UNIQUE       -- FNV-1a of product, external id, text
);
CREATE INDEX reviews_by_product ON reviews(product_id);
CREATE TABLE sentences (
  id        INTEGER PRIMARY KEY,
  review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  idx       INTEGER NOT NULL,                -- position in the review, from 0
  begin     INTEGER NOT NULL,                -- code point offsets into reviews.text:
  end       INTEGER NOT NULL,                --   substr(text, begin + 1, end - begin)
  text      TEXT NOT NULL,                   -- cleaned sentence (NFKC, no HTML)
  UNIQUE (review_id, idx)
);
CREATE TABLE rejects (
  id        INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id),
  line      INTEGER NOT NULL,
  reason    TEXT NOT NULL,
  raw       BLOB,                            -- the record's bytes (bounded)
  UNIQUE (source_id, line, reason)
);
-- Full-text index over sentences. Its text is FtsIndexText(sentence): CJK characters spaced
-- apart, so Chinese is searchable by any substring; rowid = sentences.id.
CREATE VIRTUAL TABLE sentences_fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');

CREATE VIEW review_sentences AS
  SELECT p.key AS product, r.id AS review_id, r.external_id, r.rating, s.idx, s.id AS sentence_id,
         s.text
  FROM sentences s JOIN reviews r ON r.id = s.review_id JOIN products p ON p.id = r.product_id;
CREATE VIEW product_stats AS
  SELECT p.key AS product, count(DISTINCT r.id) AS reviews,
         (SELECT count(*) FROM sentences s JOIN reviews r2 ON r2.id = s.review_id
           WHERE r2.product_id = p.id) AS sentences,
         round(avg(r.rating), 2) AS avg_rating
  FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.id;
CREATE VIEW reject_summary AS
  SELECT s.path AS source, j.line, j.reason, length(j.raw) AS raw_bytes
  FROM rejects j JOIN sources s ON s.id = j.source_id;
)sql";

// Version 2: summarisation runs, their scores and summaries.
constexpr const char* kMigration2 = R"sql(
CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  key         TEXT NOT NULL UNIQUE,          -- every parameter that affects results; same key = same run
  params      TEXT NOT NULL,                 -- JSON, for people
  embedder    TEXT NOT NULL,
  model_hash  TEXT NOT NULL DEFAULT '',
  heads       TEXT NOT NULL DEFAULT '',      -- head names, tab-separated, order of head_weights
  started_at  TEXT NOT NULL,
  finished_at TEXT
);
CREATE TABLE scores (
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  scope        TEXT NOT NULL CHECK (scope IN ('review', 'product')),
  sentence_id  INTEGER NOT NULL REFERENCES sentences(id) ON DELETE CASCADE,
  weight       REAL NOT NULL,                -- the weights of one scope sum to 1
  head_weights BLOB,                         -- float32 per head, in runs.heads order
  PRIMARY KEY (run_id, scope, sentence_id)
) WITHOUT ROWID;
CREATE TABLE summaries (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  scope        TEXT NOT NULL CHECK (scope IN ('review', 'product')),
  subject      TEXT NOT NULL,                -- review id or product key
  text         TEXT NOT NULL,
  sentence_ids TEXT NOT NULL,                -- JSON array of sentences.id, in summary order
  units_in     INTEGER NOT NULL,             -- size of the input, in `unit`
  units_out    INTEGER NOT NULL,
  unit         TEXT NOT NULL,                -- 'words' or a tokenizer name
  embedder     TEXT NOT NULL DEFAULT '',
  UNIQUE (run_id, scope, subject)
);
CREATE VIEW latest_summaries AS
  SELECT s.scope, s.subject, s.text, s.units_in, s.units_out, s.unit,
         round(1.0 * s.units_in / max(s.units_out, 1), 1) AS compression, r.id AS run_id, r.params
  FROM summaries s JOIN runs r ON r.id = s.run_id
  WHERE r.id = (SELECT id FROM runs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id DESC
                LIMIT 1);
CREATE VIEW sentence_scores AS
  SELECT sc.run_id, sc.scope, p.key AS product, s.review_id, s.idx, sc.weight, s.text
  FROM scores sc JOIN sentences s ON s.id = sc.sentence_id JOIN reviews r ON r.id = s.review_id
  JOIN products p ON p.id = r.product_id;
)sql";

// Version 3: LLM token counts per sentence and per summary.
constexpr const char* kMigration3 = R"sql(
ALTER TABLE sentences ADD COLUMN tokens INTEGER;     -- o200k_base tokens of text; NULL if not counted
ALTER TABLE summaries ADD COLUMN tokenizer TEXT;     -- the run's tokenizer; NULL without its data
ALTER TABLE summaries ADD COLUMN tokens_in INTEGER;  -- tokens of the scope's review texts, one per line
ALTER TABLE summaries ADD COLUMN tokens_out INTEGER; -- tokens of summaries.text
DROP VIEW latest_summaries;
CREATE VIEW latest_summaries AS
  SELECT s.scope, s.subject, s.text, s.units_in, s.units_out, s.unit,
         round(1.0 * s.units_in / max(s.units_out, 1), 1) AS compression, s.tokenizer, s.tokens_in,
         s.tokens_out, s.tokens_in - s.tokens_out AS tokens_saved, r.id AS run_id, r.params
  FROM summaries s JOIN runs r ON r.id = s.run_id
  WHERE r.id = (SELECT id FROM runs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id DESC
                LIMIT 1);
)sql";

// Version 4: nothing the dump says is merged away, unfinished work is marked, and plain SQL tools
// can read everything (issues 9 and 12). Uses the functions of RegisterStoreFunctions().
constexpr const char* kMigration4 = R"sql(
-- A review's identity covers every field that is stored (product, id, rating, title, text, time):
-- two reviews that differ only in rating are two reviews; re-ingesting a dump still adds nothing.
UPDATE reviews SET content_hash = revsum_review_hash(
  (SELECT key FROM products WHERE id = reviews.product_id), external_id, rating, title, text, time);

-- A reject's identity is its content (reason + raw bytes), like a review's, not (source, line):
-- a new bad record at a reused path or on stdin is kept, and the same dump under another path
-- does not multiply its rejects. Rejects without raw bytes are told apart by line.
DROP VIEW reject_summary;
CREATE TABLE rejects_v4 (
  id           INTEGER PRIMARY KEY,
  source_id    INTEGER NOT NULL REFERENCES sources(id),
  line         INTEGER NOT NULL,             -- where the record starts in the dump it came from
  reason       TEXT NOT NULL,
  raw          BLOB,                         -- the record's bytes (bounded)
  content_hash INTEGER NOT NULL UNIQUE       -- revsum_reject_hash(source path, line, reason, raw)
);
INSERT OR IGNORE INTO rejects_v4(id, source_id, line, reason, raw, content_hash)
  SELECT j.id, j.source_id, j.line, j.reason, j.raw,
         revsum_reject_hash(s.path, j.line, j.reason, j.raw)
  FROM rejects j JOIN sources s ON s.id = j.source_id ORDER BY j.id;
DROP TABLE rejects;
ALTER TABLE rejects_v4 RENAME TO rejects;
CREATE VIEW reject_summary AS
  SELECT s.path AS source, j.line, j.reason, length(j.raw) AS raw_bytes
  FROM rejects j JOIN sources s ON s.id = j.source_id;

-- Unfinished work is marked: an ingest is 'ingesting' until its counts are written, a run is
-- unfinished while finished_at IS NULL.
ALTER TABLE sources ADD COLUMN status TEXT NOT NULL DEFAULT 'done'
  CHECK (status IN ('ingesting', 'done'));
-- The snapshot a run read: reviews with id <= snapshot_review_id (ingest only appends).
ALTER TABLE runs ADD COLUMN snapshot_review_id INTEGER;

-- The FTS index no longer keeps a second copy of every sentence: an external-content table on
-- sentences (rowid = sentences.id). It indexes revsum_fts_text(text) (CJK characters one per
-- token), so its 'rebuild' and 'integrity-check' commands, which re-read sentences.text, must not
-- be used on it.
DROP TABLE sentences_fts;
CREATE VIRTUAL TABLE sentences_fts USING fts5(text, content = 'sentences', content_rowid = 'id',
                                              tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO sentences_fts(rowid, text) SELECT id, revsum_fts_text(text) FROM sentences;

-- Per-head weights as a JSON array of numbers (was a float32 blob), in runs.heads order.
UPDATE scores SET head_weights = revsum_floats_json(head_weights);
CREATE VIEW sentence_head_weights AS
  SELECT sc.run_id, sc.scope, sc.sentence_id, CAST(h.key AS INTEGER) AS head_index,
         (SELECT n.value FROM json_each('["' || replace(r.heads, char(9), '","') || '"]') n
           WHERE n.key = h.key) AS head,
         h.value AS weight
  FROM scores sc JOIN runs r ON r.id = sc.run_id, json_each(sc.head_weights) h
  WHERE json_valid(sc.head_weights);

-- Per product and scope, the summary of the latest finished run that has one (a partial re-run
-- of some products does not hide the others).
DROP VIEW latest_summaries;
CREATE VIEW latest_summaries AS
  SELECT scope, subject, text, units_in, units_out, unit, compression, tokenizer, tokens_in,
         tokens_out, tokens_saved, run_id, params
  FROM (SELECT s.scope, s.subject, s.text, s.units_in, s.units_out, s.unit,
               round(1.0 * s.units_in / max(s.units_out, 1), 1) AS compression, s.tokenizer,
               s.tokens_in, s.tokens_out, s.tokens_in - s.tokens_out AS tokens_saved,
               r.id AS run_id, r.params,
               row_number() OVER (PARTITION BY s.scope, s.subject
                                  ORDER BY r.finished_at DESC, r.id DESC) AS rank
        FROM summaries s JOIN runs r ON r.id = s.run_id WHERE r.finished_at IS NOT NULL)
  WHERE rank = 1;
CREATE VIEW unfinished_work AS
  SELECT 'ingest' AS kind, id, path AS what FROM sources WHERE status = 'ingesting'
  UNION ALL
  SELECT 'run', id, key FROM runs WHERE finished_at IS NULL;
)sql";

// Version 5: points — what reviewers say, for and against, and how many (include/revsum/points.h,
// issue 8). One row per point of a product in a run, its member sentences as evidence.
constexpr const char* kMigration5 = R"sql(
CREATE TABLE points (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  product     TEXT NOT NULL,                 -- products.key
  idx         INTEGER NOT NULL,              -- rank in the product: by support, then weight
  text        TEXT NOT NULL,                 -- the representative sentence
  sentence_id INTEGER NOT NULL REFERENCES sentences(id) ON DELETE CASCADE,
  review      INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  polarity    TEXT NOT NULL CHECK (polarity IN ('praise', 'complaint', 'neutral', 'unknown')),
  support     INTEGER NOT NULL,              -- distinct reviews among the members
  share       REAL NOT NULL,                 -- support / the product's review count
  aspect      TEXT,                          -- 'price', 'quality', ...; NULL when none is clear
  weight      REAL NOT NULL,                 -- summed attention of the members
  UNIQUE (run_id, product, idx)
);
CREATE TABLE point_members (
  point_id    INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,
  sentence_id INTEGER NOT NULL REFERENCES sentences(id) ON DELETE CASCADE,
  review_id   INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  similarity  REAL NOT NULL,                 -- cosine to the point's leader in the cluster space
  PRIMARY KEY (point_id, sentence_id)
) WITHOUT ROWID;
CREATE INDEX point_members_by_sentence ON point_members(sentence_id);
-- Per product, the points of the latest finished run that has points for it. Example:
--   SELECT text, support, share FROM product_points WHERE product = 'X'
--   AND polarity = 'complaint' AND (aspect = 'battery' OR text LIKE '%battery%')
--   ORDER BY support DESC LIMIT 5;
CREATE VIEW product_points AS
  SELECT product, idx, polarity, support, round(100.0 * share, 1) AS percent, share, aspect, text,
         weight, (SELECT count(*) FROM point_members m WHERE m.point_id = pid) AS members,
         review_id, external_id, sentence_id, run_id, point_id
  FROM (SELECT pt.product, pt.idx, pt.polarity, pt.support, pt.share, pt.aspect, pt.text,
               pt.weight, pt.review AS review_id, rv.external_id, pt.sentence_id, pt.run_id,
               pt.id AS pid, pt.id AS point_id,
               dense_rank() OVER (PARTITION BY pt.product
                                  ORDER BY r.finished_at DESC, r.id DESC) AS rank
        FROM points pt JOIN runs r ON r.id = pt.run_id JOIN reviews rv ON rv.id = pt.review
        WHERE r.finished_at IS NOT NULL)
  WHERE rank = 1;
-- The evidence of every point: its member sentences with their reviews' ids and ratings.
CREATE VIEW point_evidence AS
  SELECT pt.run_id, pt.product, pt.idx, pt.polarity, pt.text AS point, m.similarity,
         s.text AS sentence, m.sentence_id, m.review_id, rv.external_id, rv.rating
  FROM point_members m JOIN points pt ON pt.id = m.point_id
  JOIN sentences s ON s.id = m.sentence_id JOIN reviews rv ON rv.id = m.review_id;
)sql";

// Version 6: each dump's rating scale, seen over every record the dump holds (also the records
// of other shards under `ingest --shard`), so a rating means the same thing in a shard store, in a
// merged store and in one store built in one process. Points normalise a review's rating with its
// source's scale (include/revsum/points.h RatingScale), not with the range of the whole store:
// 0/1 labels of one dump beside 1-5 stars of another stay labels and stars. Stores from before
// take the range of the reviews they hold.
constexpr const char* kMigration6 = R"sql(
ALTER TABLE sources ADD COLUMN rating_min REAL;     -- smallest rating in the dump; NULL: none
ALTER TABLE sources ADD COLUMN rating_max REAL;
ALTER TABLE sources ADD COLUMN rating_labels INTEGER;  -- 1 when every rating was 0 or 1
UPDATE sources SET
  rating_min = (SELECT min(rating) FROM reviews r WHERE r.source_id = sources.id),
  rating_max = (SELECT max(rating) FROM reviews r WHERE r.source_id = sources.id),
  rating_labels = (SELECT sum(rating NOT IN (0, 1)) = 0 FROM reviews r
                   WHERE r.source_id = sources.id AND rating IS NOT NULL);
)sql";

// Version 7: scores in a rowid table, appended in the order a run writes them, with the same key
// as a unique index. As a WITHOUT ROWID table keyed by (run, scope, sentence) a run's rows landed
// all over its key range (a product's sentences are spread over the store), so each commit
// rewrote a random leaf page per row of ~100 bytes: a summarize of 100,000 reviews in 20-review
// products wrote 1.7 GB for a 0.3 GB store; the index's ~25-byte entries dirty a fifth as many
// pages. Same columns, same constraint (INSERT OR REPLACE, lookups), so no query changes.
// legacy_alter_table: the rename must not re-check the views that name `scores` (they would fail
// while the old table is gone; afterwards they find the new one by name).
constexpr const char* kMigration7 = R"sql(
PRAGMA legacy_alter_table = ON;
CREATE TABLE scores_v7 (
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  scope        TEXT NOT NULL CHECK (scope IN ('review', 'product')),
  sentence_id  INTEGER NOT NULL REFERENCES sentences(id) ON DELETE CASCADE,
  weight       REAL NOT NULL,                -- the weights of one scope sum to 1
  head_weights BLOB,                         -- per head, in runs.heads order (JSON array text)
  UNIQUE (run_id, scope, sentence_id)
);
INSERT INTO scores_v7(run_id, scope, sentence_id, weight, head_weights)
  SELECT run_id, scope, sentence_id, weight, head_weights FROM scores
  ORDER BY run_id, scope, sentence_id;
DROP TABLE scores;
ALTER TABLE scores_v7 RENAME TO scores;
PRAGMA legacy_alter_table = OFF;
)sql";

// Version 8: sentence opinions learned from ratings (opinion.h, train.h). Every score row may
// carry its sentence's polarity score p in [-1, 1] and its salience (its share of its review's
// verdict); the models a store trained on its own ratings are kept with what they learned from.
// NULL opinion: a run made before schema 8.
constexpr const char* kMigration8 = R"sql(
ALTER TABLE scores ADD COLUMN opinion REAL;   -- polarity score in [-1, 1] (opinion.h); NULL: none
ALTER TABLE scores ADD COLUMN salience REAL;  -- share of the review's verdict (sums to 1 per review)
CREATE TABLE opinion_models (
  id                 INTEGER PRIMARY KEY,
  sha256             TEXT NOT NULL UNIQUE,     -- of model, the serialized weights (opinion.h)
  trained_on         TEXT NOT NULL,            -- JSON: sources, counts, options, held-out scores
  snapshot_review_id INTEGER NOT NULL,         -- reviews up to this id were read
  reviews            INTEGER NOT NULL,         -- training reviews
  heldout_reviews    INTEGER NOT NULL,
  heldout_accuracy   REAL,                     -- side of the predicted rating, held-out reviews
  default_accuracy   REAL,                     -- the default model's, on the same reviews
  created_at         TEXT NOT NULL,
  model              BLOB NOT NULL
);
-- Each sentence's learned opinion in the latest finished run that has opinions (product-scope
-- rows first): polarity praise / complaint at |score| >= 0.8 (OpinionModel::kDefaultBand).
CREATE VIEW sentence_opinions AS
  SELECT s.id AS sentence_id, s.review_id, p.key AS product, s.idx, s.text,
         CASE WHEN sc.opinion >= 0.8 THEN 'praise' WHEN sc.opinion <= -0.8 THEN 'complaint'
              ELSE 'neutral' END AS polarity,
         sc.opinion AS score, sc.salience, sc.run_id
  FROM scores sc JOIN sentences s ON s.id = sc.sentence_id JOIN reviews r ON r.id = s.review_id
  JOIN products p ON p.id = r.product_id
  WHERE sc.opinion IS NOT NULL
    AND sc.run_id = (SELECT ru.id FROM runs ru WHERE ru.finished_at IS NOT NULL AND EXISTS
                       (SELECT 1 FROM scores x WHERE x.run_id = ru.id AND x.opinion IS NOT NULL)
                     ORDER BY ru.finished_at DESC, ru.id DESC LIMIT 1)
    AND (sc.scope = 'product' OR NOT EXISTS
           (SELECT 1 FROM scores y WHERE y.run_id = sc.run_id AND y.scope = 'product'
              AND y.sentence_id = sc.sentence_id));
)sql";

// Version 9: what a product summary covered. reviews_covered = the product's reviews in the store
// (whatever the run's filters) when the run read it, so an incremental run re-scores exactly the
// products whose reviews changed since — also in a merged store, whose review ids interleave the
// shards' and say nothing about what each shard's run read (merge.h). NULL: review scope, or a
// summary made before schema 9 (then the run's snapshot_review_id decides).
constexpr const char* kMigration9 = R"sql(
ALTER TABLE summaries ADD COLUMN reviews_covered INTEGER;
)sql";

// Version 10: a dump's counts per part. An ingest with --shard K/N reads the whole dump but
// counts only its part; merging the shard stores gathers the parts, and sources' counts are
// derived from them (RecountSource): a complete set of parts counts the dump once, a part merged
// twice or re-ingested is counted once (the newest), and shard sets of different N do not add up.
// shard = shards = 1: the whole dump; 0/0: counts of a store from before schema 10 (origin
// unknown). And the dump's ratings per standard scale.
constexpr const char* kMigration10 = R"sql(
CREATE TABLE source_parts (
  source_id   INTEGER NOT NULL REFERENCES sources(id),
  shard       INTEGER NOT NULL,              -- K of --shard K/N; 1 for the whole dump
  shards      INTEGER NOT NULL,              -- N; 1 for the whole dump
  records     INTEGER NOT NULL DEFAULT 0,    -- the part's records read by its latest ingest
  ingested    INTEGER NOT NULL DEFAULT 0,
  duplicates  INTEGER NOT NULL DEFAULT 0,
  rejected    INTEGER NOT NULL DEFAULT 0,
  ingested_at TEXT,
  PRIMARY KEY (source_id, shard, shards)
) WITHOUT ROWID;
INSERT INTO source_parts(source_id, shard, shards, records, ingested, duplicates, rejected,
                         ingested_at)
  SELECT id, 0, 0, records, ingested, duplicates, rejected, ingested_at FROM sources
  WHERE ingested_at IS NOT NULL;
-- How many of the dump's ratings (the latest ingest's, every record read) lie in the standard
-- scales, so that a few outliers do not stretch the dump's scale (DetectRatingScale). 0: unknown.
ALTER TABLE sources ADD COLUMN rating_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sources ADD COLUMN rating_stars INTEGER NOT NULL DEFAULT 0;   -- in [1, 5]
ALTER TABLE sources ADD COLUMN rating_tenths INTEGER NOT NULL DEFAULT 0;  -- in [0, 10]
)sql";

// Version 11: citations as columns. A review's citation is its dump id, or "h:" and the 16 hex
// digits of its content hash when the dump gave none (export.h ReviewCitationId): how every
// export, prompt and report names a review. reviews.citation computes it (a virtual column, so it
// costs no space; indexed, so `revsum show CITATION` and prefix lookups are one seek), and every
// view that shows a review has it. point_evidence shows the points of product_points (the latest
// finished run with points for each product), with their run; all_point_evidence every run's.
constexpr const char* kMigration11 = R"sql(
ALTER TABLE reviews ADD COLUMN citation TEXT GENERATED ALWAYS AS
  (CASE WHEN external_id <> '' THEN external_id ELSE printf('h:%016x', content_hash) END) VIRTUAL;
CREATE INDEX reviews_by_citation ON reviews(citation);
DROP VIEW review_sentences;
CREATE VIEW review_sentences AS
  SELECT p.key AS product, r.id AS review_id, r.citation, r.external_id, r.rating, s.idx,
         s.id AS sentence_id, s.text
  FROM sentences s JOIN reviews r ON r.id = s.review_id JOIN products p ON p.id = r.product_id;
DROP VIEW product_points;
CREATE VIEW product_points AS
  SELECT product, idx, polarity, support, round(100.0 * share, 1) AS percent, share, aspect, text,
         weight, (SELECT count(*) FROM point_members m WHERE m.point_id = pid) AS members,
         citation, review_id, external_id, sentence_id, run_id, point_id
  FROM (SELECT pt.product, pt.idx, pt.polarity, pt.support, pt.share, pt.aspect, pt.text,
               pt.weight, rv.citation, pt.review AS review_id, rv.external_id, pt.sentence_id,
               pt.run_id, pt.id AS pid, pt.id AS point_id,
               dense_rank() OVER (PARTITION BY pt.product
                                  ORDER BY r.finished_at DESC, r.id DESC) AS rank
        FROM points pt JOIN runs r ON r.id = pt.run_id JOIN reviews rv ON rv.id = pt.review
        WHERE r.finished_at IS NOT NULL)
  WHERE rank = 1;
DROP VIEW point_evidence;
CREATE VIEW all_point_evidence AS
  SELECT pt.run_id, pt.product, pt.idx, pt.polarity, pt.text AS point, m.similarity,
         s.text AS sentence, rv.citation, s.idx AS sentence_index, m.sentence_id, m.review_id,
         rv.external_id, rv.rating, pt.id AS point_id
  FROM point_members m JOIN points pt ON pt.id = m.point_id
  JOIN sentences s ON s.id = m.sentence_id JOIN reviews rv ON rv.id = m.review_id;
CREATE VIEW point_evidence AS
  SELECT e.* FROM all_point_evidence e JOIN product_points pp ON pp.point_id = e.point_id;
DROP VIEW sentence_opinions;
CREATE VIEW sentence_opinions AS
  SELECT s.id AS sentence_id, s.review_id, r.citation, p.key AS product, s.idx, s.text,
         CASE WHEN sc.opinion >= 0.8 THEN 'praise' WHEN sc.opinion <= -0.8 THEN 'complaint'
              ELSE 'neutral' END AS polarity,
         sc.opinion AS score, sc.salience, sc.run_id
  FROM scores sc JOIN sentences s ON s.id = sc.sentence_id JOIN reviews r ON r.id = s.review_id
  JOIN products p ON p.id = r.product_id
  WHERE sc.opinion IS NOT NULL
    AND sc.run_id = (SELECT ru.id FROM runs ru WHERE ru.finished_at IS NOT NULL AND EXISTS
                       (SELECT 1 FROM scores x WHERE x.run_id = ru.id AND x.opinion IS NOT NULL)
                     ORDER BY ru.finished_at DESC, ru.id DESC LIMIT 1)
    AND (sc.scope = 'product' OR NOT EXISTS
           (SELECT 1 FROM scores y WHERE y.run_id = sc.run_id AND y.scope = 'product'
              AND y.sentence_id = sc.sentence_id));
)sql";

// Version 12: a search index that standard tools see and rebuild. The CJK form of each sentence
// is a real column, sentences.search (FtsCjkGrams: character pairs; NULL without CJK), and
// sentences_fts indexes (text, search) as external content on sentences, declared
// content="sentences" as sqlite-utils and Datasette look for it. FTS5's 'rebuild' and
// 'integrity-check' now re-read exactly what revsum indexed, and plain sqlite3 finds a
// two-character Chinese word as written (MATCH '电池').
constexpr const char* kMigration12 = R"sql(
ALTER TABLE sentences ADD COLUMN search TEXT;
UPDATE sentences SET search = revsum_cjk_grams(text) WHERE revsum_cjk_grams(text) IS NOT NULL;
DROP TABLE sentences_fts;
CREATE VIRTUAL TABLE sentences_fts USING fts5(text, search, content="sentences",
                                              content_rowid="id",
                                              tokenize="unicode61 remove_diacritics 2");
INSERT INTO sentences_fts(sentences_fts) VALUES ('rebuild');
)sql";

constexpr const char* kMigrations[] = {kMigration1, kMigration2,  kMigration3,  kMigration4,
                                       kMigration5, kMigration6,  kMigration7,  kMigration8,
                                       kMigration9, kMigration10, kMigration11, kMigration12};
static_assert(std::size(kMigrations) == kSchemaVersion);

int UserVersion(sqlite3* db) {
  Statement st(db, "PRAGMA user_version");
  int v = st.Step() ? static_cast<int>(st.Int(0)) : 0;
  st.Reset();
  return v;
}

void ExecOrThrow(sqlite3* db, const std::string& sql, const char* what) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    const char* file = sqlite3_db_filename(db, "main");
    throw StoreError(std::string(file ? file : "") + ": " + what + ": " + msg);
  }
}

}  // namespace

void CheckIsRevsumStore(sqlite3* db, const std::string& path) {
  const int version = UserVersion(db);  // fails with "file is not a database" on other files
  if (version > kSchemaVersion) {
    throw StoreError(path + ": schema version " + std::to_string(version) +
                     " is newer than this revsum understands (" + std::to_string(kSchemaVersion) +
                     "); upgrade revsum. The file was not modified.");
  }
  auto some_tables = [&] {
    Statement tables(db, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 3");
    std::string names;
    while (tables.Step()) names += (names.empty() ? "" : ", ") + tables.Text(0);
    return names;
  };
  if (version == 0) {
    const std::string names = some_tables();
    if (!names.empty()) {
      throw StoreError(path + ": not a revsum store (an SQLite database with other tables: " +
                       names + "); give --db a new file. The file was not modified.");
    }
    return;
  }
  // Other programs set user_version too: a revsum store of any version has these tables.
  Statement ours(db,
                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                 "('sources', 'products', 'reviews', 'sentences', 'rejects')");
  const int64_t found = ours.Step() ? ours.Int(0) : 0;
  ours.Reset();
  if (found != 5) {
    throw StoreError(path + ": not a revsum store (user_version " + std::to_string(version) +
                     ", but tables " + some_tables() +
                     "); give --db a new file. The file was not modified.");
  }
}

void Migrate(sqlite3* db, int target) {
  for (int version = UserVersion(db); version < target; ++version) {
    ExecOrThrow(db,
                std::string(kMigrations[version]) +
                    "PRAGMA user_version = " + std::to_string(version + 1) + ";",
                ("migrating to schema " + std::to_string(version + 1)).c_str());
  }
}

}  // namespace revsum::store_internal
