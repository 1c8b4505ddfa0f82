// JSON Lines: one object per line, parsed with simdjson's DOM parser (one parser reused for the
// whole file). Field names are auto-detected per record for the Amazon 2018 and 2023 review dumps.
#include <charconv>
#include <span>
#include <vector>

#include <simdjson.h>

#include "format_readers.h"
#include "record_checks.h"

namespace revsum::read_internal {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

constexpr std::string_view kTextKeys[] = {"reviewText", "text",    "review",
                                          "content",    "comment", "body"};
constexpr std::string_view kProductKeys[] = {"parent_asin", "asin", "product",
                                             "product_id",  "cat",  "category"};
constexpr std::string_view kIdKeys[] = {"review_id", "reviewId", "id"};
constexpr std::string_view kRatingKeys[] = {"rating", "overall", "stars", "score", "label"};
constexpr std::string_view kTitleKeys[] = {"title", "summary"};
constexpr std::string_view kTimeKeys[] = {"timestamp", "unixReviewTime", "unix_time"};

std::string_view TypeName(element_type type) {
  switch (type) {
    case element_type::ARRAY:
      return "an array";
    case element_type::OBJECT:
      return "an object";
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
      return "a number";
    case element_type::STRING:
      return "a string";
    case element_type::BOOL:
      return "a boolean";
    case element_type::NULL_VALUE:
      return "null";
  }
  return "a value";
}

// A field found in a record: its key and value.
struct Found {
  std::string_view key;
  element value;
};

// The value of `override_key` if set, else of the first candidate key present in `obj`.
std::optional<Found> Lookup(const object& obj, const std::string& override_key,
                            std::span<const std::string_view> candidates) {
  element value;
  if (!override_key.empty()) {
    if (obj.at_key(override_key).get(value) == simdjson::SUCCESS) {
      return Found{override_key, value};
    }
    return std::nullopt;
  }
  for (std::string_view key : candidates) {
    if (obj.at_key(key).get(value) == simdjson::SUCCESS) return Found{key, value};
  }
  return std::nullopt;
}

// Scalars as text: strings as they are, numbers in their shortest form; nullopt for null, arrays
// and objects.
std::optional<std::string> ScalarText(const element& value) {
  char buf[64];
  switch (value.type()) {
    case element_type::STRING:
      return std::string(std::string_view(value.get_string().value_unsafe()));
    case element_type::INT64:
      return std::to_string(value.get_int64().value_unsafe());
    case element_type::UINT64:
      return std::to_string(value.get_uint64().value_unsafe());
    case element_type::DOUBLE: {
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value.get_double().value_unsafe());
      if (ec != std::errc()) return std::nullopt;
      return std::string(buf, end);
    }
    case element_type::BOOL:
      return value.get_bool().value_unsafe() ? "true" : "false";
    default:
      return std::nullopt;
  }
}

// A number field: absent (nullopt with *error empty) for null or "", else the value, else *error.
std::optional<double> NumberField(const Found& field, std::string* error) {
  const element& v = field.value;
  switch (v.type()) {
    case element_type::INT64:
      return static_cast<double>(v.get_int64().value_unsafe());
    case element_type::UINT64:
      return static_cast<double>(v.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return v.get_double().value_unsafe();
    case element_type::NULL_VALUE:
      return std::nullopt;
    case element_type::STRING: {
      std::string_view s = v.get_string().value_unsafe();
      if (IsBlank(s)) return std::nullopt;
      if (auto number = ParseNumber(s)) return number;
      *error = Concat({"\"", field.key, "\" is \"", Utf8Prefix(s, 40), "\""});
      return std::nullopt;
    }
    default:
      *error = Concat({"\"", field.key, "\" is ", TypeName(v.type())});
      return std::nullopt;
  }
}

class JsonlReader : public LineBasedReader {
 public:
  JsonlReader(std::string source, std::unique_ptr<LineReader> lines, const ReadOptions& options)
      : LineBasedReader(std::move(source), std::move(lines), options) {}

  Format format() const override { return Format::kJsonl; }

  bool Next(Record* out) override {
    out->review.reset();
    out->reject.reset();
    Line line;
    switch (NextContentLine(&line, out)) {  // blank lines separate nothing and are not records
      case LineStep::kEnd: return false;
      case LineStep::kRejected: return true;
      case LineStep::kLine: return ParseLine(line, out);
    }
    return false;
  }

 private:
  bool ParseLine(const Line& line, Record* out) {
    if (std::string problem = CheckText(line.bytes); !problem.empty()) {
      return MakeReject(out, line.number, std::move(problem), line.bytes);
    }
    // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse from a padded copy.
    const size_t n = line.bytes.size();
    if (padded_.size() < n + simdjson::SIMDJSON_PADDING) {
      padded_.resize(n + simdjson::SIMDJSON_PADDING);
    }
    std::copy(line.bytes.begin(), line.bytes.end(), padded_.begin());
    element doc;
    if (auto error = parser_.parse(padded_.data(), n, false).get(doc); error) {
      return MakeReject(out, line.number,
                        std::string("malformed JSON: ") + simdjson::error_message(error),
                        line.bytes);
    }
    object obj;
    if (doc.get(obj) != simdjson::SUCCESS) {
      return MakeReject(
          out, line.number,
          "JSON value is not an object (it is " + std::string(TypeName(doc.type())) + ")",
          line.bytes);
    }
    return FromObject(obj, line, out);
  }

  bool FromObject(const object& obj, const Line& line, Record* out) {
    const FieldMap& f = options_.fields;
    Review review = NewReview(line.number);

    auto text = Lookup(obj, f.text, kTextKeys);
    if (!text) {
      std::string reason = f.text.empty() ? "missing text field (none of reviewText, text, review, "
                                            "content, comment, body)"
                                          : "missing text field \"" + f.text + "\"";
      return MakeReject(out, line.number, std::move(reason), line.bytes);
    }
    std::string_view body;
    if (text->value.get(body) != simdjson::SUCCESS) {
      return MakeReject(out, line.number,
                        "text field \"" + std::string(text->key) + "\" is not a string (it is " +
                            std::string(TypeName(text->value.type())) + ")",
                        line.bytes);
    }
    if (IsBlank(body)) {
      return MakeReject(out, line.number, "empty text field \"" + std::string(text->key) + "\"",
                        line.bytes);
    }
    review.text = std::string(body);

    if (auto product = Lookup(obj, f.product, kProductKeys)) {
      review.product = ScalarText(product->value).value_or("");
    }
    if (auto title = Lookup(obj, f.title, kTitleKeys)) {
      review.title = ScalarText(title->value).value_or("");
    }

    std::string error;
    if (auto rating = Lookup(obj, f.rating, kRatingKeys)) {
      review.rating = NumberField(*rating, &error);
      if (!error.empty()) {
        return MakeReject(out, line.number, "rating is not a number: " + error, line.bytes);
      }
    }
    auto time = Lookup(obj, f.time, kTimeKeys);
    if (time) {
      if (auto seconds = NumberField(*time, &error)) {
        review.time = UnixSeconds(*seconds);
        if (!review.time) error = Concat({"\"", time->key, "\" is out of range"});
      }
      if (!error.empty()) {
        return MakeReject(out, line.number, "time is not a number: " + error, line.bytes);
      }
    }

    if (auto id = Lookup(obj, f.id, kIdKeys)) {
      review.external_id = ScalarText(id->value).value_or("");
    } else if (f.id.empty()) {
      // No review id: Amazon's dumps identify a review by its author and time.
      for (auto [user_key, time_key] :
           {std::pair<std::string_view, std::string_view>{"user_id", "timestamp"},
            {"reviewerID", "unixReviewTime"}}) {
        element user, when;
        if (obj.at_key(user_key).get(user) != simdjson::SUCCESS ||
            obj.at_key(time_key).get(when) != simdjson::SUCCESS) {
          continue;
        }
        auto user_text = ScalarText(user), time_text = ScalarText(when);
        if (user_text && time_text && !user_text->empty()) {
          review.external_id = *user_text + ":" + *time_text;
          break;
        }
      }
    }
    // A \u0000 escape decodes to a NUL that CheckText cannot see in the raw line; such a record
    // is binary data like one with a raw NUL byte (SQLite's text functions stop at a NUL).
    for (auto [name, value] :
         {std::pair<std::string_view, const std::string*>{"text", &review.text},
          {"title", &review.title},
          {"product", &review.product},
          {"id", &review.external_id}}) {
      if (value->find('\0') != std::string::npos) {
        return MakeReject(out, line.number,
                          Concat({"binary data: NUL byte (\\u0000) in the ", name, " field"}),
                          line.bytes);
      }
    }
    out->review = std::move(review);
    return true;
  }

  simdjson::dom::parser parser_;
  std::vector<char> padded_;
};

}  // namespace

std::unique_ptr<ReviewReader> NewJsonlReader(std::string source, std::unique_ptr<LineReader> lines,
                                             const ReadOptions& options) {
  return std::make_unique<JsonlReader>(std::move(source), std::move(lines), options);
}

}  // namespace revsum::read_internal
