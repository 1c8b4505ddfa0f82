// Reading reviews, sentences, products, ratings and rejects (store.h ReviewQueries).
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Statement;

namespace {
constexpr const char* kReviewColumns =
    "SELECT r.id, p.key, r.external_id, s.path, r.line, r.rating, r.title, r.text, r.citation "
    "FROM reviews r JOIN products p ON p.id = r.product_id JOIN sources s ON s.id = r.source_id ";

StoredReview ReadReviewRow(const Statement& q) {
  StoredReview r;
  r.id = q.Int(0);
  r.product = q.Text(1);
  r.external_id = q.Text(2);
  r.source = q.Text(3);
  r.line = static_cast<uint64_t>(q.Int(4));
  if (!q.IsNull(5)) r.rating = q.Double(5);
  r.title = q.Text(6);
  r.text = q.Text(7);
  r.citation = q.Text(8);
  return r;
}

// Columns: id, review_id, idx, begin, end, text, tokens.
StoredSentence ReadSentenceRow(const Statement& s) {
  return {s.Int(0),
          s.Int(1),
          static_cast<int32_t>(s.Int(2)),
          static_cast<int32_t>(s.Int(3)),
          static_cast<int32_t>(s.Int(4)),
          s.Text(5),
          s.IsNull(6) ? -1 : static_cast<int32_t>(s.Int(6))};
}
}  // namespace

namespace {
// The WHERE terms shared by the batch reads: ?1 = up_to, ?2..?5 = the filter's bounds (NULL when
// unset; a NULL rating or time fails a set bound because the comparison is NULL).
constexpr const char* kFilterTerms =
    "r.id <= ?1 AND (?2 IS NULL OR r.rating >= ?2) AND (?3 IS NULL OR r.rating <= ?3) AND "
    "(?4 IS NULL OR r.time >= ?4) AND (?5 IS NULL OR r.time <= ?5)";

void BindFilter(Statement& q, int64_t up_to, const ReviewFilter& filter) {
  q.Bind(1, up_to).Bind(2, filter.min_rating).Bind(3, filter.max_rating);
  q.Bind(4, filter.since).Bind(5, filter.until);
}

// Product keys per batch query: well under SQLite's bound on host parameters.
constexpr size_t kKeysPerQuery = 512;
}  // namespace

StoreStats ReviewQueries::Stats() {
  c_.Flush();
  StoreStats st;
  Statement q(c_.db(),
              "SELECT (SELECT count(*) FROM sources), (SELECT count(*) FROM products),"
              " (SELECT count(*) FROM reviews), (SELECT count(*) FROM sentences),"
              " (SELECT count(*) FROM rejects),"
              " (SELECT count(*) FROM runs WHERE finished_at IS NOT NULL),"
              " (SELECT count(*) FROM summaries s JOIN runs r ON r.id = s.run_id"
              "   WHERE r.finished_at IS NOT NULL),"
              " (SELECT count(*) FROM sources WHERE status = 'ingesting'),"
              " (SELECT count(*) FROM runs WHERE finished_at IS NULL)");
  if (q.Step()) {
    st.sources = q.Int(0);
    st.products = q.Int(1);
    st.reviews = q.Int(2);
    st.sentences = q.Int(3);
    st.rejects = q.Int(4);
    st.runs = q.Int(5);
    st.summaries = q.Int(6);
    st.unfinished_ingests = q.Int(7);
    st.unfinished_runs = q.Int(8);
    q.Reset();
  }
  st.avg_sentences_per_review =
      st.reviews ? static_cast<double>(st.sentences) / static_cast<double>(st.reviews) : 0;
  st.schema_version = kSchemaVersion;
  return st;
}

std::optional<StoredReview> ReviewQueries::GetReview(int64_t review_id) {
  c_.Flush();
  Statement q(c_.db(), std::string(kReviewColumns) + "WHERE r.id = ?1");
  q.Bind(1, review_id);
  if (!q.Step()) return std::nullopt;
  StoredReview r = ReadReviewRow(q);
  q.Reset();
  Statement s(c_.db(),
              "SELECT id, review_id, idx, begin, end, text, tokens FROM sentences "
              "WHERE review_id = ?1 ORDER BY idx");
  s.Bind(1, review_id);
  while (s.Step()) r.sentences.push_back(ReadSentenceRow(s));
  return r;
}

std::vector<std::pair<int64_t, std::string>> ReviewQueries::FindCitations(const std::string& text,
                                                                          size_t limit) {
  c_.Flush();
  std::vector<std::pair<int64_t, std::string>> out;
  Statement exact(c_.db(),
                  "SELECT id, citation FROM reviews WHERE citation = ?1 ORDER BY id LIMIT ?2");
  exact.Bind(1, text).Bind(2, static_cast<int64_t>(limit));
  while (exact.Step()) out.emplace_back(exact.Int(0), exact.Text(1));
  if (!out.empty() || text.empty()) return out;
  // Every string that starts with `text` sorts in [text, upper): upper is `text` with its last
  // byte below 0xFF raised by one and the rest cut off (BINARY collation compares bytes).
  std::string upper = text;
  while (!upper.empty() && static_cast<unsigned char>(upper.back()) == 0xFF) upper.pop_back();
  Statement prefix(c_.db(), upper.empty()
                                ? "SELECT id, citation FROM reviews WHERE citation >= ?1 "
                                  "ORDER BY citation, id LIMIT ?3"
                                : "SELECT id, citation FROM reviews WHERE citation >= ?1 AND "
                                  "citation < ?2 ORDER BY citation, id LIMIT ?3");
  if (!upper.empty()) upper.back() = static_cast<char>(upper.back() + 1);
  prefix.Bind(1, text);
  if (!upper.empty()) prefix.Bind(2, upper);
  prefix.Bind(3, static_cast<int64_t>(limit));
  while (prefix.Step()) out.emplace_back(prefix.Int(0), prefix.Text(1));
  return out;
}

std::vector<std::string> ReviewQueries::CitationNeighbours(const std::string& citation, size_t n) {
  c_.Flush();
  std::vector<std::string> out;
  Statement below(c_.db(),
                  "SELECT citation FROM reviews WHERE citation < ?1 ORDER BY citation DESC "
                  "LIMIT ?2");
  Statement above(c_.db(),
                  "SELECT citation FROM reviews WHERE citation > ?1 ORDER BY citation LIMIT ?2");
  Statement same(c_.db(),
                 "SELECT count(*) > 1 FROM (SELECT 1 FROM reviews WHERE citation = ?1 LIMIT 2)");
  for (Statement* q : {&below, &above}) {
    q->Bind(1, citation).Bind(2, static_cast<int64_t>(n));
    while (q->Step()) out.push_back(q->Text(0));
  }
  same.Bind(1, citation);
  if (same.Step() && same.Int(0)) out.push_back(citation);
  return out;
}

int64_t ReviewQueries::MaxReviewId() {
  c_.Flush();
  Statement q(c_.db(), "SELECT coalesce(max(id), 0) FROM reviews");
  int64_t id = q.Step() ? q.Int(0) : 0;
  q.Reset();
  return id;
}

std::vector<StoredReview> ReviewQueries::GetProductReviews(const std::string& product,
                                                           int64_t up_to) {
  c_.Flush();
  std::vector<StoredReview> out;
  std::unordered_map<int64_t, size_t> position;
  Statement q(c_.db(),
              std::string(kReviewColumns) + "WHERE p.key = ?1 AND r.id <= ?2 ORDER BY r.id");
  q.Bind(1, product).Bind(2, up_to);
  while (q.Step()) {
    position[q.Int(0)] = out.size();
    out.push_back(ReadReviewRow(q));
  }
  Statement s(c_.db(),
              "SELECT s.id, s.review_id, s.idx, s.begin, s.end, s.text, s.tokens FROM sentences s "
              "JOIN reviews r ON r.id = s.review_id JOIN products p ON p.id = r.product_id "
              "WHERE p.key = ?1 AND r.id <= ?2 ORDER BY s.review_id, s.idx");
  s.Bind(1, product).Bind(2, up_to);
  while (s.Step()) out[position.at(s.Int(1))].sentences.push_back(ReadSentenceRow(s));
  return out;
}

std::vector<std::pair<std::string, int64_t>> ReviewQueries::ProductReviewCounts(
    int64_t up_to, const ReviewFilter& filter) {
  std::vector<std::pair<std::string, int64_t>> out;
  Statement q(c_.db(), std::string("SELECT p.key, count(*) FROM products p JOIN reviews r ON "
                                   "r.product_id = p.id WHERE ") +
                           kFilterTerms + " GROUP BY p.id ORDER BY p.key");
  BindFilter(q, up_to, filter);
  while (q.Step()) out.emplace_back(q.Text(0), q.Int(1));
  return out;
}

std::vector<std::vector<StoredReview>> ReviewQueries::GetProductsReviews(
    const std::vector<std::string>& products, int64_t up_to, const ReviewFilter& filter) {
  std::vector<std::vector<StoredReview>> out(products.size());
  std::unordered_map<std::string, size_t> slot;
  for (size_t i = 0; i < products.size(); ++i) slot.emplace(products[i], i);
  for (size_t first = 0; first < products.size(); first += kKeysPerQuery) {
    const size_t count = std::min(kKeysPerQuery, products.size() - first);
    std::string keys = "p.key IN (";
    for (size_t k = 0; k < count; ++k) keys += (k ? ",?" : "?") + std::to_string(6 + k);
    keys += ") AND ";
    auto bind = [&](Statement& q) {
      BindFilter(q, up_to, filter);
      for (size_t k = 0; k < count; ++k) q.Bind(static_cast<int>(6 + k), products[first + k]);
    };
    // review id -> (product slot, position in it)
    std::unordered_map<int64_t, std::pair<size_t, size_t>> position;
    Statement q(c_.db(),
                std::string(kReviewColumns) + "WHERE " + keys + kFilterTerms + " ORDER BY r.id");
    bind(q);
    while (q.Step()) {
      StoredReview review = ReadReviewRow(q);
      const auto at = slot.find(review.product);
      if (at == slot.end()) continue;  // cannot happen: the key came from `products`
      std::vector<StoredReview>& reviews = out[at->second];
      position.emplace(review.id, std::make_pair(at->second, reviews.size()));
      reviews.push_back(std::move(review));
    }
    Statement s(c_.db(),
                std::string("SELECT s.id, s.review_id, s.idx, s.begin, s.end, s.text, "
                            "s.tokens FROM products p JOIN reviews r ON r.product_id = p.id "
                            "JOIN sentences s ON s.review_id = r.id WHERE ") +
                    keys + kFilterTerms + " ORDER BY s.review_id, s.idx");
    bind(s);
    while (s.Step()) {
      const auto at = position.find(s.Int(1));
      if (at == position.end()) continue;
      out[at->second.first][at->second.second].sentences.push_back(ReadSentenceRow(s));
    }
  }
  return out;
}

std::vector<std::string> ReviewQueries::Products(int64_t up_to) {
  c_.Flush();
  std::vector<std::string> out;
  Statement q(c_.db(),
              "SELECT key FROM products p WHERE EXISTS (SELECT 1 FROM reviews r WHERE "
              "r.product_id = p.id AND r.id <= ?1) ORDER BY key");
  q.Bind(1, up_to);
  while (q.Step()) out.push_back(q.Text(0));
  return out;
}

bool ReviewQueries::HasProduct(const std::string& product) {
  Statement q(c_.db(), "SELECT 1 FROM products WHERE key = ?1");
  q.Bind(1, product);
  bool found = q.Step();
  q.Reset();
  return found;
}

std::vector<std::pair<std::string, int64_t>> ReviewQueries::RejectReasons(size_t limit) {
  c_.Flush();
  std::vector<std::pair<std::string, int64_t>> out;
  Statement q(c_.db(),
              "SELECT reason, count(*) AS n FROM rejects GROUP BY reason ORDER BY n DESC, reason "
              "LIMIT ?1");
  q.Bind(1, static_cast<int64_t>(limit));
  while (q.Step()) out.emplace_back(q.Text(0), q.Int(1));
  return out;
}

std::vector<std::string> ReviewQueries::ProductsChangedSince(int64_t after, int64_t up_to) {
  c_.Flush();
  std::vector<std::string> out;
  Statement q(c_.db(),
              "SELECT DISTINCT p.key FROM reviews r JOIN products p ON p.id = r.product_id "
              "WHERE r.id > ?1 AND r.id <= ?2 ORDER BY p.key");
  q.Bind(1, after).Bind(2, up_to);
  while (q.Step()) out.push_back(q.Text(0));
  return out;
}

int64_t ReviewQueries::RatedReviewCount(int64_t up_to) {
  c_.Flush();
  Statement q(c_.db(), "SELECT count(*) FROM reviews WHERE rating IS NOT NULL AND id <= ?1");
  q.Bind(1, up_to);
  const int64_t n = q.Step() ? q.Int(0) : 0;
  q.Reset();
  return n;
}

std::vector<ReviewFacts> ReviewQueries::ProductReviewFacts(const std::string& product) {
  c_.Flush();
  Statement q(c_.db(),
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

bool ReviewQueries::RatedWithLabels(const std::string& product) {
  c_.Flush();
  Statement q(c_.db(),
              "SELECT count(*) > 0 AND sum(coalesce(s.rating_labels, 0) = 0) = 0 FROM reviews r "
              "JOIN products p ON p.id = r.product_id JOIN sources s ON s.id = r.source_id "
              "WHERE p.key = ?1 AND r.rating IS NOT NULL");
  q.Bind(1, product);
  const bool labels = q.Step() && q.Int(0) == 1;
  q.Reset();
  return labels;
}

std::optional<RatingRange> ReviewQueries::Ratings(const std::string& product) {
  c_.Flush();
  Statement q(c_.db(),
              "SELECT min(r.rating), max(r.rating), sum(r.rating NOT IN (0, 1)), count(r.rating) "
              "FROM reviews r JOIN products p ON p.id = r.product_id "
              "WHERE r.rating IS NOT NULL AND (?1 = '' OR p.key = ?1)");
  q.Bind(1, product);
  std::optional<RatingRange> out;
  if (q.Step() && q.Int(3) > 0) out = RatingRange{q.Double(0), q.Double(1), q.Int(2) == 0};
  q.Reset();
  return out;
}

std::unordered_map<std::string, RatingRange> ReviewQueries::SourceRatings() {
  c_.Flush();
  Statement q(c_.db(),
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

}  // namespace revsum
