// revsum::Error: the base of revsum's typed errors, so that a caller can tell a problem revsum
// diagnosed (a bad dump, store or model file, whose what() names the file and the problem) from
// any other exception with one catch. The typed errors, by the stage that throws them:
//   ReadError (read.h)    a dump as a whole cannot be read
//   StoreError (store.h)  the store cannot be opened, migrated or written, or a query is bad
//   ModelsError (models.h) a model file or folder is missing, damaged or tampered with;
//     UseLiteError (use_lite_format.h) is the USE-lite encoder's
//   OpinionError (opinion.h) an opinion model cannot be loaded, trained or stored
//   EvalError (eval.h)    a benchmark set or system output cannot be read
// Bad command-line values are std::invalid_argument; bugs are std::logic_error.
#pragma once

#include <stdexcept>

namespace revsum {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace revsum
