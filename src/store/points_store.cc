// Points and their evidence (schema 5, tables points and point_members; include/revsum/points.h).
#include <sqlite3.h>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Statement;

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

namespace {
// The one insert of points and their members (AddPoints, AddPointsOfProducts).
struct PointInserts {
  explicit PointInserts(sqlite3* db)
      : db(db),
        point(db,
              "INSERT INTO points(run_id, product, idx, text, sentence_id, review, polarity, "
              "support, share, aspect, weight) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
              "?10, ?11)"),
        member(db,
               "INSERT INTO point_members(point_id, sentence_id, review_id, similarity) "
               "VALUES (?1, ?2, ?3, ?4)") {}
  void Add(int64_t run_id, const std::string& product, const std::vector<StoredPoint>& points) {
    for (const StoredPoint& p : points) {
      point.Bind(1, run_id).Bind(2, product).Bind(3, p.idx).Bind(4, p.text).Bind(5, p.sentence_id);
      point.Bind(6, p.review_id).Bind(7, p.polarity).Bind(8, p.support).Bind(9, p.share);
      if (p.aspect.empty()) {
        point.BindNull(10);
      } else {
        point.Bind(10, p.aspect);
      }
      point.Bind(11, p.weight).Run();
      const int64_t id = sqlite3_last_insert_rowid(db);
      for (const StoredPointMember& m : p.members) {
        member.Bind(1, id).Bind(2, m.sentence_id).Bind(3, m.review_id).Bind(4, m.similarity).Run();
      }
    }
  }
  sqlite3* db;
  Statement point, member;
};
}  // namespace

void PointStore::AddPoints(int64_t run_id, const std::string& product,
                           const std::vector<StoredPoint>& points) {
  c_.Begin();
  PointInserts(c_.db()).Add(run_id, product, points);
  c_.MaybeCommit();
}

void PointStore::AddPointsOfProducts(
    int64_t run_id, const std::vector<std::pair<std::string, std::vector<StoredPoint>>>& points) {
  if (points.empty()) return;
  c_.Begin();
  PointInserts inserts(c_.db());
  for (const auto& [product, product_points] : points) inserts.Add(run_id, product, product_points);
  c_.MaybeCommit();
}

void PointStore::DeleteProductPoints(int64_t run_id, const std::string& product) {
  c_.Begin();
  // point_members go with their points (ON DELETE CASCADE; the store opens with foreign keys on).
  Statement del(c_.db(), "DELETE FROM points WHERE run_id = ?1 AND product = ?2");
  del.Bind(1, run_id).Bind(2, product).Run();
  c_.MaybeCommit();
}

void PointStore::DeleteRunPoints(int64_t run_id) {
  c_.Begin();
  Statement del(c_.db(), "DELETE FROM points WHERE run_id = ?1");
  del.Bind(1, run_id).Run();
  c_.MaybeCommit();
}

std::vector<StoredPoint> PointStore::LatestPoints(const std::string& product) {
  c_.Flush();
  Statement q(
      c_.db(),
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

std::vector<std::pair<std::string, int64_t>> PointStore::PointRuns(std::optional<int64_t> run_id) {
  c_.Flush();
  Statement q(c_.db(), run_id ? "SELECT DISTINCT product, run_id FROM points WHERE run_id = ?1 "
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

std::vector<StoredPoint> PointStore::RunPoints(int64_t run_id, const std::string& product,
                                               bool with_members) {
  c_.Flush();
  Statement q(c_.db(),
              "SELECT pt.id, pt.run_id, pt.product, pt.idx, pt.text, pt.sentence_id, pt.review, "
              "rv.external_id, pt.polarity, pt.support, pt.share, coalesce(pt.aspect, ''), "
              "pt.weight, rv.citation FROM points pt JOIN reviews rv ON rv.id = pt.review "
              "WHERE pt.run_id = ?1 AND pt.product = ?2 ORDER BY pt.idx");
  q.Bind(1, run_id).Bind(2, product);
  std::vector<StoredPoint> out;
  while (q.Step()) {
    out.push_back(ReadPointRow(q));
  }
  if (!with_members) return out;
  Statement m(c_.db(),
              "SELECT sentence_id, review_id, similarity FROM point_members WHERE point_id = ?1 "
              "ORDER BY similarity DESC, sentence_id");
  for (StoredPoint& p : out) {
    m.Bind(1, p.id);
    while (m.Step()) p.members.push_back({m.Int(0), m.Int(1), m.Double(2)});
  }
  return out;
}

}  // namespace revsum
