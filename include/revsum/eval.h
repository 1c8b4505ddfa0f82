// The eval stage: benchmark sets with gold summaries, system outputs, and ROUGE scoring of a
// system against the gold under the protocol of the shared bench README:
//
//   summaries ──ReadSystemOutputs──▶ id → summary ─┐
//   *_dev.jsonl ──ReadBenchSet──▶ BenchEntity[] ────┴─ScoreSystem──▶ DatasetScores[],
//   EntityScores[]
//
// Per entity: ROUGE-1.5.5 -n 2 -m -f A -p 0.5 -l <budget_words> of the summary against all gold
// summaries of the entity (rouge.h), then plain means over the entities of each dataset (-t 0).
//
// Errors: readers and ScoreSystem throw EvalError with a message that names the file and 1-based
// line ("oposum_dev.jsonl:7: field \"gold\" is missing"), or the entity id.
// Thread-safety: all functions are thread-safe (no shared state).
#pragma once

#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "revsum/embed.h"
#include "revsum/error.h"
#include "revsum/opinion.h"
#include "revsum/points.h"
#include "revsum/rouge.h"
#include "revsum/summarize.h"

namespace revsum {

class EvalError : public Error {
 public:
  using Error::Error;
};

// One input review of a benchmark entity.
struct BenchReview {
  std::string id;    // e.g. "B000AB2ZDE-0000"
  std::string text;  // the review text as given (UTF-8)
};

// One entity (product or topic) of a benchmark set: a line of e.g. oposum_dev.jsonl
//   {"id": ..., "dataset": ..., "split": ..., "budget_words": N, "reviews": [{"id","text"}...],
//    "gold": ["...", ...]}
// Other fields (e.g. "domain") are ignored.
struct BenchEntity {
  std::string id;                    // unique within the file, e.g. "tv.B000AB2ZDE"
  std::string dataset;               // e.g. "oposum" (as written in the file)
  std::string split;                 // e.g. "dev"
  size_t budget_words = 0;           // summary length cut in words (ROUGE -l); > 0
  std::vector<BenchReview> reviews;  // the inputs, in file order; at least one
  std::vector<std::string> gold;     // the reference summaries; at least one
};

// Reads a benchmark set (JSON Lines; blank lines are skipped). Throws EvalError("<path>:<line>:
// <problem>") when the file cannot be read, a line is not a JSON object, a required field is
// missing or has the wrong type, budget_words is not a positive integer, reviews or gold is empty,
// or an id repeats.
std::vector<BenchEntity> ReadBenchSet(const std::string& path);

// Parses a benchmark set from memory; `origin` names it in error messages.
std::vector<BenchEntity> ParseBenchSet(std::string_view jsonl, std::string_view origin);

// Reads system outputs: one {"id": "...", "summary": "..."} object per line (other fields are
// ignored, blank lines skipped). Returns id → summary. Throws EvalError("<path>:<line>: ...") on
// malformed lines, missing or non-string fields, and repeated ids.
std::map<std::string, std::string> ReadSystemOutputs(const std::string& path);
std::map<std::string, std::string> ParseSystemOutputs(std::string_view jsonl,
                                                      std::string_view origin);

// Writes one {"id","summary"} line per entry, in map order, as JSON that ReadSystemOutputs reads
// back unchanged. REQUIRES: ids and summaries are valid UTF-8. WriteSystemOutputs(path, ...) throws
// EvalError when the file cannot be written.
void WriteSystemOutputs(std::ostream& out, const std::map<std::string, std::string>& summaries);
void WriteSystemOutputs(const std::string& path,
                        const std::map<std::string, std::string>& summaries);

// ROUGE of one entity's summary against its gold.
struct EntityScores {
  std::string id;
  std::string dataset;
  RougeScores r1, r2, rl;  // in [0, 1]
};

// The averages of one dataset.
//
// ROUGE-1.5.5 does not print the plain mean over entities: its "Average_F" is the mean of 1000
// bootstrap resamples of the entities (computeAverages), drawn with perl's rand after srand(k)
// for resample k = 0..999, over the entities sorted by their evaluation ids as strings. The README
// tables number the entities 1..n in file order; so does this function (entities "1", "10", "11",
// ..., "2", ... in that order). With that, the "lead" rows of the README are reproduced exactly.
// The 95% interval is the script's too (the 26th and 975th of the sorted resample means).
struct DatasetScores {
  std::string dataset;  // BenchEntity::dataset
  size_t entities = 0;
  double r1 = 0, r2 = 0, rl = 0;          // ROUGE-1.5.5's Average_F x 100: the README's tables
  RougeScores r1_ci_low, r1_ci_high;      // 95% bootstrap interval of R, P and F, in [0, 1]
  RougeScores mean_r1, mean_r2, mean_rl;  // plain means of R, P and F, in [0, 1]
};

// ROUGE-1.5.5's bootstrap average of per-entity scores given in evaluation-id order (see
// DatasetScores): the mean of `resamples` resample means, rounded to 5 decimals as printed.
// Also returns the script's confidence interval bounds (`confidence` in percent) when asked.
double RougeBootstrapAverage(const std::vector<double>& scores, int resamples = 1000,
                             double confidence = 95, double* ci_low = nullptr,
                             double* ci_high = nullptr);

// Scores the summaries (by entity id) against the gold of each entity, per the protocol above:
// each summary and gold summary is cut to the entity's budget_words and laid out one sentence per
// line; the entities of each dataset are then averaged as DatasetScores describes. Returns one
// DatasetScores per dataset name, in order of first appearance in `entities`; when `per_entity` is
// not null it receives one EntityScores per entity, in `entities` order. Summaries for ids that are
// not entities are ignored. Throws EvalError naming the entity id when an entity has no summary.
std::vector<DatasetScores> ScoreSystem(const std::vector<BenchEntity>& entities,
                                       const std::map<std::string, std::string>& summaries,
                                       std::vector<EntityScores>* per_entity = nullptr);

// The "lead" baseline of the README tables: the first sentence unit (SplitSentenceUnits) of each
// review in order, joined by "\n", cut to budget_words. When the first sentences fall short of
// the budget, the second sentences follow, and so on.
std::string LeadSummary(const BenchEntity& entity);

// What revsum's own summary of a bench entity is (revsum eval without --system).
struct EvalOptions {
  // Budget, scorer, selector, segmentation and seeds; budget is the entity's (or --budget).
  SummarizeOptions summarize;
  // false: the flat summary (SummarizeTexts(...).Text()). true: the structured summary, see
  // StructuredSummary.
  bool structured = false;
  // The polarity lists for the structured summary (not owned; must outlive the calls); null =
  // PolarityLexicon::Load(PolarityLexicon::DefaultPaths()) on each call.
  const PolarityLexicon* lexicon = nullptr;
  // The sentence opinion model whose sides the structured summary's points take (opinion.h; not
  // owned); null = the word lists' sides, as before the model existed (revsum eval
  // --opinions none).
  const OpinionModel* opinions = nullptr;
};

// One point of a structured summary, as chosen.
struct StructuredSummaryPoint {
  std::string text;      // the point's representative sentence
  std::string polarity;  // PolarityName
  size_t support = 0;
  size_t sentence = 0;  // row of the scope (the entity's sentences, review by review)
};

// The structured summary of one entity, as the product's export makes it, measured as the flat
// summary is:
//   - points: ComputePoints over the scope's sentences, embeddings and attention (the scope is
//     scored by SummarizeScope as the flat summary's is), with the product's settings
//     (run.cc's ProductPoints): cluster_columns = kUseLiteDim for the combined embedder, fragments
//     by DefaultFragmentRule, no ratings (bench reviews have none; polarity comes from the lexicon
//     or is "unknown");
//   - choice: SelectStructuredPoints (structured.h), the export's rule, sections Praise /
//     Complaints / Other;
//   - text: the chosen points' texts in export order (Praise, Complaints, Other; each by support)
//     then the "Also said" sentences (structured.h, step 4: the flat selection's sentences that
//     no chosen point holds, while the text fits), joined by single spaces, like Summary::Text.
//     Section headers, shares, supports and citations are NOT part of it: the gold is plain
//     prose, so ROUGE sees only the sentences, and the budget is measured on exactly that text
//     (words: BudgetWordCost; "Ns": sentences; "N%": of the reviews' words; tokens:
//     summarize.token_cost, required). Unlike the flat selector, no sentence is cut to fill the
//     budget (a point is whole or absent).
//
// Measured (revsum eval --gold ../shared/data/bench/X_dev.jsonl --budget-from-file --embedder
// auto --threads 1 [--structured]), R1 OpoSum / Copycat / Opinosis / SPACE: flat 42.06 / 33.78 /
// 33.42 / 40.83; structured 40.98 / 32.55 / 31.70 / 39.18 (without "Also said" 40.06 / 29.96 /
// 31.54 / 39.18: the points alone wrote 46.2 of Copycat's 60 words on average).
struct StructuredSummaryResult {
  std::string text;
  std::vector<StructuredSummaryPoint> points;  // in text order
  std::vector<std::string> also_said;          // step 4 (structured.h), after the points
};
StructuredSummaryResult StructuredSummary(const std::vector<std::string>& review_texts,
                                          const EvalOptions& options, Embedder& embedder);

// The summary scored for one entity: flat or structured per options.structured. Throws
// ModelsError when the seed or polarity files cannot be read, std::invalid_argument for a
// token budget without summarize.token_cost (structured).
std::string EvalSummary(const std::vector<std::string>& review_texts, const EvalOptions& options,
                        Embedder& embedder);

}  // namespace revsum
