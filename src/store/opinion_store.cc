// Opinion models a store trained on its own ratings (schema 8, table opinion_models; train.h).
#include <sqlite3.h>

#include "connection.h"
#include "revsum/store.h"
#include "statement.h"

namespace revsum {

using store_internal::Statement;

int64_t OpinionModelStore::Add(const StoredOpinionModel& model) {
  c_.Flush();
  c_.Begin();
  Statement find(c_.db(), "SELECT id FROM opinion_models WHERE sha256 = ?1");
  find.Bind(1, model.sha256);
  if (find.Step()) {
    const int64_t id = find.Int(0);
    find.Reset();
    c_.Flush();
    return id;
  }
  Statement ins(c_.db(),
                "INSERT INTO opinion_models(sha256, trained_on, snapshot_review_id, reviews, "
                "heldout_reviews, heldout_accuracy, default_accuracy, created_at, model) "
                "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)");
  ins.Bind(1, model.sha256)
      .Bind(2, model.trained_on)
      .Bind(3, model.snapshot_review_id)
      .Bind(4, model.reviews)
      .Bind(5, model.heldout_reviews)
      .Bind(6, model.heldout_accuracy)
      .Bind(7, model.default_accuracy)
      .Bind(8, model.created_at.empty() ? store_internal::NowUtc() : model.created_at)
      .BindBlob(9, model.blob)
      .Run();
  const int64_t id = sqlite3_last_insert_rowid(c_.db());
  c_.Flush();
  return id;
}

std::optional<StoredOpinionModel> OpinionModelStore::Latest() {
  c_.Flush();
  Statement q(c_.db(),
              "SELECT id, sha256, trained_on, snapshot_review_id, reviews, heldout_reviews, "
              "heldout_accuracy, default_accuracy, created_at, model FROM opinion_models "
              "ORDER BY id DESC LIMIT 1");
  if (!q.Step()) return std::nullopt;
  StoredOpinionModel m;
  m.id = q.Int(0);
  m.sha256 = q.Text(1);
  m.trained_on = q.Text(2);
  m.snapshot_review_id = q.Int(3);
  m.reviews = q.Int(4);
  m.heldout_reviews = q.Int(5);
  if (!q.IsNull(6)) m.heldout_accuracy = q.Double(6);
  if (!q.IsNull(7)) m.default_accuracy = q.Double(7);
  m.created_at = q.Text(8);
  m.blob = q.Blob(9);
  q.Reset();
  return m;
}

}  // namespace revsum
