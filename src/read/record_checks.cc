#include "record_checks.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace revsum::read_internal {

std::string CheckText(std::string_view bytes, uint64_t offset) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  auto at = [&](size_t k) { return std::to_string(offset + k); };
  while (i < n) {
    // Fast path: eight ASCII bytes without NUL at a time.
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      const bool ascii = (w & 0x8080808080808080ULL) == 0;
      const bool has_zero = ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
      if (ascii && !has_zero) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = s[i];
    if (c == 0) return "binary data: NUL byte at byte " + at(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    // RFC 3629: reject overlong forms, surrogates and code points above U+10FFFF.
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return "invalid UTF-8 at byte " + at(i);
    }
    if (i + len > n) return "invalid UTF-8 at byte " + at(i);
    if (s[i + 1] < lo || s[i + 1] > hi) return "invalid UTF-8 at byte " + at(i);
    for (size_t k = 2; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return "invalid UTF-8 at byte " + at(i);
    }
    i += len;
  }
  return "";
}

bool IsBlank(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (text.substr(i, 2) == "\xC2\xA0") {
      i += 2;
    } else if (text.substr(i, 3) == "\xE3\x80\x80" || text.substr(i, 3) == "\xEF\xBB\xBF") {
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

std::optional<double> ParseNumber(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string RatingRangeProblem(double rating, std::string_view field) {
  if (std::fabs(rating) <= kMaxRatingMagnitude) return "";
  char value[32];
  std::snprintf(value, sizeof value, "%g", rating);
  return "rating out of range: \"" + std::string(field) + "\" is " + value +
         " (accepted: -1000000 to 1000000)";
}

std::optional<int64_t> UnixSeconds(double value) {
  if (std::fabs(value) >= 1e11) value /= 1000.0;
  if (std::fabs(value) > 1e13) return std::nullopt;
  return static_cast<int64_t>(std::floor(value));
}

namespace {

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

// Leap years in 1..n (n >= 0).
int64_t LeapYearsThrough(int64_t n) { return n / 4 - n / 100 + n / 400; }

// Reads 1..max_digits decimal digits at s[*i] (at least min_digits) into *value.
bool ReadDigits(std::string_view s, size_t* i, size_t min_digits, size_t max_digits, int* value) {
  size_t n = 0;
  int v = 0;
  while (*i + n < s.size() && n < max_digits && s[*i + n] >= '0' && s[*i + n] <= '9') {
    v = v * 10 + (s[*i + n] - '0');
    ++n;
  }
  if (n < min_digits) return false;
  *i += n;
  *value = v;
  return true;
}

std::optional<int64_t> ParseDate(std::string_view s) {
  size_t i = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!ReadDigits(s, &i, 4, 4, &year) || year < 1 || i >= s.size()) return std::nullopt;
  const char sep = s[i];
  if (sep != '-' && sep != '/') return std::nullopt;
  ++i;
  if (!ReadDigits(s, &i, 1, 2, &month) || month < 1 || month > 12) return std::nullopt;
  if (i >= s.size() || s[i] != sep) return std::nullopt;
  ++i;
  if (!ReadDigits(s, &i, 1, 2, &day) || day < 1 || day > DaysInMonth(year, month)) {
    return std::nullopt;
  }
  int64_t offset = 0;  // seconds east of UTC
  if (i < s.size()) {
    if (s[i] != 'T' && s[i] != 't' && s[i] != ' ') return std::nullopt;
    ++i;
    if (!ReadDigits(s, &i, 2, 2, &hour) || hour > 23) return std::nullopt;
    if (i >= s.size() || s[i] != ':') return std::nullopt;
    ++i;
    if (!ReadDigits(s, &i, 2, 2, &minute) || minute > 59) return std::nullopt;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!ReadDigits(s, &i, 2, 2, &second) || second > 60) return std::nullopt;  // 60: leap
      if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
        ++i;
        int ignored = 0;
        if (!ReadDigits(s, &i, 1, 1, &ignored)) return std::nullopt;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      }
    }
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
      ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      const int sign = s[i] == '-' ? -1 : 1;
      ++i;
      int oh = 0, om = 0;
      if (!ReadDigits(s, &i, 2, 2, &oh) || oh > 23) return std::nullopt;
      if (i < s.size() && s[i] == ':') ++i;
      if (i < s.size() && !ReadDigits(s, &i, 2, 2, &om)) return std::nullopt;
      if (om > 59) return std::nullopt;
      offset = sign * (oh * 3600 + om * 60);
    }
    if (i != s.size()) return std::nullopt;
  }
  return DaysFromEpoch(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
}

// English month names and their three-letter forms, case-insensitive ("Dec", "December", "dec.").
int MonthFromName(std::string_view word) {
  static constexpr std::string_view kMonths[] = {"january",   "february", "march",    "april",
                                                 "may",       "june",     "july",     "august",
                                                 "september", "october",  "november", "december"};
  if (!word.empty() && word.back() == '.') word.remove_suffix(1);
  if (word.size() < 3) return 0;
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  for (int m = 0; m < 12; ++m) {
    if (lower == kMonths[m] || lower == kMonths[m].substr(0, 3) || (m == 8 && lower == "sept")) {
      return m + 1;
    }
  }
  return 0;
}

// "Tue", "Tuesday", "tue." (case-insensitive).
bool IsWeekday(std::string_view word) {
  static constexpr std::string_view kDays[] = {"monday", "tuesday",  "wednesday", "thursday",
                                               "friday", "saturday", "sunday"};
  if (!word.empty() && word.back() == '.') word.remove_suffix(1);
  if (word.size() < 3) return false;
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  for (std::string_view day : kDays) {
    if (lower == day || lower == day.substr(0, 3)) return true;
  }
  return false;
}

// The words of `s`, split at spaces and commas ("Tue, 23 Dec 2008" -> Tue 23 Dec 2008).
std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',')) ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != ',') ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

bool AllDigits(std::string_view s, size_t min, size_t max) {
  return s.size() >= min && s.size() <= max &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int ToInt(std::string_view digits) {
  int v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

// "HH:MM" or "HH:MM:SS" into seconds of the day.
std::optional<int64_t> ClockTime(std::string_view s) {
  size_t i = 0;
  int hour = 0, minute = 0, second = 0;
  if (!ReadDigits(s, &i, 1, 2, &hour) || hour > 23 || i >= s.size() || s[i] != ':') {
    return std::nullopt;
  }
  ++i;
  if (!ReadDigits(s, &i, 2, 2, &minute) || minute > 59) return std::nullopt;
  if (i < s.size() && s[i] == ':') {
    ++i;
    if (!ReadDigits(s, &i, 2, 2, &second) || second > 60) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  return hour * 3600 + minute * 60 + second;
}

// An RFC 2822 zone: "+0100", "-0530", "UT", "UTC", "GMT", "Z" (seconds east of UTC).
std::optional<int64_t> ZoneOffset(std::string_view s) {
  if (s == "UT" || s == "UTC" || s == "GMT" || s == "Z") return 0;
  if (s.size() == 5 && (s[0] == '+' || s[0] == '-') && AllDigits(s.substr(1), 4, 4)) {
    const int hours = ToInt(s.substr(1, 2)), minutes = ToInt(s.substr(3, 2));
    if (hours > 23 || minutes > 59) return std::nullopt;
    return (s[0] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  }
  return std::nullopt;
}

std::optional<int64_t> FromParts(int year, int month, int day, int64_t clock, int64_t offset) {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, month)) {
    return std::nullopt;
  }
  return DaysFromEpoch(year, month, day) * 86400 + clock - offset;
}

// Dates with a month name, as review sites and mail headers write them, with an optional
// weekday first and an optional "HH:MM[:SS]" and zone after the year:
//   "Dec 23, 2008", "December 23 2008", "23 Dec 2008", "Tue, 23 Dec 2008 14:30:00 +0000".
std::optional<int64_t> ParseNamedMonthDate(std::string_view s) {
  std::vector<std::string_view> w = Words(s);
  if (!w.empty() && IsWeekday(w[0])) w.erase(w.begin());
  if (w.size() < 3) return std::nullopt;
  int month = 0, day = 0;
  if (const int m = MonthFromName(w[0]); m && AllDigits(w[1], 1, 2)) {
    month = m;
    day = ToInt(w[1]);
  } else if (const int m2 = MonthFromName(w[1]); m2 && AllDigits(w[0], 1, 2)) {
    month = m2;
    day = ToInt(w[0]);
  } else {
    return std::nullopt;
  }
  if (!AllDigits(w[2], 4, 4)) return std::nullopt;
  int64_t clock = 0, offset = 0;
  if (w.size() >= 4) {
    const std::optional<int64_t> c = ClockTime(w[3]);
    if (!c) return std::nullopt;
    clock = *c;
  }
  if (w.size() >= 5) {
    const std::optional<int64_t> z = ZoneOffset(w[4]);
    if (!z) return std::nullopt;
    offset = *z;
  }
  if (w.size() > 5) return std::nullopt;
  return FromParts(ToInt(w[2]), month, day, clock, offset);
}

// "12/23/2008" and "23.12.2008": the year last. With slashes the month comes first (US), unless
// the first number is above 12 ("23/12/2008" is read as day/month); with dots the day comes
// first (European). An optional " HH:MM[:SS]" follows.
std::optional<int64_t> ParseYearLastDate(std::string_view s) {
  std::vector<std::string_view> w = Words(s);
  if (w.empty() || w.size() > 2) return std::nullopt;
  const std::string_view date = w[0];
  const char sep = date.find('/') != std::string_view::npos ? '/' : '.';
  const size_t a = date.find(sep);
  const size_t b = a == std::string_view::npos ? a : date.find(sep, a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  const std::string_view first = date.substr(0, a), second = date.substr(a + 1, b - a - 1),
                         year = date.substr(b + 1);
  if (!AllDigits(first, 1, 2) || !AllDigits(second, 1, 2) || !AllDigits(year, 4, 4)) {
    return std::nullopt;
  }
  int month = ToInt(first), day = ToInt(second);
  if (sep == '.' || month > 12) std::swap(month, day);
  int64_t clock = 0;
  if (w.size() == 2) {
    const std::optional<int64_t> c = ClockTime(w[1]);
    if (!c) return std::nullopt;
    clock = *c;
  }
  return FromParts(ToInt(year), month, day, clock, 0);
}

}  // namespace

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

int64_t DaysFromEpoch(int year, int month, int day) {
  // Whole years since 1970 (each 365 days plus its leap day), then whole months of this year.
  static constexpr int kDaysBeforeMonth[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  int64_t days =
      365 * static_cast<int64_t>(year - 1970) + LeapYearsThrough(year - 1) - LeapYearsThrough(1969);
  days += kDaysBeforeMonth[month - 1] + (month > 2 && IsLeapYear(year) ? 1 : 0);
  return days + day - 1;
}

std::optional<int64_t> ParseTime(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  if (auto number = ParseNumber(text)) return UnixSeconds(*number);
  if (auto iso = ParseDate(text)) return iso;
  if (auto named = ParseNamedMonthDate(text)) return named;
  return ParseYearLastDate(text);
}

std::string_view Utf8Prefix(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t n = limit;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

std::string Concat(std::initializer_list<std::string_view> parts) {
  size_t n = 0;
  for (std::string_view part : parts) n += part.size();
  std::string out;
  out.reserve(n);
  for (std::string_view part : parts) out.append(part);
  return out;
}

std::string BoundedRaw(std::string_view raw, size_t limit) {
  return std::string(raw.substr(0, limit));
}

}  // namespace revsum::read_internal
