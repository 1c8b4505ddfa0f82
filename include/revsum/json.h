// Writing JSON strings: the one escaping routine every JSON writer in revsum uses (export, run
// parameters, eval outputs). Reading JSON is simdjson's job.
#pragma once

#include <string>
#include <string_view>

namespace revsum {

// Appends `utf8` to `out` as a JSON string literal, quotes included: '"', '\\' and control
// characters are escaped, every other byte (UTF-8 included) passes through unchanged.
void AppendJsonString(std::string& out, std::string_view utf8);

// The same, returned.
std::string JsonQuote(std::string_view utf8);

}  // namespace revsum
