#include "tools/schema/schema_patterns.h"

#include <utility>
#include <variant>

#include <re2/re2.h>

#include "tools/schema/ecma_regex.h"
#include "tools/schema/schema_walk.h"

namespace codemode::internal {
namespace {

Error pattern_error(const std::string& where, std::string_view problem) {
  return Error::invalid_config("schema_pattern",
                               "The schema's pattern " + where + " " + std::string(problem) + ".");
}

std::string_view refusal_problem(EcmaRegexRefusal refusal) {
  switch (refusal) {
    case EcmaRegexRefusal::kBackreference:
      return "uses a backreference, which codemode's linear-time matcher (RE2) cannot evaluate";
    case EcmaRegexRefusal::kLookaround:
      return "uses a lookahead or lookbehind, which codemode's linear-time matcher (RE2) cannot "
             "evaluate";
    case EcmaRegexRefusal::kUnsupportedEscape:
      return "uses an escape that codemode does not translate to RE2 (see "
             "docs/json-and-schemas.md)";
    case EcmaRegexRefusal::kSyntax:
      return "is not a valid ECMA 262 regular expression";
  }
  return "cannot be compiled";
}

RE2::Options pattern_options() {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_log_errors(false);    // a refusal is reported as an Error, never on stderr
  options.set_never_capture(true);  // codemode only asks whether there is a match
  options.set_max_mem(kMaxPatternMemory);
  return options;
}

}  // namespace

SchemaPatterns::SchemaPatterns() = default;
SchemaPatterns::~SchemaPatterns() = default;
SchemaPatterns::SchemaPatterns(SchemaPatterns&&) noexcept = default;
SchemaPatterns& SchemaPatterns::operator=(SchemaPatterns&&) noexcept = default;

Result<SchemaPatterns> SchemaPatterns::compile(const Json& root) {
  SchemaPatterns patterns;
  Status status;
  for_each_reachable_subschema(root, [&](const SchemaAt& at) {
    status = patterns.add_keywords(*at.schema, at.pointer);
    return status.ok();
  });
  if (!status.ok()) return std::move(status).error();
  return patterns;
}

std::optional<bool> SchemaPatterns::search(std::string_view pattern, std::string_view text) const {
  const auto it = compiled_.find(pattern);
  if (it == compiled_.end()) return std::nullopt;
  return RE2::PartialMatch(text, *it->second);
}

Status SchemaPatterns::add_keywords(const Json& schema, const std::string& pointer) {
  if (!schema.is_object()) return {};
  if (const auto pattern = schema.find("pattern");
      pattern != schema.end() && pattern->is_string()) {
    if (Status s = add(pattern->get_ref<const std::string&>(), "at " + pointer + "/pattern");
        !s.ok()) {
      return s;
    }
  }
  const auto names = schema.find("patternProperties");
  if (names == schema.end() || !names->is_object()) return {};
  for (auto it = names->begin(); it != names->end(); ++it) {
    // The name is the pattern, so the message names only the keyword that holds it.
    if (Status s = add(it.key(), "named in " + pointer + "/patternProperties"); !s.ok()) return s;
  }
  return {};
}

Status SchemaPatterns::add(const std::string& pattern, const std::string& where) {
  if (compiled_.contains(pattern)) return {};
  if (compiled_.size() == kMaxPatternsPerSchema) {
    return pattern_error(where, "is one more than the " + std::to_string(kMaxPatternsPerSchema) +
                                    " distinct patterns a schema may hold");
  }
  std::variant<std::string, EcmaRegexRefusal> translated = ecma_regex_to_re2(pattern);
  if (const auto* refusal = std::get_if<EcmaRegexRefusal>(&translated)) {
    return pattern_error(where, refusal_problem(*refusal));
  }
  auto compiled = std::make_unique<const RE2>(std::get<std::string>(translated), pattern_options());
  if (!compiled->ok()) {
    return pattern_error(where, "is not a valid regular expression for RE2 (or needs more than " +
                                    std::to_string(kMaxPatternMemory >> 10) + " KiB to compile)");
  }
  compiled_.emplace(pattern, std::move(compiled));
  return {};
}

}  // namespace codemode::internal
