// Command tools: tools whose work is done by a program on the host, declared in a TOOLS.json
// file, so programs can be given tools without writing C++:
//
//   {"tools": [{"id": "catalog.price", "version": "1", "description": "Price of one product.",
//               "inputSchema": {...}, "outputSchema": {...}, "effects": "read",
//               "capabilities": [], "costMicros": 0, "timeoutMs": 5000,
//               "command": ["./price.sh", "--cents"]}]}
//
// Fields: id, version, description, effects ("none", "read", "write", "host") and command are
// required; inputSchema and outputSchema default to {} (any value), capabilities to [], costMicros
// to 0 and timeoutMs to 30000. Unknown fields are refused, so a typo never goes unnoticed.
//
// command[0] is resolved once, when the tools are loaded, to an absolute path of an executable
// file: an absolute path is taken as is; a relative path with a "/" ("./price.sh", "bin/price")
// is resolved against options.base_directory (the CLI passes the TOOLS.json file's directory);
// a bare name ("jq") is looked up in the loading process's PATH. The other entries are passed
// verbatim as arguments; nothing goes through a shell.
//
// Each call runs the command once: a new process with the environment PATH=/usr/local/bin:
// /usr/bin:/bin and nothing else (no variable of the host's is passed on), the host's working
// directory, the tool input as JSON (as JSON.stringify writes it) on stdin followed by end of
// file, and stderr discarded (never shown anywhere). Then:
//   exit status 0 and stdout one JSON value   succeed(that value); the broker checks it
//   any other exit, a signal, stdout that is  fail()
//   not bounded JSON or longer than 16 MiB
//   the process cannot be started             refuse() (nothing ran)
//   the call's timeout or cancellation        the process is killed (SIGKILL) and reaped; the
//                                             broker reports TIMEOUT / CANCELLED (or unknown)
// A call runs on the broker's thread and returns only once its process is reaped: no zombie and
// no fd outlives it.
//
// The command runs in a process group of its own, and the whole group is killed (SIGKILL) when
// the call ends, however it ends: timeout, cancellation, failure, and also when the command exits,
// with any status. So a background job (`sleep 300 &`) never outlives the call that started it; a
// command that must leave something running does not belong in a command tool. Once the command
// has exited, its output is what it and its group wrote to stdout until then: a background job
// holding stdout open does not keep the call waiting. The limit: a descendant that calls setsid()
// or setpgid() leaves the group and is not killed. The command is the host's configured program,
// not the model's, so that is the host's program escaping on purpose.
//
// Thread-safety: load_command_tools is thread-safe; the tools may be called concurrently.
#ifndef CODEMODE_COMMAND_TOOL_H_
#define CODEMODE_COMMAND_TOOL_H_

#include <cstddef>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/tool.h"

namespace codemode {

struct CommandToolOptions {
  // Directory against which relative command paths with a "/" are resolved. Empty: such paths
  // are refused.
  std::string base_directory;
};

// Most tools one TOOLS.json may declare (a program may list at most 128).
inline constexpr std::size_t kMaxCommandTools = 128;
// Most bytes a command may write to stdout; past it the call fails.
inline constexpr std::size_t kMaxCommandOutputBytes = (16u << 20) + (64u << 10);

// Parses a TOOLS.json document and returns its tools, in order. INVALID_CONFIG with rule
// "tools_file" and a message naming the field (e.g. "tools[0].command[0] does not name an
// executable file.") when anything is missing, malformed or unknown, or an id repeats.
CODEMODE_EXPORT Result<std::vector<Tool>> load_command_tools(
    const Json& tools_json, const CommandToolOptions& options = {});

}  // namespace codemode

#endif  // CODEMODE_COMMAND_TOOL_H_
