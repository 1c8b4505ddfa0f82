// What a USE-lite model folder must agree with: the encoder's fixed shapes and the error its
// loader throws. Its own header so that the model-file loader (src/embed/use_lite_model.cc) needs
// nothing of the embedder built on it (use_lite.h).
#pragma once

#include "revsum/models.h"

namespace revsum {

// Raised when the model cannot be loaded: missing, truncated or tampered files, or a model.json /
// vocab.json that does not have the expected structure. what() names the file and the problem
// and says how to fetch the model.
class UseLiteError : public ModelsError {
 public:
  using ModelsError::ModelsError;
};

// The number of tokens the transformer attends to; longer inputs keep their first 128 tokens.
inline constexpr int kUseLiteMaxTokens = 128;

// The embedding width.
inline constexpr int kUseLiteDim = 512;

}  // namespace revsum
