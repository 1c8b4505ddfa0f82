// Irregular English inflections, for ROUGE's stemming (-m). Private to the eval stage.
//
// ROUGE-1.5.5 looks every token longer than 3 characters up in an exception database built from
// the WordNet 2.0 exception lists (irregular plurals, past tenses, comparatives: "feet" -> "foot",
// "bought" -> "buy", "better" -> "good") and Porter-stems only the tokens it does not find there.
// We do not ship WordNet: this is our own list of common irregular forms of English, written for
// revsum, mapping each form to the base form WordNet gives it. It covers the forms that occur in
// the development sets (checked against the ROUGE-1.5.5 fixtures) and the other everyday ones; a
// rare irregular form missing here is Porter-stemmed instead, which can lose a match the script
// would make.
#pragma once

#include <string_view>

namespace revsum::internal {

// The base form of an irregular inflected word, or an empty view when `word` is not listed.
// REQUIRES: `word` is lowercase ASCII.
std::string_view IrregularBase(std::string_view word);

}  // namespace revsum::internal
