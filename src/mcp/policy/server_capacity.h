// ServerCapacity: the server-wide budgets of one `codemode mcp`, which every session draws on, so
// that over HTTP many sessions together get no more than one stdio session would:
//   serverInvocations     tools/call requests in flight; past it a call fails fast
//                         (server_invocations_limit), it is never queued
//   serverWorkers         code mode's workers alive; past it a code call fails fast
//                         (server_workers_limit)
//   serverHostOperations  tool calls in flight (a direct-mode call, or one call of a code-mode
//                         program); past it a call waits its turn, for at most
//                         serverHostOperationWaitMillis (server_host_operations_limit)
// One is made per server and handed to the McpServer of every session and to the CodeTool.
//
// Ownership: slots are RAII; each holds the capacity alive, so a slot may outlive every session.
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_MCP_POLICY_SERVER_CAPACITY_H_
#define CODEMODE_MCP_POLICY_SERVER_CAPACITY_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <semaphore>
#include <stop_token>

#include "codemode/error.h"

#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

class ServerCapacity : public std::enable_shared_from_this<ServerCapacity> {
 public:
  static std::shared_ptr<ServerCapacity> create(const McpPolicy& policy);

  // One unit of a fail-fast budget (an invocation, a worker): released when destroyed.
  class Slot;
  // A host-operation slot: held while one tool call runs, released when destroyed.
  class HostOperation;

  // A slot, or nullptr when serverInvocations calls are already in flight.
  std::shared_ptr<Slot> try_start_invocation();
  // A slot, or nullptr when serverWorkers workers are already running.
  std::shared_ptr<Slot> try_start_worker();
  // Waits (queued) for a slot, at most serverHostOperationWaitMillis. CANCELLED "cancelled" when
  // `stop` fired first; LIMIT_EXCEEDED server_host_operations_limit when the wait ran out. The
  // call never started either way.
  Result<std::unique_ptr<HostOperation>> wait_for_host_operation(const std::stop_token& stop);

  ServerCapacity(const ServerCapacity&) = delete;
  ServerCapacity& operator=(const ServerCapacity&) = delete;

 private:
  struct Count {
    const std::int64_t max;
    std::int64_t in_use = 0;  // guarded by mu_
  };

  explicit ServerCapacity(const McpPolicy& policy);
  std::shared_ptr<Slot> try_take(Count& count);
  void give_back(Count& count);

  std::mutex mu_;
  Count invocations_;
  Count workers_;
  std::counting_semaphore<64> host_operations_;
  const std::chrono::milliseconds host_operation_wait_;
};

class ServerCapacity::Slot {
 public:
  Slot(std::shared_ptr<ServerCapacity> capacity, Count& count)
      : capacity_(std::move(capacity)), count_(count) {}
  ~Slot() { capacity_->give_back(count_); }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

 private:
  const std::shared_ptr<ServerCapacity> capacity_;
  Count& count_;
};

class ServerCapacity::HostOperation {
 public:
  explicit HostOperation(std::shared_ptr<ServerCapacity> capacity)
      : capacity_(std::move(capacity)) {}
  ~HostOperation() { capacity_->host_operations_.release(); }
  HostOperation(const HostOperation&) = delete;
  HostOperation& operator=(const HostOperation&) = delete;

 private:
  const std::shared_ptr<ServerCapacity> capacity_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_POLICY_SERVER_CAPACITY_H_
