#include "mcp/code_tool/typescript_identifiers.h"

#include <algorithm>
#include <array>
#include <map>

namespace codemode::mcp {
namespace {

// ES2022 reserved words, strict mode's future reserved words, and the two names strict mode forbids
// as bindings. Sorted for binary search.
constexpr auto kReservedWords = std::to_array<std::string_view>({
    "arguments", "await",      "break",   "case",    "catch",      "class",     "const",
    "continue",  "debugger",   "default", "delete",  "do",         "else",      "enum",
    "eval",      "export",     "extends", "false",   "finally",    "for",       "function",
    "if",        "implements", "import",  "in",      "instanceof", "interface", "let",
    "new",       "null",       "package", "private", "protected",  "public",    "return",
    "static",    "super",      "switch",  "this",    "throw",      "true",      "try",
    "typeof",    "var",        "void",    "while",   "with",       "yield",
});

bool is_identifier_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$';
}

bool is_identifier_part(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9'); }

bool is_reserved(std::string_view name) {
  return std::binary_search(kReservedWords.begin(), kReservedWords.end(), name);
}

}  // namespace

bool is_plain_identifier(std::string_view name) {
  return !name.empty() && is_identifier_start(name.front()) &&
         std::all_of(name.begin(), name.end(), is_identifier_part) && !is_reserved(name);
}

std::string sanitize_identifier(std::string_view name) {
  std::string identifier;
  if (name.empty() || (name.front() >= '0' && name.front() <= '9')) identifier = "_";
  for (char c : name) identifier.push_back(is_identifier_part(c) ? c : '_');
  if (is_reserved(identifier)) identifier.push_back('_');
  return identifier;
}

Result<std::vector<std::string>> sanitize_identifiers(const std::vector<std::string>& names,
                                                      std::string_view what) {
  std::vector<std::string> identifiers;
  std::map<std::string, const std::string*> owner;  // identifier -> the raw name that made it
  for (const std::string& name : names) {
    std::string identifier = sanitize_identifier(name);
    const auto [at, inserted] = owner.emplace(identifier, &name);
    if (!inserted && *at->second != name) {
      return Error::invalid_config("identifier_collision",
                                   "The " + std::string(what) + " names \"" + *at->second +
                                       "\" and \"" + name + "\" both become the identifier " +
                                       identifier + ".");
    }
    identifiers.push_back(std::move(identifier));
  }
  return identifiers;
}

}  // namespace codemode::mcp
