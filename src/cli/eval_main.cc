// revsum eval --gold FILE.jsonl: summarise each entity of a benchmark set and score it with ROUGE
// (protocol of ../shared/data/bench/README.md), or score another system's output (--system).
#include <cstdio>
#include <iostream>
#include <optional>

#include "command.h"
#include "common.h"
#include "output_file.h"
#include "revsum/escape.h"
#include "revsum/eval.h"
#include "revsum/summarize.h"

namespace revsum::cli {
namespace {

// `s` padded with spaces to `width` bytes, as printf's %-Ns pads.
std::string Padded(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

struct EvalArgs {
  std::vector<std::string> gold;
  std::string system, write_summaries, budget = "100w", embedder = "auto", precision = "int8";
  std::string opinions = "default";
  float salience_mix = 0.0f;
  bool budget_from_file = false, per_entity = false, structured = false;
  int threads = 0;
};

Runner Setup(CLI::App& sub) {
  auto args = std::make_shared<EvalArgs>();
  sub.add_option("--gold", args->gold, "benchmark set(s): entities with reviews and gold summaries")
      ->required();
  sub.add_flag("--budget-from-file", args->budget_from_file,
               "use each entity's budget_words (the protocol's budget) instead of --budget");
  sub.add_option("--budget", args->budget, "budget when not taken from the file")
      ->capture_default_str();
  sub.add_option("--system", args->system,
                 "score this {\"id\",\"summary\"} JSONL instead of summarising");
  sub.add_option("--write-summaries", args->write_summaries,
                 "write revsum's summaries as {\"id\",\"summary\"} JSONL");
  sub.add_option("--embedder", args->embedder,
                 "auto (combined; lexical for CJK), combined, use-lite or lexical")
      ->check(CLI::IsMember({"auto", "combined", "use-lite", "lexical"}))
      ->capture_default_str();
  AddPrecisionOption(sub, &args->precision);
  sub.add_flag("--structured", args->structured,
               "score the structured summary (the export's points, Praise / Complaints / Other) "
               "instead of the flat one; ROUGE sees the points' sentences joined, not the "
               "section headers or shares");
  sub.add_option("--opinions", args->opinions,
                 "the points' sides and the salience head: default (the shipped opinion model; "
                 "bench entities carry no ratings to train on) or none (the word lists, no head)")
      ->check(CLI::IsMember({"default", "none"}))
      ->capture_default_str();
  sub.add_option("--salience-mix", args->salience_mix,
                 "share of the learned salience head in the final weights (with --opinions "
                 "default; summarize uses 0)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  AddThreadsOption(sub, &args->threads, "embedding threads");
  sub.add_flag("--per-entity", args->per_entity, "also print ROUGE F per entity");
  return [args] {
    std::vector<BenchEntity> entities;
    for (const std::string& path : args->gold) {
      std::vector<BenchEntity> set = ReadBenchSet(path);
      entities.insert(entities.end(), set.begin(), set.end());
    }
    std::map<std::string, std::string> summaries;
    if (!args->system.empty()) {
      summaries = ReadSystemOutputs(args->system);
    } else {
      UseLiteOptions use_lite;
      use_lite.threads = args->threads;
      use_lite.precision = ParsePrecision(args->precision);
      EmbedderPool pool(ParseEmbedderChoice(args->embedder), use_lite);
      EvalOptions options;
      options.structured = args->structured;
      std::optional<PolarityLexicon> lexicon;
      std::optional<OpinionModel> opinions;
      if (args->opinions == "default") {
        opinions = LoadDefaultOpinionModel();
        options.opinions = &*opinions;
        options.summarize.opinions = &*opinions;
        options.summarize.salience_mix = args->salience_mix;
      }
      if (options.structured) {
        lexicon = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
        options.lexicon = &*lexicon;
      }
      Budget fixed;
      try {
        fixed = ParseBudget(args->budget);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--budget: ") + e.what());
      }
      for (const BenchEntity& e : entities) {
        options.summarize.budget =
            args->budget_from_file
                ? Budget{Budget::Unit::kWords, static_cast<double>(e.budget_words)}
                : fixed;
        std::vector<std::string> texts;
        for (const BenchReview& r : e.reviews) texts.push_back(r.text);
        summaries[e.id] = EvalSummary(texts, options, pool.For(texts));
      }
      if (!args->write_summaries.empty()) {
        WriteOutputFile(args->write_summaries, "eval: --write-summaries " + args->write_summaries,
                        [&](std::ostream& out) { WriteSystemOutputs(out, summaries); });
      }
    }
    std::vector<EntityScores> per_entity;
    std::vector<DatasetScores> scores = ScoreSystem(entities, summaries, &per_entity);
    // Entity ids and dataset names come from the gold files: escaped for the terminal.
    char line[256];
    if (args->per_entity) {
      for (const EntityScores& e : per_entity) {
        std::snprintf(line, sizeof line, " R1 %6.2f  R2 %6.2f  RL %6.2f\n", 100 * e.r1.f,
                      100 * e.r2.f, 100 * e.rl.f);
        std::cout << Padded(TerminalSafe(e.id), 40) << line;
      }
    }
    std::snprintf(line, sizeof line, "%-12s %8s %7s %7s %7s\n", "dataset", "entities", "R1", "R2",
                  "RL");
    std::cout << line;
    for (const DatasetScores& d : scores) {
      std::snprintf(line, sizeof line, " %8zu %7.2f %7.2f %7.2f\n", d.entities, d.r1, d.r2, d.rl);
      std::cout << Padded(TerminalSafe(d.dataset), 12) << line;
    }
    return kExitOk;
  };
}

REVSUM_COMMAND("eval", "ROUGE-1/2/L of revsum (or another system) on benchmark sets", Setup);

}  // namespace
}  // namespace revsum::cli
