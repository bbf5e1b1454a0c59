// Fuzzes the schema layer (codemode/schema.h): Schema::compile on a document from a host or a tool
// definition, and Schema::validate on a value a program or tool produced.
//
// Input: the schema's JSON text, then an ASCII record separator (0x1E, as in RFC 7464; it can never
// occur in JSON text), then the instance's JSON text. Without a separator, or when the instance
// does not parse, a fixed list of instances and the schema document itself are validated.
// Invariants:
//   - compile and validate never throw; compile refuses with INVALID_CONFIG / schema (or
//     schema_pattern for a pattern RE2 cannot take), validate with
//     INVALID_INPUT / schema and "<pointer>: <reason>" (printable ASCII, at most 450 bytes) that
//     holds no string of the instance unless it is one of the instance's member names or is in
//     the schema or the reasons' own words, and both answer the same way every time; compile's
//     messages are a small fixed set;
//   - a compiled schema keeps its document; the empty schema accepts every value;
//   - for a schema without references or ids (whose meaning would shift when it is nested),
//     {"not": S} decides the opposite of S and {"allOf": [S]} the same, whenever they compile.
//
// Patterns ("pattern", "patternProperties" names) are translated from ECMA 262 to RE2
// (src/tools/schema/ecma_regex.h) and matched in linear time, so this target fuzzes that
// translation too. Before RE2, libstdc++'s std::regex matcher was used: this target found it
// spinning on nested quantifiers against a one-character string (docs/security.md, "Fuzzing").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/schema.h"

#include "fuzz_check.h"

namespace codemode::fuzz {
namespace {

constexpr char kRecordSeparator = '\x1E';
constexpr std::size_t kMaxFailureBytes = 450;
// Every fixed word a reason may hold (tools/schema/schema_failure.cc): an instance string found in
// them was not echoed.
constexpr std::string_view kReasonWords =
    "(root) must be string or null boolean object array number integer one of the allowed values "
    "equal the allowed value (const) a multiple of at least at most characters character long "
    "match the pattern have items item not contain duplicate items are equal item not allowed "
    "(additionalItems) contain at least one item of the required shape (contains) missing "
    "required property properties property name not allowed (propertyNames) property not allowed "
    "(additionalProperties) missing property , required when is present match one of the "
    "allowed shapes exactly not match the excluded shape (not) does not match the schema";
constexpr std::string_view kUncheckable = "The value could not be checked against the schema.";

std::vector<Json> fixed_instances() {
  return {nullptr,
          true,
          0,
          -1,
          1.5,
          "",
          "abc",
          "\u00e9",
          Json::array(),
          Json::array({1, "a", nullptr}),
          Json::object(),
          Json{{"a", 1}, {"b", Json::array()}}};
}

// A "schema_pattern" message names where the pattern sits ("at #/properties/a/pattern"): schema
// text, percent-encoded so it holds no space. Everything else in a compile message is fixed.
std::string without_pointer(const std::string& message) {
  const std::size_t start = message.find('#');
  if (start == std::string::npos) return message;
  const std::size_t end = message.find(' ', start);
  return message.substr(0, start) + "<pointer>" +
         (end == std::string::npos ? "" : message.substr(end));
}

void check_compile_error(const Error& error) {
  FUZZ_CHECK(error.code == ErrorCode::kInvalidConfig);
  FUZZ_CHECK(error.rule == "schema" || error.rule == "schema_pattern");
  check_closed_message("compile/" + error.rule, without_pointer(error.message), 32);
}

bool is_printable_ascii(std::string_view text) {
  for (char ch : text) {
    if (ch < 0x20 || ch > 0x7E) return false;
  }
  return true;
}

// Whether `text` may appear in a failure without having been echoed from the instance: a member
// name of the instance (names make the pointer), words of the schema or of the reasons, or text
// that could span a pointer's tokens, its end or an escape.
bool may_appear(const std::string& text, const Json& value, const std::string& schema_text) {
  if (text.size() < 6 || text.find_first_of("/:\\\"~") != std::string::npos ||
      schema_text.find(text) != std::string::npos ||
      kReasonWords.find(text) != std::string_view::npos ||
      text.find_first_not_of("0123456789.e+-") == std::string::npos) {
    return true;
  }
  bool named = false;
  walk(value, [&](const Json& node, int) {
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      named = named || it.key().find(text) != std::string::npos;
    }
  });
  return named;
}

void check_failure(const std::string& message, const Json& value, const Json& document) {
  FUZZ_CHECK(message.size() <= kMaxFailureBytes && is_printable_ascii(message));
  FUZZ_CHECK(message.starts_with("(root): ") || message.starts_with("/"));
  FUZZ_CHECK(message.find(": ") != std::string::npos);
  const std::string schema_text = document.dump();
  walk(value, [&](const Json& node, int) {
    if (!node.is_string()) return;
    const std::string& text = node.get_ref<const std::string&>();
    FUZZ_CHECK(message.find(text) == std::string::npos || may_appear(text, value, schema_text));
  });
}

// Validates and checks the answer's form; returns whether the value was accepted, or nullopt when
// valijson could not decide (a std::regex failure).
std::optional<bool> verdict(const Schema& schema, const Json& value) {
  Status status = schema.validate(value);
  Status again = schema.validate(value);
  FUZZ_CHECK(status.ok() == again.ok());
  if (status.ok()) return true;
  const Error& error = status.error();
  FUZZ_CHECK(error == again.error());
  FUZZ_CHECK(error.code == ErrorCode::kInvalidInput && error.rule == "schema");
  if (error.message == kUncheckable) return std::nullopt;
  check_failure(error.message, value, schema.document());
  return false;
}

// True when some object key anywhere in `document` is one whose meaning depends on where the
// schema sits in its document.
bool is_position_dependent(const Json& document) {
  bool found = false;
  walk(document, [&](const Json& value, int) {
    if (!value.is_object()) return;
    for (const char* key : {"$ref", "$id", "id", "$schema"}) found = found || value.contains(key);
  });
  return found;
}

void check_combinators(const Json& document, const Json& value, std::optional<bool> expected) {
  if (!expected || is_position_dependent(document)) return;
  if (Result<Schema> negated = Schema::compile(Json{{"not", document}}); negated.ok()) {
    const std::optional<bool> opposite = verdict(*negated, value);
    FUZZ_CHECK(!opposite || *opposite == !*expected);
  }
  if (Result<Schema> all = Schema::compile(Json{{"allOf", Json::array({document})}}); all.ok()) {
    const std::optional<bool> same = verdict(*all, value);
    FUZZ_CHECK(!same || *same == *expected);
  }
}

void check_value(const Schema& schema, const Json& value) {
  const std::optional<bool> accepted = verdict(schema, value);
  const Schema copy = schema;  // NOLINT: copies share the compiled form and must agree
  FUZZ_CHECK(verdict(copy, value) == accepted);
  FUZZ_CHECK(Schema::any().validate(value).ok());
  check_combinators(schema.document(), value, accepted);
}

void check_schema(const Json& document, std::string_view instance_text) {
  Result<Schema> schema = Schema::compile(document);
  Result<Schema> again = Schema::compile(document);
  FUZZ_CHECK(schema.ok() == again.ok());
  if (!schema.ok()) {
    check_compile_error(schema.error());
    FUZZ_CHECK(schema.error() == again.error());
    return;
  }
  FUZZ_CHECK(schema->document() == document);
  if (Result<Json> instance = parse_json(instance_text); instance.ok()) {
    check_value(*schema, *instance);
    return;
  }
  for (const Json& value : fixed_instances()) check_value(*schema, value);
  check_value(*schema, document);
}

}  // namespace
}  // namespace codemode::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codemode::fuzz;
  const std::string_view input = as_text(data, size);
  const std::size_t split = input.find(kRecordSeparator);
  const std::string_view schema_text = input.substr(0, split);
  const std::string_view instance_text =
      split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
  codemode::Result<codemode::Json> document = codemode::parse_json(schema_text);
  if (document.ok()) check_schema(*document, instance_text);
  return 0;
}
