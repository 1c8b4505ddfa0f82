// Writing JSON strings: the one escaping routine every JSON writer in revsum uses (export, run
// parameters, eval outputs). Reading JSON is simdjson's job.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace revsum {

// Appends `utf8` to `out` as a JSON string literal, quotes included: '"', '\\' and control
// characters are escaped, and so (as \uXXXX, the same string to a JSON reader) are DEL, the C1
// controls, U+2028/U+2029 (which a JSONL reader may take for line ends), bidi embeddings,
// overrides, isolates and marks (U+061C, U+200E/F, U+202A-E, U+2066-9), the zero-width
// characters U+200B-D and U+FEFF; every other byte (UTF-8 included) passes through unchanged.
void AppendJsonString(std::string& out, std::string_view utf8);

// The same, returned.
std::string JsonQuote(std::string_view utf8);

// `--fields a,b` (as gh --json a,b): the JSON object `object` with only these keys, in this order,
// their values unchanged (strings re-escaped by AppendJsonString, numbers as simdjson writes
// them). Throws std::invalid_argument naming the object's fields when one is not among them.
std::string JsonSelectFields(std::string_view object, const std::vector<std::string>& fields);
// "a,b, c" -> {"a", "b", "c"}; throws std::invalid_argument on an empty name.
std::vector<std::string> ParseFieldList(std::string_view list);

}  // namespace revsum
