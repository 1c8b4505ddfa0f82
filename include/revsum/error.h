// revsum::Error: the base of revsum's typed errors, so that a caller can tell a problem revsum
// diagnosed (a bad dump, store or model file, whose what() names the file and the problem) from
// any other exception with one catch. The typed errors, by the stage that throws them:
//   ReadError (read.h)    a dump as a whole cannot be read
//   StoreError (store.h)  the store cannot be opened, migrated or written, or a query is bad
//   ModelsError (models.h) a model file or folder is missing, damaged or tampered with;
//     UseLiteError (use_lite_format.h) is the USE-lite encoder's
//   OpinionError (opinion.h) an opinion model cannot be loaded, trained or stored
//   EvalError (eval.h)    a benchmark set or system output cannot be read
//   TextError (text.h)    ICU's break iterators or normalisation fail; a fragment lexicon is bad
//   EmbedError (embed.h)  an embedder cannot embed (ICU normalisation; a combination's rows)
//   ScoreError (score.h)  a seed file is malformed
//   PointsError (points.h) a polarity word list is malformed
//   RunError (run.h)      a run cannot start or has nothing to summarise
//   ExportError (export.h) nothing to export as asked (no run, summaries, points or product)
//   ReportError (report.h) the report page cannot be made as asked (no such product or run)
// A refused thread (StartThreads, parallel.h) and the CLI's own failures (an output file that
// cannot be written, report_main's checks) are a plain Error.
// Bad command-line values are std::invalid_argument; bugs are std::logic_error (argument checks
// of internal APIs are std::invalid_argument, a logic_error): callers catch std::invalid_argument
// to name the flag (common.cc, export_main.cc, eval_main.cc), so these stay as they are.
#pragma once

#include <stdexcept>

namespace revsum {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace revsum
