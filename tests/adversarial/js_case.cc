#include "js_case.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace codemode::testing {
namespace {

std::string trim(std::string text) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
  text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
  return text;
}

std::string test_name(const std::string& group, const std::string& stem) {
  std::string name = group + "_" + stem;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

void parse_expect(JsCase& c, const std::string& value) {
  std::istringstream words(value);
  words >> c.expected_status >> c.expected_code >> c.expected_rule;
  const bool succeeded = c.expected_status == "succeeded";
  if (succeeded != c.expected_code.empty() || succeeded != c.expected_rule.empty()) {
    c.parse_error = "expect: is `succeeded` or `<status> <CODE> <rule>`";
  }
}

void parse_limits(JsCase& c, const std::string& value) {
  std::istringstream pairs(value);
  for (std::string pair; pairs >> pair;) {
    const auto equals = pair.find('=');
    if (equals == std::string::npos) {
      c.parse_error = "limits: takes name=value pairs";
      return;
    }
    c.limits[pair.substr(0, equals)] = std::stoll(pair.substr(equals + 1));
  }
}

void apply_directive(JsCase& c, const std::string& name, const std::string& value) {
  if (name == "expect") return parse_expect(c, value);
  if (name == "limits") return parse_limits(c, value);
  if (name == "program-error") {
    c.expected_program_error = value;
  } else if (name == "tool-calls") {
    c.expected_tool_calls = std::stoll(value);
  } else if (name == "output" || name == "input") {
    Json parsed = Json::parse(value, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      c.parse_error = name + ": is not JSON";
    } else if (name == "output") {
      c.expected_output = std::move(parsed);
    } else {
      c.input = std::move(parsed);
    }
  }
}

// "// name: value" with a known name, or nullopt for a description line.
std::optional<std::pair<std::string, std::string>> directive_of(const std::string& comment) {
  static const char* const kNames[] = {"expect", "output", "program-error",
                                       "input",  "limits", "tool-calls"};
  for (const char* name : kNames) {
    const std::string prefix = std::string(name) + ":";
    if (comment.rfind(prefix, 0) == 0) return std::pair{name, trim(comment.substr(prefix.size()))};
  }
  return std::nullopt;
}

}  // namespace

JsCase parse_js_case(const std::string& group, const std::string& stem, const std::string& text) {
  JsCase c;
  c.name = test_name(group, stem);
  c.path = group + "/" + stem + ".js";
  std::istringstream lines(text);
  std::string line;
  std::streampos program_start = 0;
  while (std::getline(lines, line) && line.rfind("//", 0) == 0) {
    if (auto directive = directive_of(trim(line.substr(2)))) {
      apply_directive(c, directive->first, directive->second);
    }
    program_start = lines.tellg();
  }
  c.source = text.substr(static_cast<std::size_t>(program_start));
  if (c.expected_status.empty() && c.parse_error.empty()) c.parse_error = "no expect: line";
  return c;
}

std::vector<JsCase> load_js_cases(const std::string& directory) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file() && entry.path().extension() == ".js") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<JsCase> cases;
  for (const auto& file : files) {
    std::ifstream stream(file);
    const std::string text{std::istreambuf_iterator<char>(stream), {}};
    cases.push_back(
        parse_js_case(file.parent_path().filename().string(), file.stem().string(), text));
  }
  return cases;
}

}  // namespace codemode::testing
