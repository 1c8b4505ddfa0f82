// The report page's reads (store.h ReportReader; the page itself is src/report/report.cc).
#include <sqlite3.h>

#include <string>
#include <utility>
#include <vector>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Statement;

namespace {
std::optional<double> MaybeDouble(const Statement& q, int col) {
  return q.IsNull(col) ? std::nullopt : std::optional<double>(q.Double(col));
}
}  // namespace

std::optional<int64_t> ReportReader::ProductReviewCount(const std::string& product) {
  Statement exists(c_.db(), "SELECT 1 FROM products WHERE key = ?1");
  exists.Bind(1, product);
  const bool found = exists.Step();
  exists.Reset();
  if (!found) return std::nullopt;
  Statement count(c_.db(),
                  "SELECT count(r.id) FROM products p JOIN reviews r ON r.product_id = p.id "
                  "WHERE p.key = ?1");
  count.Bind(1, product);
  const int64_t n = count.Step() ? count.Int(0) : 0;
  count.Reset();
  return n;
}

std::vector<std::pair<std::string, int64_t>> ReportReader::ProductsByReviews(size_t limit,
                                                                             size_t* total) {
  std::vector<std::pair<std::string, int64_t>> out;
  Statement all(c_.db(),
                "SELECT p.key, count(r.id) AS n FROM products p JOIN reviews r ON "
                "r.product_id = p.id GROUP BY p.id ORDER BY n DESC, p.key");
  *total = 0;
  while (all.Step()) {
    if (out.size() < limit) out.emplace_back(all.Text(0), all.Int(1));
    ++*total;
  }
  return out;
}

std::vector<std::pair<std::optional<double>, int64_t>> ReportReader::RatingCounts(
    const std::string& product) {
  Statement q(c_.db(),
              "SELECT r.rating, count(*) FROM reviews r JOIN products p ON p.id = r.product_id "
              "WHERE p.key = ?1 GROUP BY r.rating ORDER BY r.rating");
  q.Bind(1, product);
  std::vector<std::pair<std::optional<double>, int64_t>> out;
  while (q.Step()) out.emplace_back(MaybeDouble(q, 0), q.Int(1));
  return out;
}

int64_t ReportReader::LatestPointsRun(const std::string& product) {
  Statement q(c_.db(),
              "SELECT r.id FROM runs r WHERE r.finished_at IS NOT NULL AND EXISTS (SELECT 1 FROM "
              "points pt WHERE pt.run_id = r.id AND pt.product = ?1) "
              "ORDER BY r.finished_at DESC, r.id DESC LIMIT 1");
  q.Bind(1, product);
  const int64_t run = q.Step() ? q.Int(0) : 0;
  q.Reset();
  return run;
}

int64_t ReportReader::MemberCount(int64_t point_id) {
  Statement count(c_.db(), "SELECT count(*) FROM point_members WHERE point_id = ?1");
  count.Bind(1, point_id);
  const int64_t n = count.Step() ? count.Int(0) : 0;
  count.Reset();
  return n;
}

std::vector<ReportReader::Evidence> ReportReader::PointEvidence(int64_t point_id,
                                                                int64_t representative,
                                                                size_t limit) {
  Statement members(c_.db(),
                    "SELECT m.sentence_id, m.review_id, m.similarity, s.begin, s.end, r.text, "
                    "r.external_id, r.rating FROM point_members m "
                    "JOIN sentences s ON s.id = m.sentence_id JOIN reviews r ON r.id = m.review_id "
                    "WHERE m.point_id = ?1 "
                    "ORDER BY m.sentence_id = ?2 DESC, m.similarity DESC, m.sentence_id LIMIT ?3");
  members.Bind(1, point_id).Bind(2, representative).Bind(3, static_cast<int64_t>(limit));
  std::vector<Evidence> out;
  while (members.Step()) {
    Evidence e;
    e.sentence_id = members.Int(0);
    e.review_id = members.Int(1);
    e.similarity = members.Double(2);
    e.begin = members.Int(3);
    e.end = members.Int(4);
    e.review_text = members.Text(5);
    e.external_id = members.Text(6);
    e.rating = MaybeDouble(members, 7);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<int64_t> ReportReader::ProductReviewIds(const std::string& product) {
  Statement q(c_.db(),
              "SELECT r.id FROM reviews r JOIN products p ON p.id = r.product_id WHERE p.key = ?1 "
              "ORDER BY r.id");
  q.Bind(1, product);
  std::vector<int64_t> out;
  while (q.Step()) out.push_back(q.Int(0));
  return out;
}

ReportReader::ReviewHead ReportReader::GetReviewHead(int64_t review_id) {
  Statement review(c_.db(), "SELECT external_id, title, rating FROM reviews WHERE id = ?1");
  review.Bind(1, review_id);
  ReviewHead r;
  if (review.Step()) {
    r.external_id = review.Text(0);
    r.title = review.Text(1);
    r.rating = MaybeDouble(review, 2);
    review.Reset();
  }
  return r;
}

std::vector<std::pair<int64_t, std::string>> ReportReader::ReviewSentences(int64_t review_id) {
  Statement sentences(c_.db(), "SELECT id, text FROM sentences WHERE review_id = ?1 ORDER BY idx");
  sentences.Bind(1, review_id);
  std::vector<std::pair<int64_t, std::string>> out;
  while (sentences.Step()) out.emplace_back(sentences.Int(0), sentences.Text(1));
  return out;
}

}  // namespace revsum
