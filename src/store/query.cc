// Full-text search over the sentences (store.h SearchIndex; the query language is fts.cc's).
#include <sqlite3.h>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Statement;

std::vector<SearchHit> SearchIndex::Find(const std::string& query, size_t limit,
                                         const std::vector<std::string>& products) {
  c_.Flush();
  // One placeholder per product key (?3, ?4, ...): keys are bound, never spliced into the SQL.
  std::string sql =
      "SELECT s.id, s.review_id, p.key, s.text, r.citation, s.idx FROM sentences_fts f "
      "JOIN sentences s ON s.id = f.rowid JOIN reviews r ON r.id = s.review_id "
      "JOIN products p ON p.id = r.product_id WHERE sentences_fts MATCH ?1";
  if (!products.empty()) {
    sql += " AND p.key IN (";
    for (size_t i = 0; i < products.size(); ++i) sql += (i ? ",?" : "?") + std::to_string(i + 3);
    sql += ")";
  }
  sql += " ORDER BY f.rank LIMIT ?2";
  Statement q(c_.db(), sql);
  q.Bind(1, FtsQuery(query)).Bind(2, static_cast<int64_t>(limit));
  for (size_t i = 0; i < products.size(); ++i) q.Bind(static_cast<int>(i + 3), products[i]);
  std::vector<SearchHit> hits;
  try {
    while (q.Step()) {
      hits.push_back(
          {q.Int(0), q.Int(1), q.Text(2), q.Text(3), q.Text(4), static_cast<int32_t>(q.Int(5))});
    }
  } catch (const StoreError&) {
    throw StoreError("search \"" + query + "\": " + sqlite3_errmsg(c_.db()) +
                     " (FTS5 syntax: words, \"phrases\", AND, OR, NOT, -word, prefix*)");
  }
  return hits;
}

}  // namespace revsum
