// CodeProgram is a program captured, checked and content-addressed, without running it: its
// source (one JavaScript function expression `(input, tools) => output`, sync or async), its input
// and output schemas, the tools it may call, and its limits.
//
// Its manifest is
//   {format:1, id, version, intent, language, profile?, inputSchemaId, outputSchemaId,
//    approvedImports, tools:[Tool::manifest()...], limits:{cpuMillis, ...}, sourceBytes}
// where `profile` is present ("model") only for the model profile, so a standard program's digest
// is the one it always had.
// and its digest is the lowercase hex SHA-256 of canonical_json(manifest) + "\n" + source.
// Approvals and audit records refer to that exact digest: it changes with any manifest field and
// with any byte of the source.
//
// A CodeProgram can only be made by define_code_program, so a program handed to an executor was
// always checked. Ownership and thread-safety: an immutable, reference-counted handle.
#ifndef CODEMODE_PROGRAM_H_
#define CODEMODE_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/schema.h"
#include "codemode/tool.h"

namespace codemode {

// kTypeScript programs run with their type syntax erased, never compiled: every line and column of
// what runs is the one written (docs/programs.md, "TypeScript").
enum class ProgramLanguage : int { kJavaScript = 1, kTypeScript };
CODEMODE_EXPORT std::string_view to_string(ProgramLanguage language);  // "javascript", "typescript"

// What the program's world looks like (docs/programs.md, "Two profiles").
//   kStandard: ECMAScript's globals and `tools` only; a tool call past maxToolConcurrency is
//              refused (LIMIT_EXCEEDED, rule max_tool_concurrency).
//   kModel:    also what programs written by language models expect of a JavaScript runtime:
//              console, timers, TextEncoder/TextDecoder, atob/btoa, URL, structuredClone, crypto;
//              calls past maxToolConcurrency wait in the sandbox for a free slot.
// Both have the ECMAScript 2023-2025 library that the engine predates.
enum class ProgramProfile : int { kStandard = 1, kModel };
CODEMODE_EXPORT std::string_view to_string(ProgramProfile profile);  // "standard", "model"
CODEMODE_EXPORT std::optional<ProgramProfile> program_profile_from_string(std::string_view text);

// Every limit is required (0 is refused) and has a maximum. Messages and the manifest name them in
// camelCase: limits.cpuMillis, limits.wallTimeMillis, ...
struct CodeLimits {
  // ---- how long ----
  // Interpreter time only; waiting for tools does not count. Max 3,600,000. Then LIMIT_EXCEEDED
  // (rule cpu_limit).
  std::int64_t cpu_millis = 0;
  // Everything, tool calls included, measured by the host. Max 3,600,000. Then TIMEOUT
  // (rule wall_time_limit).
  std::int64_t wall_time_millis = 0;
  // ---- how much ----
  // The program's heap; the interpreter adds a fixed base (docs/limits.md). Max 2 GiB. Then
  // LIMIT_EXCEEDED (rule memory_limit).
  std::int64_t memory_bytes = 0;
  // Scratch file space for sandboxes that have a file system. Max 2 GiB.
  std::int64_t scratch_bytes = 0;
  // Program input and result as compact JSON; max_output_bytes also bounds every tool output the
  // program sees. Max 16 MiB each.
  std::int64_t max_input_bytes = 0;
  std::int64_t max_output_bytes = 0;
  // Each tool call's input as compact JSON. Max 16 MiB.
  std::int64_t max_tool_input_bytes = 0;
  // ---- what the program may do ----
  // Admitted tool calls per execution. Max 10,000. Then LIMIT_EXCEEDED (rule max_tool_calls).
  std::int64_t max_tool_calls = 0;
  // Tool calls in flight at once; at most max_tool_calls. Max 128. Past it, the standard profile
  // refuses the call (LIMIT_EXCEEDED, rule max_tool_concurrency); the model profile queues it in
  // the sandbox until a call in flight ends.
  std::int64_t max_tool_concurrency = 0;

  friend bool operator==(const CodeLimits&, const CodeLimits&) = default;
};

// The maxima above, as one table (docs/limits.md prints the same).
struct CodeLimitMaxima {
  static constexpr std::int64_t kCpuMillis = 3'600'000;
  static constexpr std::int64_t kWallTimeMillis = 3'600'000;
  static constexpr std::int64_t kMemoryBytes = 2'147'483'648;
  static constexpr std::int64_t kScratchBytes = 2'147'483'648;
  static constexpr std::int64_t kMaxInputBytes = 16'777'216;
  static constexpr std::int64_t kMaxOutputBytes = 16'777'216;
  static constexpr std::int64_t kMaxToolInputBytes = 16'777'216;
  static constexpr std::int64_t kMaxToolCalls = 10'000;
  static constexpr std::int64_t kMaxToolConcurrency = 128;
};

// Largest program source, in UTF-8 bytes.
inline constexpr std::size_t kMaxSourceBytes = 1u << 20;
// Most tools one program may list.
inline constexpr std::size_t kMaxProgramTools = 128;

struct CodeProgramOptions {
  std::string id;       // ^[A-Za-z][A-Za-z0-9._/-]{0,127}$
  std::string version;  // nonempty after trimming, at most 128 characters
  std::string intent;   // what the program is for, shown to approvers; at most 4,096 characters
  ProgramLanguage language = ProgramLanguage::kJavaScript;
  ProgramProfile profile = ProgramProfile::kStandard;
  std::string source;  // nonempty; at most 1 MiB of UTF-8
  Schema input;
  Schema output;
  std::string input_schema_id;   // stable name of `input`, at most 256 characters
  std::string output_schema_id;  // stable name of `output`, at most 256 characters
  std::vector<Tool> tools;       // the only tools the program may call; at most 128, unique ids
  // Module specifiers for sandboxes that support imports; at most 64, unique, each 1..256
  // characters with no ':' or '\' and no leading '/'. The built-in sandboxes support none.
  std::vector<std::string> approved_imports;
  CodeLimits limits;
};

class CODEMODE_EXPORT CodeProgram {
 public:
  const Json& manifest() const;
  const std::string& digest() const;  // 64 lowercase hex characters
  const std::string& source() const;
  const Schema& input_schema() const;
  const Schema& output_schema() const;
  const std::vector<Tool>& tools() const;
  const CodeLimits& limits() const;
  ProgramLanguage language() const;
  ProgramProfile profile() const;
  // The listed tool with this id, or nullptr.
  const Tool* find_tool(std::string_view id) const;
  // max(tool cost) x max_tool_calls: the most one execution can cost.
  std::int64_t maximum_cost_micros() const;

 private:
  friend CODEMODE_EXPORT Result<CodeProgram> define_code_program(CodeProgramOptions options);
  struct Definition;
  explicit CodeProgram(std::shared_ptr<const Definition> definition);
  std::shared_ptr<const Definition> definition_;
};

// Checks `options` in this order, the first failure being the error (ids, texts, language, source,
// limits, tools, cost overflow, imports), and returns the program. Errors name the field:
//   INVALID_CONFIG  rule "program_definition" (or "limits" for a limit), e.g.
//                   "limits.wallTimeMillis exceeds the supported maximum of 3600000."
//   LIMIT_EXCEEDED  rule "source_bytes_limit" ("Program source is larger than 1 MiB.") or
//                   "cost_overflow" (max tool cost x maxToolCalls is beyond 2^53-1)
//   CONFLICT        rule "duplicate_tool" / "duplicate_import"
CODEMODE_EXPORT Result<CodeProgram> define_code_program(CodeProgramOptions options);

// Whether `text` looks like a program digest: ^[a-f0-9]{64}$.
CODEMODE_EXPORT bool is_code_program_digest(std::string_view text);

}  // namespace codemode

#endif  // CODEMODE_PROGRAM_H_
