// The event the code tool writes in the server's log (its JSON lines on stderr) for an invocation
// whose worker wrote to its stderr: how many bytes (counted up to 64 KiB) and whether it wrote
// more, so an operator sees that a worker printed diagnostics and can run the program again
// locally to read them. Never the bytes themselves, and never to the client: a worker is
// untrusted, and what it prints may hold what a program read.
//
//   {"event":"code_worker_diagnostics","execution":"mcp-code:7","sandbox":"codemode.isolated",
//    "status":"failed","rule":"worker_exited","diagnosticBytes":65536,"diagnosticsTruncated":true}
//
// Thread-safety: log_to_stderr writes each event with one call, so lines from concurrent
// invocations do not interleave.
#ifndef CODEMODE_MCP_CODE_TOOL_DIAGNOSTICS_LOG_H_
#define CODEMODE_MCP_CODE_TOOL_DIAGNOSTICS_LOG_H_

#include <functional>
#include <optional>
#include <string>

#include "codemode/code_mode.h"
#include "codemode/json.h"

namespace codemode::mcp {

// Where the server's events go, one JSON object each. Must be callable from any thread.
using EventLog = std::function<void(const Json& event)>;

// The server's own log: the event as one compact line on stderr, flushed.
void log_to_stderr(const Json& event);

// The event above for execution `execution_id` in the sandbox `sandbox` (the adapter's id);
// nullopt when its worker wrote nothing to stderr. `rule` is the outcome's own (codemode's words),
// present when it failed.
std::optional<Json> worker_diagnostics_event(const std::string& execution_id,
                                             const std::string& sandbox,
                                             const CodeExecutionOutcome& outcome);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_DIAGNOSTICS_LOG_H_
