// ROUGE, reimplemented to reproduce the original ROUGE-1.5.5 perl script (Lin 2004, "ROUGE: A
// Package for Automatic Evaluation of Summaries") run as
//
//   ROUGE-1.5.5.pl -a -c 95 -r 1000 -n 2 -m -f A -p 0.5 -t 0 -l <budget_words>
//
// on texts laid out one sentence per line (SPL). What that command computes, and so what this
// module computes, for one peer (system summary) and its references (models):
//
//   Cut       the first `max_words` whitespace-separated tokens of the peer and of every reference
//             (-l; whitespace is ASCII " \t\n\r\f\v", as perl's \s on bytes).
//   Layout    each text is split into sentence units (SplitSentenceUnits below).
//   Tokens    per unit: ASCII A-Z lowercased, '-' isolated, every byte other than [A-Za-z0-9-]
//             replaced by a space (so non-ASCII letters are dropped byte by byte), split on spaces;
//             tokens not starting with [a-z0-9] (i.e. "-") are dropped; tokens longer than 3
//             characters are stemmed (-m): an irregular form maps to its base ("feet" -> "foot",
//             as the script's WordNet exception list does; we ship our own list of common
//             irregular forms, src/eval/irregular_forms.cc), any other token is Porter-stemmed
//             (PorterStem below). No stop words are removed.
//   ROUGE-N   n-grams of the whole token stream (they cross unit boundaries). Per reference:
//             hit = sum over n-grams of min(count in peer, count in reference).
//   ROUGE-L   summary-level "union LCS": for every reference unit, the union of the positions of
//             one LCS (CLRS back-trace, ties go up) against each peer unit; each marked token
//             counts once while unigram budgets of both texts last (the 1.4.1 clipping).
//   -f A      hits and counts are summed over the references: R = Σhit / Σ|ref|,
//             P = Σhit / (|refs|·|peer|); both rounded to 5 decimals as the script prints them.
//   -p 0.5    F = P·R / ((1-α)·P + α·R) with α = 0.5, from the rounded R and P, rounded again.
//
// Averages over entities (-t 0, bootstrap resampling -r 1000) are in eval.h (DatasetScores).
//
// Thread-safety: every function here is pure and thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace revsum {

// Recall, precision and F of one ROUGE metric, in [0, 1] (multiply by 100 for the usual tables).
struct RougeScores {
  double recall = 0;
  double precision = 0;
  double f = 0;
};

// ROUGE-1, ROUGE-2 and ROUGE-L of one peer against its references.
struct RougeResult {
  RougeScores r1;
  RougeScores r2;
  RougeScores rl;
};

struct RougeOptions {
  // -l: keep only the first max_words whitespace tokens of the peer and of every reference.
  // 0 keeps everything.
  size_t max_words = 0;

  // -m: Porter-stem tokens longer than 3 characters.
  bool stem = true;

  // -p: weight of recall in F = 1 / (alpha/P + (1-alpha)/R). 0.5 is the balanced F1.
  double alpha = 0.5;
};

// The first `max_words` whitespace-separated tokens of `text`, with the original text between them
// (line breaks included) kept verbatim; trailing text after the last kept token is dropped.
// max_words == 0 returns `text` unchanged.
std::string CutToWords(std::string_view text, size_t max_words);

// Splits text into sentence units, the SPL layout fed to ROUGE: a unit ends at a line break, and
// after '.', '!' or '?' (optionally followed by closing quotes or brackets: " ' ) ] } ” ’ »)
// when white space follows. Units are trimmed of surrounding white space; empty units are dropped.
// Nothing else is split: "e.g. this" becomes two units, "3.5mm" and "great.love it" stay one.
std::vector<std::string> SplitSentenceUnits(std::string_view text);

// ROUGE-1.5.5's tokens of one sentence unit (see "Tokens" above); `stem` is -m.
std::vector<std::string> RougeTokens(std::string_view unit, bool stem = true);

// The Porter (1980) stemmer as ported to perl and shipped inside ROUGE-1.5.5, including that
// port's departures from the paper: step 2 maps "bli"->"ble" and "logi"->"log" (not "abli"), and
// step 4 tries "-ment" and then "-ent" after the other suffixes instead of stopping at the longest
// match (Lin's 2004 change), so "agreement" -> "agreem". REQUIRES: `word` is lowercase ASCII.
// Words shorter than 3 characters are returned unchanged. Defined in porter_stemmer.cc.
std::string PorterStem(std::string_view word);

// Scores `peer` against `references` (raw texts: they are cut and laid out here, as above).
// With no references, or texts without tokens, the affected scores are 0 (as the script does).
RougeResult ScoreRouge(std::string_view peer, const std::vector<std::string>& references,
                       const RougeOptions& options = {});

// Same, for texts already laid out: `peer_units` and each element of `reference_units` are the
// lines of an SPL file, as the script reads them. options.max_words is applied the script's way:
// lines are kept while the running count of their whitespace tokens stays below the limit, and the
// line that reaches it is cut to its first tokens (joined by single spaces). Empty lines are
// skipped.
RougeResult ScoreRougeUnits(const std::vector<std::string>& peer_units,
                            const std::vector<std::vector<std::string>>& reference_units,
                            const RougeOptions& options = {});

}  // namespace revsum
