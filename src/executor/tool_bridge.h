// ExecutionBridge is the host side of tools.call for one execution. It admits or refuses each call
// (ExecutionLimits), dispatches admitted calls to the host's broker on the executor's CallPool,
// turns the broker's outcome into what the program may see (fixed messages only), and keeps the
// usage and evidence the executor reports. Once closed it refuses every call; the executor closes
// it when the adapter returns, then waits for every admitted call to settle.
//
// Thread-safety: call, close and the accessors are thread-safe. The destructor closes the bridge
// and waits for admitted calls.
#ifndef CODEMODE_EXECUTOR_TOOL_BRIDGE_H_
#define CODEMODE_EXECUTOR_TOOL_BRIDGE_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "codemode/code_mode.h"

#include "executor/call_pool.h"
#include "executor/execution_abort.h"
#include "executor/execution_limits.h"

namespace codemode::internal {

class ExecutionBridge final : public ToolBridge {
 public:
  // Borrows everything; all must outlive the bridge.
  // `run_non_blocking_inline`: whether call_inline_if_non_blocking may run a call on its caller's
  // thread (CodeModeOptions.run_non_blocking_tools_inline).
  ExecutionBridge(const CodeProgram& program, const ExecuteOptions& options,
                  const ToolBroker& broker, const ExecutionAbort& abort, CallPool& pool,
                  bool run_non_blocking_inline);
  ~ExecutionBridge() override;

  void call(std::string_view tool_id, Json input, Callback done) override;
  void call_inline_if_non_blocking(std::string_view tool_id, Json input, Callback done) override;

  // Refuses every later call with `code` (CONFLICT after a normal end, else the abort's code).
  void close(ErrorCode code);
  // Blocks until every admitted call has settled and its task has ended (answered, and nothing of
  // the bridge touched again).
  void wait_for_admitted_calls();

  CodeExecutionUsage usage() const;
  std::vector<ExecutionEvidence> evidence() const;

 private:
  // The broker's answer, reduced to what may cross into the sandbox and into the accounts.
  struct Settlement {
    CodeToolOutcome guest;
    std::optional<ExecutionReceipt> receipt;  // nullopt: no admissible receipt (unknown call)
  };

  // Admits and checks the call, then runs it on a pool thread or, when `inline_if_non_blocking`
  // and the tool is non_blocking, on this one.
  void dispatch(std::string_view tool_id, Json input, Callback done, bool inline_if_non_blocking);
  // Admits the call under the lock: its 1-based sequence number, or the refusal.
  Result<std::int64_t> admit(std::string_view tool_id);
  // Runs on a pool thread; never throws, always releases the slot and answers.
  void run_call(const Tool& tool, Json input, std::int64_t sequence, const Callback& done) noexcept;
  // An admitted call that could not be dispatched: it never reached the broker.
  void refuse_admitted(const Callback& done, const Error& refusal) noexcept;
  Settlement settle_with_broker(const Tool& tool, const Json& input, const std::string& call_id);
  Settlement admit_outcome(const Tool& tool, const Json& input, const ToolOutcome& outcome,
                           const std::string& call_id) const;
  void account(const Tool& tool, const Settlement& settlement);
  void account_unknown(const Tool& tool) noexcept;
  void release_slot();
  // The call's last touch of the bridge.
  void end_task();

  const CodeProgram& program_;
  const ExecuteOptions& options_;
  const ToolBroker& broker_;
  const ExecutionAbort& abort_;
  const ExecutionLimits limits_;
  CallPool& pool_;
  const bool run_non_blocking_inline_;

  mutable std::mutex mu_;
  std::condition_variable all_settled_;
  std::optional<ErrorCode> closed_with_;
  std::int64_t admitted_ = 0;
  std::int64_t in_flight_ = 0;  // calls holding a maxToolConcurrency slot
  std::int64_t tasks_ = 0;      // admitted calls whose task has not ended; at least in_flight_
  CodeExecutionUsage usage_;
  std::vector<ExecutionEvidence> evidence_;
};

}  // namespace codemode::internal

#endif  // CODEMODE_EXECUTOR_TOOL_BRIDGE_H_
