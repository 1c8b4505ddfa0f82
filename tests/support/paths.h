// Where the tests find the committed samples (REVSUM_SAMPLES, set for every test binary by
// CMakeLists.txt).
#pragma once

#include <string>

namespace revsum::testing {

inline const std::string kSamples = REVSUM_SAMPLES;

}  // namespace revsum::testing
