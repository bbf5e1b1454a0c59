// Resolving a command name once, when a config is loaded, to the absolute path of an executable
// file: command tools and downstream MCP servers name their programs the same three ways.
//
// Thread-safety: reads the process's PATH; safe as long as nobody calls setenv meanwhile.
#ifndef CODEMODE_CORE_PROCESS_COMMAND_PATH_H_
#define CODEMODE_CORE_PROCESS_COMMAND_PATH_H_

#include <filesystem>
#include <optional>
#include <string>

namespace codemode::internal {

// An absolute path is taken as is; a relative path with a "/" is resolved against
// `base_directory` (refused when that is empty); a bare name is looked up in the loading
// process's PATH (or /usr/local/bin:/usr/bin:/bin without one). nullopt unless the result is a
// regular, executable file.
std::optional<std::filesystem::path> resolve_command_path(const std::string& name,
                                                          const std::string& base_directory);

// Whether `path` is a regular file this process may execute.
bool is_executable_file(const std::filesystem::path& path);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_COMMAND_PATH_H_
