// Runs, their scores and their summaries (store.h RunStore).
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

using store_internal::NowUtc;
using store_internal::Statement;

namespace {

// The one insert of a summary row (AddSummary, AddSummaries), and its binding.
constexpr const char* kInsertSummary =
    "INSERT OR REPLACE INTO summaries(run_id, scope, subject, text, sentence_ids, units_in, "
    "units_out, unit, embedder, tokenizer, tokens_in, tokens_out, reviews_covered) "
    "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)";

Statement& BindSummary(Statement& ins, const StoredSummary& summary) {
  ins.Bind(1, summary.run_id)
      .Bind(2, summary.scope)
      .Bind(3, summary.subject)
      .Bind(4, summary.text)
      .Bind(5, store_internal::JoinIds(summary.sentence_ids))
      .Bind(6, summary.units_in)
      .Bind(7, summary.units_out)
      .Bind(8, summary.unit)
      .Bind(9, summary.embedder)
      .Bind(13, summary.reviews_covered);
  if (summary.tokenizer.empty()) return ins.BindNull(10).BindNull(11).BindNull(12);
  return ins.Bind(10, summary.tokenizer).Bind(11, summary.tokens_in).Bind(12, summary.tokens_out);
}

}  // namespace

struct RunStore::Statements {
  explicit Statements(sqlite3* db)
      : add_score(db,
                  "INSERT OR REPLACE INTO scores(run_id, scope, sentence_id, weight, head_weights,"
                  " opinion, salience) VALUES (?1,?2,?3,?4,?5,?6,?7)") {}
  Statement add_score;
};

RunStore::RunStore(store_internal::Connection& c)
    : c_(c), stmts_(std::make_unique<Statements>(c.db())) {}
RunStore::~RunStore() = default;

namespace {
// The first row of a runs query (columns: id, key, params, embedder, model_hash, started_at,
// finished_at, snapshot_review_id), if any.
std::optional<RunInfo> FirstRun(Statement& q) {
  if (!q.Step()) return std::nullopt;
  RunInfo r{q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), q.Text(6), q.Int(7)};
  q.Reset();
  return r;
}
constexpr const char* kRunColumns =
    "SELECT id, key, params, embedder, model_hash, started_at, finished_at,"
    " coalesce(snapshot_review_id, 0) FROM runs ";
}  // namespace

namespace {
constexpr const char* kSummaryColumns =
    "id, run_id, scope, subject, text, sentence_ids, units_in, units_out, unit, embedder, "
    "tokenizer, tokens_in, tokens_out, reviews_covered";
StoredSummary ReadSummaryRow(const Statement& q) {
  StoredSummary s{
      q.Int(0),  q.Int(1),    q.Text(2), q.Text(3), q.Text(4),  store_internal::ParseIds(q.Text(5)),
      q.Int(6),  q.Int(7),    q.Text(8), q.Text(9), q.Text(10), q.Int(11),
      q.Int(12), std::nullopt};
  if (!q.IsNull(13)) s.reviews_covered = q.Int(13);
  return s;
}
}  // namespace

int64_t RunStore::BeginRun(const RunInfo& run, const std::vector<std::string>& head_names,
                           bool keep_results) {
  c_.Flush();
  c_.Begin();
  const std::string heads = store_internal::JoinTabs(head_names);
  // Same key = same run: drop its old results (ON DELETE CASCADE), keep the id stable.
  Statement find(c_.db(), "SELECT id FROM runs WHERE key = ?1");
  find.Bind(1, run.key);
  int64_t id = 0;
  if (find.Step()) {
    id = find.Int(0);
    find.Reset();
    if (!keep_results) {
      Statement del_scores(c_.db(), "DELETE FROM scores WHERE run_id = ?1");
      del_scores.Bind(1, id).Run();
      Statement del_summaries(c_.db(), "DELETE FROM summaries WHERE run_id = ?1");
      del_summaries.Bind(1, id).Run();
    }
    // An incremental run keeps the finished state and snapshot of the run it updates until
    // FinishRun: a kill leaves every product with valid (earlier or new) results.
    Statement up(c_.db(), keep_results
                              ? "UPDATE runs SET params = ?2, embedder = ?3, model_hash = ?4, "
                                "heads = ?5, started_at = ?6 WHERE id = ?1"
                              : "UPDATE runs SET params = ?2, embedder = ?3, model_hash = ?4, "
                                "heads = ?5, started_at = ?6, finished_at = NULL, "
                                "snapshot_review_id = ?7 WHERE id = ?1");
    up.Bind(1, id)
        .Bind(2, run.params_json)
        .Bind(3, run.embedder)
        .Bind(4, run.model_hash)
        .Bind(5, heads)
        .Bind(6, NowUtc());
    if (!keep_results) up.Bind(7, run.snapshot_review_id);
    up.Run();
  } else {
    Statement ins(c_.db(),
                  "INSERT INTO runs(key, params, embedder, model_hash, heads, started_at, "
                  "snapshot_review_id) VALUES (?1,?2,?3,?4,?5,?6,?7)");
    ins.Bind(1, run.key)
        .Bind(2, run.params_json)
        .Bind(3, run.embedder)
        .Bind(4, run.model_hash)
        .Bind(5, heads)
        .Bind(6, NowUtc())
        .Bind(7, run.snapshot_review_id)
        .Run();
    id = sqlite3_last_insert_rowid(c_.db());
  }
  c_.Flush();
  return id;
}

void RunStore::DeleteProductResults(int64_t run_id, const std::string& product) {
  c_.Begin();
  Statement scores(c_.db(),
                   "DELETE FROM scores WHERE run_id = ?1 AND scope = 'product' AND sentence_id IN "
                   "(SELECT s.id FROM sentences s JOIN reviews r ON r.id = s.review_id "
                   "JOIN products p ON p.id = r.product_id WHERE p.key = ?2)");
  scores.Bind(1, run_id).Bind(2, product).Run();
  Statement summary(
      c_.db(), "DELETE FROM summaries WHERE run_id = ?1 AND scope = 'product' AND subject = ?2");
  summary.Bind(1, run_id).Bind(2, product).Run();
  c_.MaybeCommit();
}

std::unordered_map<std::string, std::optional<int64_t>> RunStore::ProductCoverage(int64_t run_id) {
  c_.Flush();
  std::unordered_map<std::string, std::optional<int64_t>> out;
  Statement q(c_.db(),
              "SELECT subject, reviews_covered FROM summaries WHERE run_id = ?1 AND "
              "scope = 'product'");
  q.Bind(1, run_id);
  while (q.Step()) {
    out[q.Text(0)] = q.IsNull(1) ? std::nullopt : std::optional<int64_t>(q.Int(1));
  }
  return out;
}

std::unordered_set<int64_t> RunStore::ReviewsSummarised(int64_t run_id) {
  c_.Flush();
  std::unordered_set<int64_t> out;
  Statement q(c_.db(),
              "SELECT CAST(subject AS INTEGER) FROM summaries WHERE run_id = ?1 AND "
              "scope = 'review'");
  q.Bind(1, run_id);
  while (q.Step()) out.insert(q.Int(0));
  return out;
}

void RunStore::FinishRun(int64_t run_id, std::optional<int64_t> snapshot) {
  c_.Begin();
  if (snapshot) {
    Statement up(c_.db(),
                 "UPDATE runs SET finished_at = ?2, snapshot_review_id = ?3 WHERE id = ?1");
    up.Bind(1, run_id).Bind(2, NowUtc()).Bind(3, *snapshot).Run();
  } else {
    Statement up(c_.db(), "UPDATE runs SET finished_at = ?2 WHERE id = ?1");
    up.Bind(1, run_id).Bind(2, NowUtc()).Run();
  }
  c_.Flush();
}

void RunStore::AddScores(int64_t run_id, const std::string& scope,
                         const std::vector<ScoreRow>& rows) {
  c_.Begin();
  for (const ScoreRow& row : rows) {
    stmts_->add_score.Bind(1, run_id)
        .Bind(2, scope)
        .Bind(3, row.sentence_id)
        .Bind(4, row.weight)
        .Bind(5, store_internal::FloatsJson(row.head_weights));
    if (row.opinion) {
      stmts_->add_score.Bind(6, static_cast<double>(*row.opinion));
    } else {
      stmts_->add_score.BindNull(6);
    }
    if (row.salience) {
      stmts_->add_score.Bind(7, static_cast<double>(*row.salience));
    } else {
      stmts_->add_score.BindNull(7);
    }
    stmts_->add_score.Run();
  }
  c_.MaybeCommit();
}

int64_t RunStore::AddSummary(const StoredSummary& summary) {
  c_.Begin();
  Statement ins(c_.db(), kInsertSummary);
  BindSummary(ins, summary).Run();
  int64_t id = sqlite3_last_insert_rowid(c_.db());
  c_.MaybeCommit();
  return id;
}

void RunStore::AddSummaries(const std::vector<StoredSummary>& summaries) {
  if (summaries.empty()) return;
  c_.Begin();
  Statement ins(c_.db(), kInsertSummary);
  for (const StoredSummary& summary : summaries) BindSummary(ins, summary).Run();
  c_.MaybeCommit();
}

std::optional<RunInfo> RunStore::LatestRun(const std::string& scope) {
  c_.Flush();
  Statement q(c_.db(), std::string(kRunColumns) +
                           "WHERE finished_at IS NOT NULL AND (?1 = '' OR EXISTS (SELECT 1 FROM "
                           "summaries s WHERE s.run_id = runs.id AND s.scope = ?1)) "
                           "ORDER BY finished_at DESC, id DESC LIMIT 1");
  q.Bind(1, scope);
  return FirstRun(q);
}

std::optional<RunInfo> RunStore::GetRun(int64_t run_id) {
  c_.Flush();
  Statement q(c_.db(), std::string(kRunColumns) + "WHERE id = ?1");
  q.Bind(1, run_id);
  return FirstRun(q);
}

std::optional<RunInfo> RunStore::FindRun(const std::string& key) {
  c_.Flush();
  Statement q(c_.db(), std::string(kRunColumns) + "WHERE key = ?1");
  q.Bind(1, key);
  return FirstRun(q);
}

void RunStore::SetRunHeads(int64_t run_id, const std::vector<std::string>& head_names) {
  c_.Begin();
  const std::string heads = store_internal::JoinTabs(head_names);
  Statement up(c_.db(), "UPDATE runs SET heads = ?2 WHERE id = ?1");
  up.Bind(1, run_id).Bind(2, heads).Run();
}

std::vector<std::string> RunStore::RunHeadNames(int64_t run_id) {
  Statement q(c_.db(), "SELECT heads FROM runs WHERE id = ?1");
  q.Bind(1, run_id);
  std::vector<std::string> out;
  if (q.Step()) {
    out = store_internal::SplitTabs(q.Text(0));
    q.Reset();
  }
  return out;
}

std::vector<StoredSummary> RunStore::GetSummaries(int64_t run_id, const std::string& scope,
                                                  const std::string& subject) {
  c_.Flush();
  std::vector<StoredSummary> out;
  // One subject is a lookup on the (run_id, scope, subject) key; an `OR` in the WHERE would make
  // SQLite scan the whole run for it (an export of many products would be quadratic).
  // (The parameters a branch does not compare are still named so that all three bind.)
  std::string where = "run_id = ?1";
  where += scope.empty() ? " AND ?2 = ''" : " AND scope = ?2";
  where += subject.empty() ? " AND ?3 = ''" : " AND subject = ?3";
  Statement q(c_.db(), std::string("SELECT ") + kSummaryColumns + " FROM summaries WHERE " + where +
                           " ORDER BY scope, subject");
  q.Bind(1, run_id).Bind(2, scope).Bind(3, subject);
  while (q.Step()) out.push_back(ReadSummaryRow(q));
  return out;
}

std::vector<StoredSummary> RunStore::LatestSummaries(const std::string& scope) {
  c_.Flush();
  std::vector<StoredSummary> out;
  Statement q(c_.db(), std::string("SELECT ") + kSummaryColumns +
                           " FROM (SELECT s.*, row_number() OVER (PARTITION BY s.subject ORDER BY "
                           "r.finished_at DESC, r.id DESC) AS rank FROM summaries s JOIN runs r ON "
                           "r.id = s.run_id WHERE r.finished_at IS NOT NULL AND s.scope = ?1) "
                           "WHERE rank = 1 ORDER BY subject");
  q.Bind(1, scope);
  while (q.Step()) out.push_back(ReadSummaryRow(q));
  return out;
}

std::vector<std::pair<int64_t, ScoreRow>> RunStore::GetScores(
    int64_t run_id, const std::string& scope, const std::vector<int64_t>& sentence_ids) {
  c_.Flush();
  std::vector<std::pair<int64_t, ScoreRow>> out;
  Statement q(c_.db(),
              "SELECT weight, head_weights, opinion, salience FROM scores WHERE run_id = ?1 AND "
              "scope = ?2 AND "
              "sentence_id = ?3");
  for (int64_t sid : sentence_ids) {
    q.Bind(1, run_id).Bind(2, scope).Bind(3, sid);
    if (q.Step()) {
      ScoreRow row;
      row.sentence_id = sid;
      row.weight = q.Double(0);
      row.head_weights = store_internal::ParseFloatsJson(q.Text(1));
      if (!q.IsNull(2)) row.opinion = static_cast<float>(q.Double(2));
      if (!q.IsNull(3)) row.salience = static_cast<float>(q.Double(3));
      out.emplace_back(sid, std::move(row));
      q.Reset();
    }
  }
  return out;
}

}  // namespace revsum
