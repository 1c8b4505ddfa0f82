// Readers and writer for the JSON Lines files of the eval stage: benchmark sets and system outputs.

#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "revsum/eval.h"
#include "revsum/json.h"
#include "revsum/models.h"

namespace revsum {
namespace {

std::string ReadFile(const std::string& path) {
  std::optional<std::string> bytes = ReadWholeFile(path);
  if (!bytes) throw EvalError(path + ": cannot open for reading");
  return std::move(*bytes);
}

// Where a line came from, for error messages.
struct LineRef {
  std::string_view origin;
  size_t line = 0;

  [[noreturn]] void Fail(const std::string& problem) const {
    throw EvalError(std::string(origin) + ":" + std::to_string(line) + ": " + problem);
  }
};

// Calls fn(line_text, ref) for every non-blank line of `jsonl`.
template <typename Fn>
void ForEachLine(std::string_view jsonl, std::string_view origin, Fn fn) {
  size_t number = 0, start = 0;
  while (start < jsonl.size()) {
    size_t end = jsonl.find('\n', start);
    if (end == std::string_view::npos) end = jsonl.size();
    std::string_view line = jsonl.substr(start, end - start);
    ++number;
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    fn(line, LineRef{origin, number});
  }
}

simdjson::dom::object ParseObject(simdjson::dom::parser& parser, std::string_view line,
                                  const LineRef& ref) {
  simdjson::dom::element doc;
  if (auto error = parser.parse(line.data(), line.size()).get(doc)) {
    ref.Fail(std::string("malformed JSON: ") + simdjson::error_message(error));
  }
  simdjson::dom::object object;
  if (doc.get_object().get(object)) ref.Fail("expected a JSON object");
  return object;
}

simdjson::dom::element Field(const simdjson::dom::object& object, const char* name,
                             const LineRef& ref) {
  simdjson::dom::element value;
  if (object[name].get(value)) ref.Fail(std::string("field \"") + name + "\" is missing");
  return value;
}

std::string StringField(const simdjson::dom::object& object, const char* name, const LineRef& ref) {
  std::string_view value;
  if (Field(object, name, ref).get_string().get(value)) {
    ref.Fail(std::string("field \"") + name + "\" must be a string");
  }
  return std::string(value);
}

simdjson::dom::array ArrayField(const simdjson::dom::object& object, const char* name,
                                const LineRef& ref) {
  simdjson::dom::array value;
  if (Field(object, name, ref).get_array().get(value)) {
    ref.Fail(std::string("field \"") + name + "\" must be an array");
  }
  return value;
}

BenchEntity ParseEntity(simdjson::dom::parser& parser, std::string_view line, const LineRef& ref) {
  const simdjson::dom::object object = ParseObject(parser, line, ref);
  BenchEntity entity;
  entity.id = StringField(object, "id", ref);
  if (entity.id.empty()) ref.Fail("field \"id\" is empty");
  entity.dataset = StringField(object, "dataset", ref);
  entity.split = StringField(object, "split", ref);

  uint64_t budget = 0;
  if (Field(object, "budget_words", ref).get_uint64().get(budget) || budget == 0) {
    ref.Fail("field \"budget_words\" must be a positive integer");
  }
  entity.budget_words = static_cast<size_t>(budget);

  size_t index = 0;
  for (simdjson::dom::element item : ArrayField(object, "reviews", ref)) {
    simdjson::dom::object review;
    std::string_view id, text;
    const std::string where = "reviews[" + std::to_string(index++) + "]";
    if (item.get_object().get(review)) ref.Fail(where + " must be an object");
    if (review["id"].get_string().get(id)) ref.Fail(where + ".id must be a string");
    if (review["text"].get_string().get(text)) ref.Fail(where + ".text must be a string");
    entity.reviews.push_back({std::string(id), std::string(text)});
  }
  if (entity.reviews.empty()) ref.Fail("field \"reviews\" is empty");

  index = 0;
  for (simdjson::dom::element item : ArrayField(object, "gold", ref)) {
    std::string_view gold;
    if (item.get_string().get(gold)) {
      ref.Fail("gold[" + std::to_string(index) + "] must be a string");
    }
    entity.gold.emplace_back(gold);
    ++index;
  }
  if (entity.gold.empty()) ref.Fail("field \"gold\" is empty");
  return entity;
}

}  // namespace

std::vector<BenchEntity> ParseBenchSet(std::string_view jsonl, std::string_view origin) {
  simdjson::dom::parser parser;
  std::vector<BenchEntity> entities;
  std::set<std::string> ids;
  ForEachLine(jsonl, origin, [&](std::string_view line, const LineRef& ref) {
    BenchEntity entity = ParseEntity(parser, line, ref);
    if (!ids.insert(entity.id).second) ref.Fail("entity id \"" + entity.id + "\" repeats");
    entities.push_back(std::move(entity));
  });
  return entities;
}

std::vector<BenchEntity> ReadBenchSet(const std::string& path) {
  return ParseBenchSet(ReadFile(path), path);
}

std::map<std::string, std::string> ParseSystemOutputs(std::string_view jsonl,
                                                      std::string_view origin) {
  simdjson::dom::parser parser;
  std::map<std::string, std::string> summaries;
  ForEachLine(jsonl, origin, [&](std::string_view line, const LineRef& ref) {
    const simdjson::dom::object object = ParseObject(parser, line, ref);
    std::string id = StringField(object, "id", ref);
    std::string summary = StringField(object, "summary", ref);
    if (!summaries.emplace(id, std::move(summary)).second) {
      ref.Fail("summary id \"" + id + "\" repeats");
    }
  });
  return summaries;
}

std::map<std::string, std::string> ReadSystemOutputs(const std::string& path) {
  return ParseSystemOutputs(ReadFile(path), path);
}

void WriteSystemOutputs(std::ostream& out, const std::map<std::string, std::string>& summaries) {
  std::string line;
  for (const auto& [id, summary] : summaries) {
    line = "{\"id\": ";
    AppendJsonString(line, id);
    line += ", \"summary\": ";
    AppendJsonString(line, summary);
    line += "}\n";
    out << line;
  }
}

void WriteSystemOutputs(const std::string& path,
                        const std::map<std::string, std::string>& summaries) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw EvalError(path + ": cannot open for writing");
  WriteSystemOutputs(out, summaries);
  out.flush();
  if (!out) throw EvalError(path + ": write error");
}

}  // namespace revsum
