// A JSON file named by a flag (--tools, --sandbox), and the directory it is in: relative commands
// in the file are relative to the file, wherever the command runs from.
#ifndef CODEMODE_CLI_JSON_FILE_H_
#define CODEMODE_CLI_JSON_FILE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/sandbox.h"

namespace codemode::cli {

// 16 MiB of JSON, with room for whitespace.
inline constexpr std::size_t kMaxJsonFileBytes = (16u << 20) + (64u << 10);

struct JsonFile {
  Json json;
  std::string directory;
};

// At most kMaxJsonFileBytes of one JSON document; errors name `what`, never the path.
Result<JsonFile> read_json_file(const std::string& path, std::string_view what);

// The sandbox a SANDBOX.json file describes (the "sandbox" object of `codemode mcp`'s config,
// docs/mcp.md), running `worker_path` (empty: the default worker). Usage errors name the flag.
Result<std::shared_ptr<SandboxAdapter>> load_sandbox_file(const std::string& path,
                                                          const std::string& worker_path,
                                                          std::string_view flag = "--sandbox");

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_JSON_FILE_H_
