#include "cli/cli_io.h"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace codemode::cli {
namespace {

std::string dump_line(const Json& value) {
  // Replace, never throw: every string codemode prints was checked, but a crash here would lose
  // the outcome.
  return value.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace

Error usage_error(std::string message) {
  return Error::invalid_config("command_line", std::move(message));
}

Result<std::string> read_file(const std::string& path, std::size_t max_bytes,
                              std::string_view what) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return usage_error(std::string(what) + ": the file cannot be read.");
  std::string contents;
  char buffer[64 * 1024];
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
    contents.append(buffer, static_cast<std::size_t>(file.gcount()));
    if (contents.size() > max_bytes) {
      return usage_error(std::string(what) + ": the file is larger than " +
                         std::to_string(max_bytes) + " bytes.");
    }
  }
  if (file.bad()) return usage_error(std::string(what) + ": the file cannot be read.");
  return contents;
}

Result<Json> parse_json_argument(std::string_view text, std::size_t max_bytes,
                                 std::string_view what) {
  Result<Json> parsed = parse_json(text, {.max_bytes = max_bytes});
  if (!parsed.ok()) {
    return usage_error(std::string(what) + ": not bounded, plain JSON (" + parsed.error().rule +
                       ").");
  }
  return parsed;
}

void print_usage_error(const Error& error) {
  const Json line{
      {"error",
       {{"code", to_string(error.code)}, {"rule", error.rule}, {"message", error.message}}}};
  std::fputs(dump_line(line).c_str(), stderr);
}

void print_json_line(const Json& value) {
  std::fputs(dump_line(value).c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace codemode::cli
