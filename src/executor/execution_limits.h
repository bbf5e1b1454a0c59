// ExecutionLimits: every limit the executor enforces for one execution, as named checkpoints.
// Reading this header answers "which limits exist, and where are they checked?". The sandbox
// enforces cpuMillis and memoryBytes itself (the worker's watchdog and RLIMIT_DATA); the executor
// enforces wallTimeMillis with its timer (TIMEOUT, rule wall_time_limit).
//
// Thread-safety: const methods only; safe from any thread.
#ifndef CODEMODE_EXECUTOR_EXECUTION_LIMITS_H_
#define CODEMODE_EXECUTOR_EXECUTION_LIMITS_H_

#include <cstdint>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/program.h"

namespace codemode::internal {

class ExecutionLimits {
 public:
  explicit ExecutionLimits(const CodeProgram& program) : program_(program) {}

  // Before the adapter starts: the input is plain JSON within maxInputBytes.
  // INVALID_INPUT, rule max_input_bytes.
  Status check_input(const Json& input) const;

  // Before a tool call is admitted, in this order:
  //   the tool is one the program listed          PERMISSION_DENIED, rule tool_not_listed
  //   fewer than maxToolCalls were admitted        LIMIT_EXCEEDED, rule max_tool_calls
  //   fewer than maxToolConcurrency are in flight  LIMIT_EXCEEDED, rule max_tool_concurrency
  // A refused call is not counted and not queued.
  Status admit_tool_call(std::string_view tool_id, std::int64_t admitted,
                         std::int64_t in_flight) const;

  // After admission, before the broker: the input is plain JSON within maxToolInputBytes.
  // INVALID_INPUT, rule max_tool_input_bytes. The call keeps its slot.
  Status check_tool_input(const Json& input) const;

  // On each tool output the program would see: plain JSON within maxOutputBytes. A refusal makes
  // the call unknown (its result cannot be shown, so the program cannot know what happened).
  // TOOL_FAILED, rule max_tool_output_bytes.
  Status check_tool_output(const Json& output) const;

  // On the program's result: plain JSON within maxOutputBytes.
  // INVALID_OUTPUT, the rule naming which way it is not (OutputFault: max_output_bytes for the
  // size, output_not_json, output_depth_limit, ...).
  Status check_result(const Json& result) const;

 private:
  const CodeProgram& program_;  // must outlive this object
};

}  // namespace codemode::internal

#endif  // CODEMODE_EXECUTOR_EXECUTION_LIMITS_H_
