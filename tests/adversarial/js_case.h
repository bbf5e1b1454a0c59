// One adversarial case: a JavaScript program file under tests/adversarial/cases/<group>/ whose
// leading comment block says what the execution must end as. For example:
//
//   // Function('return this')() reaches only the sandbox's own global.
//   // expect: succeeded
//   // output: "undefined"
//   (input, tools) => typeof Function('return this')().process
//
// Directives (each on its own `// name: value` line, before the first line that is not a comment):
//   expect:        succeeded | <status> <CODE> <rule>          required
//   output:        JSON the output must equal                  only with succeeded
//   program-error: text that "<name>: <message>" must contain  only with a program error
//   input:         the program's input as JSON                 default {}
//   limits:        camelCase=value pairs over the defaults     e.g. cpuMillis=50
//   tool-calls:    how many broker calls the usage must count
// Other comment lines are description. The program is the file from the first non-comment line.
#ifndef CODEMODE_TESTS_ADVERSARIAL_JS_CASE_H_
#define CODEMODE_TESTS_ADVERSARIAL_JS_CASE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "codemode/json.h"

namespace codemode::testing {

struct JsCase {
  std::string name;             // "<group>_<file stem>", a valid test name
  std::string path;             // relative to the cases directory, for failure messages
  std::string source;           // the program
  std::string expected_status;  // "succeeded", "failed", "blocked", "cancelled", "outcome_unknown"
  std::string expected_code;    // empty for succeeded
  std::string expected_rule;    // empty for succeeded
  std::optional<Json> expected_output;
  std::optional<std::string> expected_program_error;
  std::optional<std::int64_t> expected_tool_calls;
  Json input = Json::object();
  std::map<std::string, std::int64_t> limits;  // camelCase name -> value
  std::string parse_error;  // set when the file itself is malformed; the test then fails
};

// Tests print a case by its path.
inline void PrintTo(const JsCase& c, std::ostream* out) { *out << c.path; }

// Every *.js file under `directory`, recursively, sorted by path.
std::vector<JsCase> load_js_cases(const std::string& directory);

// Parses one case file's text. `group` and `stem` make its name.
JsCase parse_js_case(const std::string& group, const std::string& stem, const std::string& text);

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_ADVERSARIAL_JS_CASE_H_
