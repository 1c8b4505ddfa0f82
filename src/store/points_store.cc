// Points and their evidence (schema 5, tables points and point_members; include/revsum/points.h).
#include <sqlite3.h>

#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Statement;

void ReviewStore::AddPoints(int64_t run_id, const std::string& product,
                            const std::vector<StoredPoint>& points) {
  Begin();
  Statement point(db_,
                  "INSERT INTO points(run_id, product, idx, text, sentence_id, review, polarity, "
                  "support, share, aspect, weight) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                  "?10, ?11)");
  Statement member(db_,
                   "INSERT INTO point_members(point_id, sentence_id, review_id, similarity) "
                   "VALUES (?1, ?2, ?3, ?4)");
  for (const StoredPoint& p : points) {
    point.Bind(1, run_id).Bind(2, product).Bind(3, p.idx).Bind(4, p.text).Bind(5, p.sentence_id);
    point.Bind(6, p.review_id).Bind(7, p.polarity).Bind(8, p.support).Bind(9, p.share);
    if (p.aspect.empty()) {
      point.BindNull(10);
    } else {
      point.Bind(10, p.aspect);
    }
    point.Bind(11, p.weight).Run();
    const int64_t id = sqlite3_last_insert_rowid(db_);
    for (const StoredPointMember& m : p.members) {
      member.Bind(1, id).Bind(2, m.sentence_id).Bind(3, m.review_id).Bind(4, m.similarity).Run();
    }
  }
  MaybeCommit();
}

void ReviewStore::DeleteProductPoints(int64_t run_id, const std::string& product) {
  Begin();
  // point_members go with their points (ON DELETE CASCADE; the store opens with foreign keys on).
  Statement del(db_, "DELETE FROM points WHERE run_id = ?1 AND product = ?2");
  del.Bind(1, run_id).Bind(2, product).Run();
  MaybeCommit();
}

void ReviewStore::DeleteRunPoints(int64_t run_id) {
  Begin();
  Statement del(db_, "DELETE FROM points WHERE run_id = ?1");
  del.Bind(1, run_id).Run();
  MaybeCommit();
}

namespace {
// One point row: id, run_id, product, idx, text, sentence_id, review_id, external_id, polarity,
// support, share, aspect ('' for none), weight, citation — the columns of LatestPoints and
// RunPoints.
StoredPoint ReadPointRow(const store_internal::Statement& q) {
  StoredPoint p;
  p.id = q.Int(0);
  p.run_id = q.Int(1);
  p.product = q.Text(2);
  p.idx = q.Int(3);
  p.text = q.Text(4);
  p.sentence_id = q.Int(5);
  p.review_id = q.Int(6);
  p.external_id = q.Text(7);
  p.polarity = q.Text(8);
  p.support = q.Int(9);
  p.share = q.Double(10);
  p.aspect = q.Text(11);
  p.weight = q.Double(12);
  p.citation = q.Text(13);
  return p;
}
}  // namespace

std::vector<StoredPoint> ReviewStore::LatestPoints(const std::string& product) {
  Flush();
  Statement q(
      db_,
      "SELECT point_id, run_id, product, idx, text, sentence_id, review_id, external_id, "
      "polarity, support, share, coalesce(aspect, ''), weight, citation FROM product_points "
      "WHERE ?1 = '' OR product = ?1 ORDER BY product, idx");
  q.Bind(1, product);
  std::vector<StoredPoint> out;
  while (q.Step()) {
    out.push_back(ReadPointRow(q));
  }
  return out;
}

std::vector<std::pair<std::string, int64_t>> ReviewStore::PointRuns(std::optional<int64_t> run_id) {
  Flush();
  Statement q(db_, run_id ? "SELECT DISTINCT product, run_id FROM points WHERE run_id = ?1 "
                            "ORDER BY product"
                          : "SELECT product, run_id FROM (SELECT pt.product, pt.run_id, "
                            "row_number() OVER (PARTITION BY pt.product ORDER BY r.finished_at "
                            "DESC, r.id DESC) AS rank FROM points pt JOIN runs r ON r.id = "
                            "pt.run_id WHERE r.finished_at IS NOT NULL) WHERE rank = 1 "
                            "ORDER BY product");
  if (run_id) q.Bind(1, *run_id);
  std::vector<std::pair<std::string, int64_t>> out;
  while (q.Step()) out.emplace_back(q.Text(0), q.Int(1));
  return out;
}

std::optional<ReviewStore::RatingRange> ReviewStore::Ratings(const std::string& product) {
  Flush();
  Statement q(db_,
              "SELECT min(r.rating), max(r.rating), sum(r.rating NOT IN (0, 1)), count(r.rating) "
              "FROM reviews r JOIN products p ON p.id = r.product_id "
              "WHERE r.rating IS NOT NULL AND (?1 = '' OR p.key = ?1)");
  q.Bind(1, product);
  std::optional<RatingRange> out;
  if (q.Step() && q.Int(3) > 0) out = RatingRange{q.Double(0), q.Double(1), q.Int(2) == 0};
  q.Reset();
  return out;
}

std::unordered_map<std::string, ReviewStore::RatingRange> ReviewStore::SourceRatings() {
  Flush();
  Statement q(db_,
              "SELECT path, rating_min, rating_max, rating_labels, rating_count, rating_stars, "
              "rating_tenths FROM sources WHERE rating_min IS NOT NULL AND rating_max IS NOT NULL");
  std::unordered_map<std::string, RatingRange> out;
  while (q.Step()) {
    out[q.Text(0)] = RatingRange{q.Double(1),
                                 q.Double(2),
                                 q.Int(3) != 0,
                                 static_cast<uint64_t>(q.Int(4)),
                                 static_cast<uint64_t>(q.Int(5)),
                                 static_cast<uint64_t>(q.Int(6))};
  }
  q.Reset();
  return out;
}

std::vector<StoredPoint> ReviewStore::RunPoints(int64_t run_id, const std::string& product) {
  Flush();
  Statement q(db_,
              "SELECT pt.id, pt.run_id, pt.product, pt.idx, pt.text, pt.sentence_id, pt.review, "
              "rv.external_id, pt.polarity, pt.support, pt.share, coalesce(pt.aspect, ''), "
              "pt.weight, rv.citation FROM points pt JOIN reviews rv ON rv.id = pt.review "
              "WHERE pt.run_id = ?1 AND pt.product = ?2 ORDER BY pt.idx");
  q.Bind(1, run_id).Bind(2, product);
  std::vector<StoredPoint> out;
  while (q.Step()) {
    out.push_back(ReadPointRow(q));
  }
  Statement m(db_,
              "SELECT sentence_id, review_id, similarity FROM point_members WHERE point_id = ?1 "
              "ORDER BY similarity DESC, sentence_id");
  for (StoredPoint& p : out) {
    m.Bind(1, p.id);
    while (m.Step()) p.members.push_back({m.Int(0), m.Int(1), m.Double(2)});
  }
  return out;
}

bool ReviewStore::RatedWithLabels(const std::string& product) {
  Flush();
  Statement q(db_,
              "SELECT count(*) > 0 AND sum(coalesce(s.rating_labels, 0) = 0) = 0 FROM reviews r "
              "JOIN products p ON p.id = r.product_id JOIN sources s ON s.id = r.source_id "
              "WHERE p.key = ?1 AND r.rating IS NOT NULL");
  q.Bind(1, product);
  const bool labels = q.Step() && q.Int(0) == 1;
  q.Reset();
  return labels;
}

std::vector<ReviewStore::ReviewFacts> ReviewStore::ProductReviewFacts(const std::string& product) {
  Flush();
  Statement q(db_,
              "SELECT r.id, r.external_id, r.content_hash, r.rating, r.time FROM reviews r "
              "JOIN products p ON p.id = r.product_id WHERE p.key = ?1 ORDER BY r.id");
  q.Bind(1, product);
  std::vector<ReviewFacts> out;
  while (q.Step()) {
    ReviewFacts f;
    f.id = q.Int(0);
    f.external_id = q.Text(1);
    f.content_hash = static_cast<uint64_t>(q.Int(2));
    if (!q.IsNull(3)) f.rating = q.Double(3);
    if (!q.IsNull(4)) f.time = q.Int(4);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace revsum
