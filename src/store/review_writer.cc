// Ingest writes: sources, reviews with their sentences and search rows, rejects (store.h
// ReviewWriter).
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Fail;
using store_internal::NowUtc;
using store_internal::Statement;

struct ReviewWriter::Statements {
  explicit Statements(sqlite3* db)
      : find_product(db, "SELECT id FROM products WHERE key = ?1"),
        add_product(db, "INSERT INTO products(key) VALUES (?1)"),
        add_review(db,
                   "INSERT OR IGNORE INTO reviews(source_id, line, product_id, external_id, rating,"
                   " title, text, time, content_hash) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)"),
        add_sentence(db,
                     "INSERT INTO sentences(review_id, idx, begin, end, text, tokens, search) "
                     "VALUES (?1,?2,?3,?4,?5,?6,?7)"),
        add_fts(db, "INSERT INTO sentences_fts(rowid, text, search) VALUES (?1, ?2, ?3)"),
        add_reject(db,
                   "INSERT OR IGNORE INTO rejects(source_id, line, reason, raw, content_hash) "
                   "VALUES (?1,?2,?3,?4,?5)") {}
  Statement find_product, add_product, add_review, add_sentence, add_fts, add_reject;
  std::unordered_map<std::string, int64_t> product_ids;
};

ReviewWriter::ReviewWriter(store_internal::Connection& c)
    : c_(c), stmts_(std::make_unique<Statements>(c.db())) {}
ReviewWriter::~ReviewWriter() = default;

void ReviewWriter::ForgetUncommitted() { stmts_->product_ids.clear(); }

int64_t ReviewWriter::AddSource(const std::string& path, const std::string& format,
                                uint64_t size_bytes) {
  c_.Begin();
  Statement up(c_.db(),
               "INSERT INTO sources(path, format, size_bytes, status) "
               "VALUES (?1, ?2, ?3, 'ingesting') "
               "ON CONFLICT(path) DO UPDATE SET format = excluded.format, "
               "size_bytes = excluded.size_bytes, status = 'ingesting'");
  up.Bind(1, path).Bind(2, format);
  size_bytes ? up.Bind(3, static_cast<int64_t>(size_bytes)) : up.BindNull(3);
  up.Run();
  Statement get(c_.db(), "SELECT id FROM sources WHERE path = ?1");
  get.Bind(1, path);
  if (!get.Step()) Fail(c_.db(), "source row vanished");
  int64_t id = get.Int(0);
  get.Reset();
  return id;
}

void ReviewWriter::FinishSource(int64_t source_id, uint64_t records, uint64_t ingested,
                                uint64_t duplicates, uint64_t rejected,
                                const std::optional<RatingRange>& ratings, uint32_t shard,
                                uint32_t shards) {
  c_.Begin();
  const std::string now = NowUtc();
  Statement part(c_.db(),
                 "INSERT INTO source_parts(source_id, shard, shards, records, ingested, "
                 "duplicates, rejected, ingested_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
                 "ON CONFLICT(source_id, shard, shards) DO UPDATE SET records = excluded.records, "
                 "ingested = excluded.ingested, duplicates = excluded.duplicates, "
                 "rejected = excluded.rejected, ingested_at = excluded.ingested_at");
  part.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(shard))
      .Bind(3, static_cast<int64_t>(shards))
      .Bind(4, static_cast<int64_t>(records))
      .Bind(5, static_cast<int64_t>(ingested))
      .Bind(6, static_cast<int64_t>(duplicates))
      .Bind(7, static_cast<int64_t>(rejected))
      .Bind(8, now)
      .Run();
  Statement st(c_.db(), "UPDATE sources SET ingested_at = ?2, status = 'done' WHERE id = ?1");
  st.Bind(1, source_id).Bind(2, now).Run();
  store_internal::RecountSource(c_.db(), source_id);
  if (ratings) {
    // The range: the union with what earlier ingests of this path saw (min/max of NULL and x is
    // NULL in SQL, hence coalesce). The counts: this ingest's, which read the whole dump.
    Statement r(c_.db(),
                "UPDATE sources SET rating_min = min(coalesce(rating_min, ?2), ?2), "
                "rating_max = max(coalesce(rating_max, ?3), ?3), "
                "rating_labels = coalesce(rating_labels, 1) AND ?4, rating_count = ?5, "
                "rating_stars = ?6, rating_tenths = ?7 WHERE id = ?1");
    r.Bind(1, source_id)
        .Bind(2, ratings->min)
        .Bind(3, ratings->max)
        .Bind(4, static_cast<int64_t>(ratings->labels_only))
        .Bind(5, static_cast<int64_t>(ratings->count))
        .Bind(6, static_cast<int64_t>(ratings->stars))
        .Bind(7, static_cast<int64_t>(ratings->tenths))
        .Run();
  }
  c_.Flush();
}

PreparedReview ReviewWriter::Prepare(const Review& review, const std::vector<Sentence>& sentences) {
  PreparedReview prepared;
  prepared.content_hash = ReviewContentHash(review);
  for (size_t i = 0; i < sentences.size(); ++i) {
    if (FtsIndexTextIsText(sentences[i].text)) continue;
    prepared.fts_texts.resize(sentences.size());
    prepared.fts_texts[i] = FtsCjkGrams(sentences[i].text);
  }
  return prepared;
}

bool ReviewWriter::AddReview(int64_t source_id, const Review& review,
                             const std::vector<Sentence>& sentences) {
  return AddReview(source_id, review, sentences, Prepare(review, sentences));
}

bool ReviewWriter::AddReview(int64_t source_id, const Review& review,
                             const std::vector<Sentence>& sentences,
                             const PreparedReview& prepared) {
  c_.Begin();
  Statements& s = *stmts_;
  int64_t product_id;
  if (auto it = s.product_ids.find(review.product); it != s.product_ids.end()) {
    product_id = it->second;
  } else {
    s.find_product.Bind(1, review.product);
    if (s.find_product.Step()) {
      product_id = s.find_product.Int(0);
      s.find_product.Reset();
    } else {
      s.add_product.Bind(1, review.product).Run();
      product_id = sqlite3_last_insert_rowid(c_.db());
    }
    if (s.product_ids.size() > 100000) s.product_ids.clear();  // bound memory on huge catalogues
    s.product_ids.emplace(review.product, product_id);
  }
  s.add_review.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(review.line))
      .Bind(3, product_id)
      .Bind(4, review.external_id)
      .Bind(5, review.rating)
      .BindStatic(6, review.title)
      .BindStatic(7, review.text)
      .Bind(8, review.time)
      .Bind(9, static_cast<int64_t>(prepared.content_hash))
      .Run();
  if (sqlite3_changes(c_.db()) == 0) return false;  // already stored
  int64_t review_id = sqlite3_last_insert_rowid(c_.db());
  for (size_t i = 0; i < sentences.size(); ++i) {
    const Sentence& sentence = sentences[i];
    s.add_sentence.Bind(1, review_id)
        .Bind(2, int64_t{sentence.index})
        .Bind(3, int64_t{sentence.begin})
        .Bind(4, int64_t{sentence.end})
        .BindStatic(5, sentence.text)
        .Bind(6, sentence.tokens >= 0 ? std::optional<int64_t>(sentence.tokens) : std::nullopt);
    const bool cjk = i < prepared.fts_texts.size() && !prepared.fts_texts[i].empty();
    if (cjk) {
      s.add_sentence.BindStatic(7, prepared.fts_texts[i]);
    } else {
      s.add_sentence.BindNull(7);
    }
    s.add_sentence.Run();
    s.add_fts.Bind(1, static_cast<int64_t>(sqlite3_last_insert_rowid(c_.db())))
        .BindStatic(2, sentence.text);
    if (cjk) {
      s.add_fts.BindStatic(3, prepared.fts_texts[i]);
    } else {
      s.add_fts.BindNull(3);
    }
    s.add_fts.Run();
  }
  c_.MaybeCommit();
  return true;
}

void ReviewWriter::AddReject(int64_t source_id, const Reject& reject) {
  c_.Begin();
  stmts_->add_reject.Bind(1, source_id)
      .Bind(2, static_cast<int64_t>(reject.line))
      .Bind(3, reject.reason)
      .BindBlob(4, reject.raw)
      .Bind(5, static_cast<int64_t>(store_internal::RejectContentHash(reject.source, reject.line,
                                                                      reject.reason, reject.raw)))
      .Run();
  c_.MaybeCommit();
}

void RatingRange::Widen(std::optional<RatingRange>& range, double rating) {
  const bool label = rating == 0 || rating == 1;
  if (!range) {
    range = RatingRange{rating, rating, label};
  } else {
    range->min = std::min(range->min, rating);
    range->max = std::max(range->max, rating);
    range->labels_only = range->labels_only && label;
  }
  ++range->count;
  range->stars += rating >= 1 && rating <= 5;
  range->tenths += rating >= 0 && rating <= 10;
}

}  // namespace revsum
