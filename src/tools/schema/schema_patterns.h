// The regular expressions of one schema ("pattern" values and "patternProperties" names),
// translated from ECMA 262 (tools/ecma_regex.h) and compiled with RE2 once, when the schema is
// compiled. RE2 matches in time linear in the text without recursion, so no value can make a
// pattern check crash or stall the host (std::regex recursed once per character).
//
// Thread-safety: immutable once compiled; RE2 objects may be searched from many threads at once.
// Internal to libcodemode.
#ifndef CODEMODE_TOOLS_SCHEMA_SCHEMA_PATTERNS_H_
#define CODEMODE_TOOLS_SCHEMA_SCHEMA_PATTERNS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"

namespace re2 {
class RE2;
}

namespace codemode::internal {

// RE2's memory budget for one pattern: its compiled program plus the automaton cache it fills while
// matching (RE2 falls back to a slower, still linear, matcher when the cache is full).
inline constexpr std::int64_t kMaxPatternMemory = 1 << 20;
// Distinct patterns one schema may hold; with kMaxPatternMemory this bounds a schema's matchers.
inline constexpr std::size_t kMaxPatternsPerSchema = 256;

class SchemaPatterns {
 public:
  SchemaPatterns();
  ~SchemaPatterns();
  SchemaPatterns(SchemaPatterns&&) noexcept;
  SchemaPatterns& operator=(SchemaPatterns&&) noexcept;

  // Compiles every pattern in every subschema of `root` that valijson will read (including local
  // $ref targets). REQUIRES: `root` passed check_schema_document. A pattern that has no RE2 form,
  // that RE2 refuses, or one pattern too many is INVALID_CONFIG with rule "schema_pattern" and a
  // message naming where in the schema it is, never the pattern itself.
  [[nodiscard]] static Result<SchemaPatterns> compile(const Json& root);

  // Whether `text` contains a match of `pattern` (an unanchored search, as JSON Schema asks).
  // nullopt when `pattern` is not one of the patterns compiled here.
  std::optional<bool> search(std::string_view pattern, std::string_view text) const;

 private:
  Status add_keywords(const Json& schema, const std::string& pointer);
  Status add(const std::string& pattern, const std::string& where);

  // Keyed by the pattern as written in the schema, which is what valijson hands over.
  std::map<std::string, std::unique_ptr<const re2::RE2>, std::less<>> compiled_;
};

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_SCHEMA_PATTERNS_H_
