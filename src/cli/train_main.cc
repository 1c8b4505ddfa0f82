// revsum train --db PATH: the store's own opinion model, learned from its ratings (train.h).
//
// Prints what it read, the held-out accuracy of the new model, of the default model and of the
// word lists (all sources, then each source), and whether the model was kept. --out writes the
// model to a file as well (scripts/train-opinions builds the shipped default this way, with
// --from-scratch --keep --no-store). Exit 0 when a model was trained, 1 when the store keeps
// the default model (the reason is printed).
#include <cstdio>
#include <fstream>
#include <iostream>

#include "command.h"
#include "common.h"
#include "output_file.h"
#include "revsum/escape.h"
#include "revsum/train.h"

namespace revsum::cli {
namespace {

std::string Percent(const OpinionEvaluation& e, double v) {
  if (e.examples == 0) return "      -";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%6.1f%%", 100 * v);
  return buf;
}

void PrintRow(const std::string& name, const OpinionEvaluation& e) {
  std::cerr << "  " << name << Percent(e, e.accuracy()) << " accuracy  " << Percent(e, e.coverage())
            << " given a side  " << Percent(e, e.sided_accuracy()) << " right of those\n";
}

Runner Setup(CLI::App& sub) {
  struct Flags {
    std::string db, out;
    bool from_scratch = false, keep = false, no_store = false;
    StoreTrainOptions options;
  };
  auto f = std::make_shared<Flags>();
  AddExistingDbOption(sub, &f->db);
  sub.add_option("--out", f->out, "also write the trained model to this file");
  sub.add_flag("--from-scratch", f->from_scratch,
               "start from zero weights instead of the default model");
  sub.add_flag("--keep", f->keep,
               "keep the model even when the default model is as accurate on the held-out part");
  sub.add_flag("--no-store", f->no_store, "do not keep the model in the store");
  sub.add_option("--epochs", f->options.train.epochs, "passes over the training reviews")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  sub.add_option("--max-reviews", f->options.max_train_reviews,
                 "training reviews at most, chosen by a hash of their text (0 = all)")
      ->capture_default_str();
  sub.add_option("--min-reviews", f->options.min_rated_reviews,
                 "rated reviews a store needs for a model of its own")
      ->capture_default_str();
  return [f] {
    StoreTrainOptions options = f->options;
    options.start_from_default = !f->from_scratch;
    options.require_gain = !f->keep;
    options.store = !f->no_store;
    auto store = ReviewStore::Open(f->db);
    std::optional<OpinionModel> start;
    if (!f->from_scratch) start = LoadDefaultOpinionModel();
    const StoreTrainReport r = TrainStoreOpinions(*store, options, start);
    std::cerr << "train: " << Thousands(r.rated_reviews) << " rated reviews ("
              << Thousands(r.praise_reviews) << " above the middle, "
              << Thousands(r.complaint_reviews) << " below); " << Thousands(r.train_reviews)
              << " trained on (" << Thousands(r.train_sentences) << " sentences), "
              << Thousands(r.heldout_reviews) << " held out\n";
    if (!r.heldout.empty()) {
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.1f", r.train_seconds);
      std::cerr << "train: " << secs << " s; held-out reviews, side of the predicted rating:\n";
      for (const HeldOutRow& row : r.heldout) {
        std::cerr << (row.source.empty() ? std::string("all sources") : TerminalSafe(row.source))
                  << " (" << Thousands(row.trained.examples) << " rated off the middle)\n";
        PrintRow("this store's model ", row.trained);
        if (start) PrintRow("default model      ", row.start);
        PrintRow("word lists         ", row.lexicon);
        PrintRow("model + word lists ", row.combined);
      }
    }
    if (!r.trained) {
      std::cerr << "train: no model kept: " << TerminalSafe(r.notice)
                << "; runs use the default model\n";
      return kExitFailure;
    }
    if (!f->out.empty()) {
      const std::string bytes = r.model->Serialize();
      WriteOutputFile(f->out, "train: --out " + f->out, [&](std::ostream& out) {
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      });
      std::cerr << "train: wrote " << TerminalSafe(f->out) << "\n";
    }
    std::cerr << "train: model sha256 " << r.model_hash;
    if (r.model_id) std::cerr << " kept as opinion_models row " << r.model_id;
    std::cerr << "\n";
    return kExitOk;
  };
}

}  // namespace

REVSUM_COMMAND("train", "learn the store's sentence opinions from its ratings", Setup);

}  // namespace revsum::cli
