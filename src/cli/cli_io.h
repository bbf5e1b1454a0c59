// What the codemode command reads and writes: whole files with a size cap, JSON from the command
// line or a file (bounded, as everywhere), usage errors (one JSON line on stderr) and results
// (one JSON line on stdout).
#ifndef CODEMODE_CLI_CLI_IO_H_
#define CODEMODE_CLI_CLI_IO_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::cli {

// Exit statuses of every subcommand.
inline constexpr int kExitSucceeded = 0;
inline constexpr int kExitFailed = 1;      // the command ran; the outcome is not a success
inline constexpr int kExitUsageError = 2;  // bad flags, unreadable files, invalid JSON or limits

// INVALID_CONFIG, rule "command_line": an error in how the command was invoked.
Error usage_error(std::string message);

// The contents of the file at `path`, at most `max_bytes`. The error names `what` (e.g.
// "--tools"), never the path.
Result<std::string> read_file(const std::string& path, std::size_t max_bytes,
                              std::string_view what);

// One bounded JSON document (at most `max_bytes`) read from `text`.
Result<Json> parse_json_argument(std::string_view text, std::size_t max_bytes,
                                 std::string_view what);

// Prints {"error":{"code","rule","message"}} as one line on stderr.
void print_usage_error(const Error& error);

// Prints `value` as one line of compact JSON on stdout.
void print_json_line(const Json& value);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_CLI_IO_H_
