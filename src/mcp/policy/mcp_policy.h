// McpPolicy: the budgets of `codemode mcp`, fixed for the server's life. Each field has a default
// and an absolute maximum (the table of docs/mcp.md, "`policy`: the budgets"); a config file may
// lower a budget, never raise it past its maximum: the server then refuses to start, naming the
// field. Quota classes are named per-invocation unit budgets: a cap, and the tools whose calls
// consume one unit each, reserved before dispatch and kept even when the call fails; a refusal's
// code is "<name>_limit", so a name whose code would be one of codemode's own (host_calls ->
// host_calls_limit) is refused. docs/mcp.md documents every field.
//
// Thread-safety: plain values.
#ifndef CODEMODE_MCP_POLICY_MCP_POLICY_H_
#define CODEMODE_MCP_POLICY_MCP_POLICY_H_

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/program.h"

namespace codemode::mcp {

struct QuotaClass {
  std::string name;                // ^[a-z][a-z0-9_]{0,63}$
  std::int64_t cap = 1;            // units per invocation, 1 .. kMaxQuotaCap
  std::vector<std::string> tools;  // MCP tool names ("<server>.<tool>" or a command tool id)
};

inline constexpr std::int64_t kMaxQuotaCap = 1024;
inline constexpr std::size_t kMaxQuotaClasses = 64;

struct McpPolicy {
  // ---- one invocation of the code tool ----
  std::int64_t source_bytes = 32 << 10;       // max 32 KiB; source_bytes_limit
  std::int64_t wall_time_millis = 10'000;     // max 10 s; deadline_exceeded
  std::int64_t heap_bytes = 16 << 20;         // 1 MiB .. 64 MiB; code_rejected
  std::int64_t stack_bytes = 256 << 10;       // 64 KiB .. 1 MiB: the engine's native stack quota;
                                              // deeper recursion is a catchable InternalError
  std::int64_t host_calls = 16;               // max 16; host_calls_limit
  std::int64_t host_concurrency = 4;          // max 4; host_concurrency_limit
  std::int64_t host_result_bytes = 64 << 10;  // max 64 KiB; host_result_bytes_limit
  std::int64_t cumulative_host_result_bytes = 256 << 10;  // host_result_bytes .. 256 KiB;
                                                          // cumulative_host_bytes_limit
  std::int64_t final_result_bytes = 48 << 10;             // max 48 KiB; final_result_bytes_limit
  // console.log/info/warn/error/debug lines returned as structuredContent.logs (off: the model
  // profile drops them; the standard profile has no `console`).
  bool console_logs = false;
  std::int64_t console_log_bytes = 8 << 10;  // 64 .. 8 KiB: the logs array as compact JSON;
                                             // past it, a truncation marker and nothing more
  // Image, audio and resource blocks kept in the host for one invocation, the program seeing
  // handles (code_tool/content_handles.h): how many, and their bytes as compact JSON.
  std::int64_t content_blocks = 16;      // 0 .. 16; content_blocks_limit
  std::int64_t content_bytes = 8 << 20;  // 0 .. 8 MiB; content_bytes_limit
  // The programs' world (codemode/program.h): model by default, so programs written the way
  // language models write them run (TypeScript, console, timers, fan-out that waits); standard
  // keeps the exact globals and the refusal past hostConcurrency.
  ProgramProfile program_profile = ProgramProfile::kModel;
  // A program's tool call whose outcome is unknown (a write that timed out may have acted): by
  // default the invocation ends outcome_unknown, naming the call, whatever the program returned,
  // so that no retry repeats the effect unknowingly; kLeaveToProgram lets the program's own answer
  // stand (it saw the call fail), which is weaker than the specification.
  UnknownOutcomes unknown_outcomes = UnknownOutcomes::kEndExecution;
  // ---- the whole server ----
  std::int64_t server_workers = 4;          // max 16; fail fast: server_workers_limit
  std::int64_t server_invocations = 4;      // max 16; fail fast: server_invocations_limit
  std::int64_t server_host_operations = 8;  // max 32; queued
  // How long a tool call waits for one of them: 0 .. 60 s; server_host_operations_limit.
  std::int64_t server_host_operation_wait_millis = 2'000;
  std::vector<QuotaClass> quota_classes;
};

struct PolicyField {
  std::string_view name;  // the config file's (camelCase) name
  std::int64_t McpPolicy::*member;
  std::int64_t minimum;
  std::int64_t maximum;
};

// Every numeric budget, in the order docs/mcp.md lists them.
extern const std::array<PolicyField, 16> kPolicyFields;

// What a program reads when a quota class has no unit left: "<name> budget exhausted", except for
// the repository tools' two, "page budget exhausted" and "snapshot budget exhausted".
std::string quota_exhausted_message(std::string_view class_name);

// The codes of codemode's own limits that end in "_limit": a quota class may not be named so that
// its "<name>_limit" is one of them.
extern const std::array<std::string_view, 17> kBuiltInLimitCodes;

// The defaults with the overrides of the config's "policy" object applied. INVALID_CONFIG, rule
// "mcp_config", naming the field ("policy.hostCalls exceeds its maximum of 16.") for an unknown
// field, a value that is not an integer or is out of range (consoleLogs: not a boolean), or a
// malformed quota class.
// `known_tool` says whether a quota class may name a tool (at config time: its server is
// declared, or it is a command tool).
Result<McpPolicy> parse_policy(const Json& policy,
                               const std::function<bool(std::string_view)>& known_tool);

// Once the downstream servers listed their tools: INVALID_CONFIG naming the field
// ("policy.quotaClasses.pages.tools[1] ...") when a quota class names a tool nobody serves (a typo,
// or a tool its server skipped), so a class never silently binds nothing.
Status check_quota_tools_listed(const McpPolicy& policy,
                                const std::function<bool(std::string_view)>& listed);

// The effective policy as JSON (camelCase names), for the startup log line.
Json describe_policy(const McpPolicy& policy);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_POLICY_MCP_POLICY_H_
