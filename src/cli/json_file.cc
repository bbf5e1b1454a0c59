#include "cli/json_file.h"

#include <filesystem>
#include <utility>

#include "codemode/process_adapter.h"
#include "codemode/sandbox_config.h"

#include "cli/cli_io.h"

namespace codemode::cli {

Result<JsonFile> read_json_file(const std::string& path, std::string_view what) {
  Result<std::string> text = read_file(path, kMaxJsonFileBytes, what);
  if (!text.ok()) return std::move(text).error();
  Result<Json> json = parse_json_argument(*text, kMaxJsonFileBytes, what);
  if (!json.ok()) return std::move(json).error();
  std::error_code error;
  const std::filesystem::path file = std::filesystem::absolute(path, error);
  return JsonFile{std::move(*json), file.parent_path().string()};
}

Result<std::shared_ptr<SandboxAdapter>> load_sandbox_file(const std::string& path,
                                                          const std::string& worker_path,
                                                          std::string_view flag) {
  Result<JsonFile> file = read_json_file(path, flag);
  if (!file.ok()) return std::move(file).error();
  Result<SandboxConfig> config = parse_sandbox_config(file->json, file->directory);
  if (!config.ok()) return usage_error(std::string(flag) + ": " + config.error().message);
  return make_sandbox_adapter(std::move(*config), worker_path, kMaxEngineStackBytes);
}

}  // namespace codemode::cli
