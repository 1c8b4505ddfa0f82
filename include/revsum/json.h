// Writing JSON strings: the one escaping routine every JSON writer in revsum uses (export, run
// parameters, eval outputs). Reading JSON is simdjson's job.
#pragma once

#include <string>
#include <string_view>

namespace revsum {

// Appends `utf8` to `out` as a JSON string literal, quotes included: '"', '\\' and control
// characters are escaped, and so (as \uXXXX, the same string to a JSON reader) are DEL, the C1
// controls, U+2028/U+2029 (which a JSONL reader may take for line ends), bidi embeddings,
// overrides, isolates and marks (U+061C, U+200E/F, U+202A-E, U+2066-9), the zero-width
// characters U+200B-D and U+FEFF; every other byte (UTF-8 included) passes through unchanged.
void AppendJsonString(std::string& out, std::string_view utf8);

// The same, returned.
std::string JsonQuote(std::string_view utf8);

}  // namespace revsum
