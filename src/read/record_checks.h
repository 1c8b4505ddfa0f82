// Checks and conversions shared by the format readers: UTF-8 validation, blank text, numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace revsum::read_internal {

// The first problem that makes `bytes` unacceptable as review text, or "" when there is none:
// "invalid UTF-8 at byte N" or "binary data: NUL byte at byte N", where N is the 0-based offset in
// `bytes` plus `offset` (so a multi-line record can report offsets from its own start).
std::string CheckText(std::string_view bytes, uint64_t offset = 0);

// True when `text` holds nothing but whitespace (ASCII, U+00A0, U+3000) and byte-order marks.
bool IsBlank(std::string_view text);

// A finite number written in `text` (surrounding ASCII whitespace allowed), e.g. "5", " 4.0 ",
// "1e3"; nullopt otherwise.
std::optional<double> ParseNumber(std::string_view text);

// Ratings beyond +-kMaxRatingMagnitude are refused: no rating scale reaches them, and one such
// value would overflow a mean or stretch a dump's detected rating scale (read.h).
inline constexpr double kMaxRatingMagnitude = 1e6;
// The reject reason for a rating out of that range ("" when it is in range). `field` names it.
std::string RatingRangeProblem(double rating, std::string_view field);

// Unix time in seconds from a number of seconds or milliseconds: |value| >= 1e11 is taken as
// milliseconds (1e11 s is the year 5138; 1e11 ms is 1973). nullopt when the result is beyond
// +-1e13 seconds (out of any plausible range, and of int64 for absurd inputs).
std::optional<int64_t> UnixSeconds(double value);

// The start of the Reject reason for a time value that ParseTime cannot read.
inline constexpr std::string_view kBadTime = "time is not a number or a date: ";

// Unix seconds (UTC) from a time written as text, ignoring surrounding ASCII whitespace:
//   - a number: seconds or milliseconds, as UnixSeconds;
//   - a date "YYYY-MM-DD" or "YYYY/MM/DD" (month and day may have one digit), optionally followed
//     by 'T' or ' ' and "HH:MM" or "HH:MM:SS" with an optional fraction (".123", dropped), then
//     optionally 'Z' or an offset "+HH:MM", "-HH:MM", "+HHMM", "+HH" (without one the time is
//     taken as UTC). Years 0001-9999; fields are range-checked (no February 30);
//   - a date with an English month name, optionally after a weekday and before "HH:MM[:SS]" and
//     an RFC 2822 zone ("+0100", "GMT"): "Dec 23, 2008", "December 23 2008", "23 Dec 2008",
//     "Tue, 23 Dec 2008 14:30:00 +0000";
//   - the year last: "12/23/2008" is month/day/year (US) unless the first number is above 12
//     ("23/12/2008": day/month); "23.12.2008" is day.month.year; optionally " HH:MM[:SS]".
//     "01/02/2008" is therefore January 2: one value cannot tell, so a day/month dump is read
//     right only where its day is above 12.
// nullopt for anything else. Independent of the locale and the TZ environment.
std::optional<int64_t> ParseTime(std::string_view text);

// Days from 1970-01-01 to the proleptic Gregorian date year-month-day.
// REQUIRES: 1 <= year <= 9999, 1 <= month <= 12, 1 <= day <= DaysInMonth(year, month).
int64_t DaysFromEpoch(int year, int month, int day);
int DaysInMonth(int year, int month);

// At most `limit` bytes of `text`, cut back to a UTF-8 character boundary, for messages.
std::string_view Utf8Prefix(std::string_view text, size_t limit);

// The parts joined, e.g. Concat({"\"", key, "\" is ", value}). (Also sidesteps a GCC 12
// -Wrestrict false positive on chains of std::string operator+.)
std::string Concat(std::initializer_list<std::string_view> parts);

// At most `limit` bytes of `raw`, for Reject::raw.
std::string BoundedRaw(std::string_view raw, size_t limit);

}  // namespace revsum::read_internal
