// revsum opinions [--model FILE | --db PATH]: a sentence per stdin line -> its learned opinion.
//
// Prints one line per input line: the score a run stores (the model's polarity with the word lists
// as a prior, CombineWithWordLists), the side (praise, complaint, neutral at the model's band), the
// model's own polarity p, the word lists' sign (-1, 0, 1), the attention logit (u . h: the higher,
// the more the sentence weighs in a review's verdict) and the text, tab-separated and escaped for
// the terminal; --json prints one JSON object per line instead: {"text", "score", "polarity",
// "model", "word_lists", "logit"}. The model: --model FILE (as written by
// `revsum train --out`), else the store's own model (--db, table opinion_models), else the
// shipped default.
#include <cstdio>
#include <iostream>

#include "command.h"
#include "common.h"
#include "revsum/escape.h"
#include "revsum/json.h"
#include "revsum/opinion.h"
#include "revsum/points.h"
#include "revsum/store.h"

namespace revsum::cli {
namespace {

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

Runner Setup(CLI::App& sub) {
  struct Args {
    std::string model, db;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  sub.add_option("--model", args->model, "an opinion model file (revsum train --out)");
  sub.add_option("--db", args->db, "use this store's own model (it must have one)")
      ->check(CLI::ExistingFile);
  sub.add_flag("--json", args->json,
               "one JSON object per line: text, score, polarity, model, word_lists, logit");
  return [args] {
    std::optional<OpinionModel> model;
    if (!args->model.empty()) {
      model = OpinionModel::Load(args->model);
    } else if (!args->db.empty()) {
      StoreOptions options;
      options.read_only = true;
      auto store = ReviewStore::Open(args->db, options);
      const std::optional<StoredOpinionModel> stored = store->opinion_models().Latest();
      if (!stored) throw OpinionError(args->db + ": the store has no opinion model of its own");
      model = OpinionModel::Deserialize(
          stored->blob, args->db + ": opinion_models row " + std::to_string(stored->id));
    } else {
      model = LoadDefaultOpinionModel();
    }
    const PolarityLexicon lexicon = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
    for (std::string line; std::getline(std::cin, line);) {
      const SentenceOpinion o = model->Score(std::vector<std::string>{line})[0];
      const int words = lexicon.Score(line);
      const int sign = (words > 0) - (words < 0);
      const float score = CombineWithWordLists(o.score, sign);
      const std::string side(OpinionSideName(model->Side(score)));
      if (args->json) {
        std::cout << "{\"text\":" << JsonQuote(line) << ",\"score\":" << Fixed(score)
                  << ",\"polarity\":\"" << side << "\",\"model\":" << Fixed(o.score)
                  << ",\"word_lists\":" << sign << ",\"logit\":" << Fixed(o.logit) << "}\n";
      } else {
        std::cout << Fixed(score) << '\t' << side << '\t' << Fixed(o.score) << '\t' << sign << '\t'
                  << Fixed(o.logit) << '\t' << TerminalSafe(line) << '\n';
      }
    }
    return kExitOk;
  };
}

}  // namespace

REVSUM_COMMAND("opinions", "a sentence per stdin line -> its learned polarity and weight", Setup);

}  // namespace revsum::cli
