// JSON records, parsed with simdjson's DOM parser (one parser reused for the whole file), and the
// JSON Lines reader: one object per line. Field names are auto-detected per record for the Amazon
// 2018 and 2023 and the Yelp review dumps.
#include <charconv>
#include <span>
#include <vector>

#include <simdjson.h>

#include "field_names.h"
#include "format_readers.h"
#include "json_record_reader.h"
#include "record_checks.h"

namespace revsum::read_internal {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

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
std::optional<Found> Lookup(const object& obj, std::string_view override_key,
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

// A time field: absent (nullopt with *error empty) for null or "", else unix seconds, else *error.
std::optional<int64_t> TimeField(const Found& field, std::string* error) {
  const element& v = field.value;
  if (v.type() == element_type::STRING) {
    std::string_view s = v.get_string().value_unsafe();
    if (IsBlank(s)) return std::nullopt;
    if (auto seconds = ParseTime(s)) return seconds;
    *error = Concat({"\"", field.key, "\" is \"", Utf8Prefix(s, 40), "\""});
    return std::nullopt;
  }
  auto number = NumberField(field, error);
  if (!number) return std::nullopt;
  auto seconds = UnixSeconds(*number);
  if (!seconds) *error = Concat({"\"", field.key, "\" is out of range"});
  return seconds;
}

class JsonlReader : public JsonRecordReader {
 public:
  JsonlReader(std::string source, std::unique_ptr<LineReader> lines, const ReadOptions& options)
      : JsonRecordReader(std::move(source), std::move(lines), options) {}

 private:
  bool ReadRecord(Record* out) override {
    out->review.reset();
    out->reject.reset();
    Line line;
    switch (NextContentLine(&line, out)) {  // blank lines separate nothing and are not records
      case LineStep::kEnd:
        return false;
      case LineStep::kRejected:
        return true;
      case LineStep::kLine:
        return ParseRecord(line.bytes, line.number, out);
    }
    return false;
  }
};

}  // namespace

bool JsonRecordReader::Next(Record* out) {
  if (!started_) {
    started_ = true;
    LookAhead();
  }
  out->review.reset();
  out->reject.reset();
  if (!held_.empty()) {
    *out = std::move(held_.front().record);
    reported_bytes_ = held_.front().bytes_read;
    held_.pop_front();
    return true;
  }
  if (!ended_ && ReadRecord(out)) {
    reported_bytes_ = lines_->bytes_read();
    return true;
  }
  ended_ = true;
  reported_bytes_ = lines_->bytes_read();
  NoticeTimesKeptOut();
  return false;
}

void JsonRecordReader::LookAhead() {
  looking_ahead_ = true;
  while (held_.size() < kLookAheadRecords && lines_->consumed() < kLookAheadBytes) {
    Held held;
    if (!ReadRecord(&held.record)) {
      ended_ = true;
      break;
    }
    held.bytes_read = lines_->bytes_read();
    held_.push_back(std::move(held));
  }
  looking_ahead_ = false;
  if (objects_ == 0) return;  // nothing to judge the field names by

  const FieldMap& f = options_.fields;
  const std::pair<const std::string*, std::string_view> named[] = {
      {&f.product, "product"}, {&f.id, "id"},     {&f.rating, "rating"},
      {&f.title, "title"},     {&f.time, "time"}, {&f.text, "text"}};
  for (size_t i = 0; i < std::size(named); ++i) {
    if (named[i].first->empty() || named_seen_[i]) continue;
    held_.clear();  // nothing is read after the error
    ended_ = true;
    std::string keys;
    for (const std::string& key : first_keys_) keys += (keys.empty() ? "" : ", ") + key;
    throw ReadError(Concat(
        {source_, ": no record has the ", named[i].second, " field \"",
         Utf8Prefix(*named[i].first, 100), "\" (looked at the first ", std::to_string(objects_),
         " records); the first record has the keys: ", keys.empty() ? "(none)" : keys}));
  }
  if (f.product.empty() && !product_seen_ && options_.on_notice) {
    options_.on_notice(source_ + ": no product field (looked for " + JoinNames(kProductFields) +
                       "); all reviews go under product ''; name one with --product-field");
  }
}

void JsonRecordReader::NoteKeys(const object& obj) {
  constexpr size_t kMaxKeys = 50;
  if (objects_++ == 0) {
    for (auto [key, value] : obj) {
      if (first_keys_.size() == kMaxKeys) {
        first_keys_.push_back("...");
        break;
      }
      first_keys_.push_back(Concat({"\"", Utf8Prefix(key, 60), "\""}));
    }
  }
  const FieldMap& f = options_.fields;
  const std::string* named[] = {&f.product, &f.id, &f.rating, &f.title, &f.time, &f.text};
  element value;
  for (size_t i = 0; i < std::size(named); ++i) {
    if (!named_seen_[i] && !named[i]->empty() &&
        obj.at_key(*named[i]).get(value) == simdjson::SUCCESS) {
      named_seen_[i] = true;
    }
  }
  if (!product_seen_ && f.product.empty()) {
    product_seen_ = Lookup(obj, "", kProductFields).has_value();
  }
}

bool JsonRecordReader::ParseRecord(std::string_view bytes, uint64_t line, Record* out) {
  out->review.reset();
  out->reject.reset();
  if (std::string problem = CheckText(bytes); !problem.empty()) {
    return MakeReject(out, line, std::move(problem), bytes);
  }
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse from a padded copy.
  const size_t n = bytes.size();
  if (padded_.size() < n + simdjson::SIMDJSON_PADDING) {
    padded_.resize(n + simdjson::SIMDJSON_PADDING);
  }
  std::copy(bytes.begin(), bytes.end(), padded_.begin());
  element doc;
  if (auto error = parser_.parse(padded_.data(), n, false).get(doc); error) {
    return MakeReject(out, line, std::string("malformed JSON: ") + simdjson::error_message(error),
                      bytes);
  }
  object obj;
  if (doc.get(obj) != simdjson::SUCCESS) {
    return MakeReject(
        out, line, "JSON value is not an object (it is " + std::string(TypeName(doc.type())) + ")",
        bytes);
  }
  if (looking_ahead_) NoteKeys(obj);
  return FromObject(obj, bytes, line, out);
}

bool JsonRecordReader::FromObject(const object& obj, std::string_view bytes, uint64_t line_number,
                                  Record* out) {
  const FieldMap& f = options_.fields;
  Review review = NewReview(line_number);

  auto text = Lookup(obj, f.text, kTextFields);
  if (!text) {
    std::string reason = f.text.empty()
                             ? "missing text field (none of " + JoinNames(kTextFields) + ")"
                             : "missing text field \"" + f.text + "\"";
    return MakeReject(out, line_number, std::move(reason), bytes);
  }
  std::string_view body;
  if (text->value.get(body) != simdjson::SUCCESS) {
    return MakeReject(out, line_number,
                      "text field \"" + std::string(text->key) + "\" is not a string (it is " +
                          std::string(TypeName(text->value.type())) + ")",
                      bytes);
  }
  if (IsBlank(body)) {
    return MakeReject(out, line_number, "empty text field \"" + std::string(text->key) + "\"",
                      bytes);
  }
  review.text = std::string(body);

  if (auto product = Lookup(obj, f.product, kProductFields)) {
    review.product = ScalarText(product->value).value_or("");
  }
  if (auto title = Lookup(obj, f.title, kTitleFields)) {
    review.title = ScalarText(title->value).value_or("");
  }

  std::string error;
  if (auto rating = Lookup(obj, f.rating, kRatingFields)) {
    review.rating = NumberField(*rating, &error);
    if (!error.empty()) {
      return MakeReject(out, line_number, "rating is not a number: " + error, bytes);
    }
    if (review.rating) {
      std::string range = RatingRangeProblem(*review.rating, rating->key);
      if (!range.empty()) return MakeReject(out, line_number, std::move(range), bytes);
    }
  }
  auto time = Lookup(obj, f.time, kTimeFields);
  if (time) {
    review.time = TimeField(*time, &error);
    if (!error.empty()) {
      if (!f.time.empty()) return MakeReject(out, line_number, Concat({kBadTime, error}), bytes);
      KeepWithoutTime(error, line_number);  // a usual name's unusual value: the review stays
      review.time.reset();
      error.clear();
    }
  }

  if (auto id = Lookup(obj, f.id, kIdFields)) {
    review.external_id = ScalarText(id->value).value_or("");
  } else if (f.id.empty()) {
    // No review id: the dump's author id identifies the review, with its raw time when there is
    // one (the same author may review a product twice).
    if (auto user = Lookup(obj, "", kUserFields)) {
      auto user_text = ScalarText(user->value);
      if (user_text && !user_text->empty()) {
        review.external_id = *user_text;
        if (auto time_text = time ? ScalarText(time->value) : std::nullopt;
            time_text && !time_text->empty()) {
          review.external_id += ":" + *time_text;
        }
      }
    }
  }
  // A \u0000 escape decodes to a NUL that CheckText cannot see in the raw bytes; such a record
  // is binary data like one with a raw NUL byte (SQLite's text functions stop at a NUL).
  for (auto [name, value] : {std::pair<std::string_view, const std::string*>{"text", &review.text},
                             {"title", &review.title},
                             {"product", &review.product},
                             {"id", &review.external_id}}) {
    if (value->find('\0') != std::string::npos) {
      return MakeReject(out, line_number,
                        Concat({"binary data: NUL byte (\\u0000) in the ", name, " field"}), bytes);
    }
  }
  out->review = std::move(review);
  return true;
}

std::unique_ptr<ReviewReader> NewJsonlReader(std::string source, std::unique_ptr<LineReader> lines,
                                             const ReadOptions& options) {
  return std::make_unique<JsonlReader>(std::move(source), std::move(lines), options);
}

}  // namespace revsum::read_internal
