// What the fuzz targets share. FUZZ_CHECK stops the process with a trap when an invariant breaks,
// so libFuzzer saves the input as a crash: a target that only "did not crash" would miss every
// wrong answer. The walks over Json are iterative, like the library's, so a deep value cannot turn
// a finding in the code under test into a stack overflow in the checker.
#ifndef CODEMODE_FUZZ_FUZZ_CHECK_H_
#define CODEMODE_FUZZ_FUZZ_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

#define FUZZ_CHECK(condition)                                                             \
  do {                                                                                    \
    if (!(condition)) ::codemode::fuzz::invariant_broken(#condition, __FILE__, __LINE__); \
  } while (0)

namespace codemode::fuzz {

[[noreturn]] inline void invariant_broken(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
  std::fflush(stderr);
  __builtin_trap();
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Calls visit(value, depth) for `root` and everything inside it, parents first; the root is depth
// 0. Object keys are not visited.
inline void walk(const Json& root, const std::function<void(const Json&, int)>& visit) {
  std::vector<std::pair<const Json*, int>> stack{{&root, 0}};
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    visit(*value, depth);
    if (value->is_structured()) {
      for (const Json& child : *value) stack.emplace_back(&child, depth + 1);
    }
  }
}

// Every refusal of the JSON boundary is INVALID_JSON with one of its seven rules and a message.
inline bool is_json_refusal(const Error& error) {
  static constexpr std::string_view kRules[] = {
      "json_syntax", "json_bytes_limit", "json_depth_limit", "json_values_limit",
      "json_number", "json_string",      "json_key"};
  if (error.code != ErrorCode::kInvalidJson || error.message.empty()) return false;
  for (std::string_view rule : kRules) {
    if (error.rule == rule) return true;
  }
  return false;
}

// Messages name a rule and never quote data, so each failure site writes one fixed text. A
// quoting message would show up as an ever-growing set of distinct messages for one `site` (a
// rule plus whatever else legitimately shapes the text, such as a limit). Checking for the input
// inside the message instead would not work: libFuzzer watches that search and learns to write
// the message's own words into the input.
inline void check_closed_message(const std::string& site, const std::string& message,
                                 std::size_t max_distinct = 2) {
  static std::map<std::string, std::set<std::string>> seen;
  std::set<std::string>& messages = seen[site];
  messages.insert(message);
  FUZZ_CHECK(messages.size() <= max_distinct);
}

}  // namespace codemode::fuzz

#endif  // CODEMODE_FUZZ_FUZZ_CHECK_H_
