// ServerCapacity: the two server-wide budgets every session of one `codemode mcp` draws on, so that
// over HTTP many sessions together get no more than one stdio session would:
//   serverInvocations     tools/call requests in flight; past it a call fails fast
//                         (server_invocations_limit), it is never queued
//   serverHostOperations  direct-mode tool calls in flight; past it a call waits its turn
// (Code mode's tool calls queue on the code tool's own semaphore, which every session also shares;
// code_tool.h.)
//
// Ownership: slots are RAII; each holds the capacity alive, so a slot may outlive every session.
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_MCP_SERVER_CAPACITY_H_
#define CODEMODE_MCP_SERVER_CAPACITY_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <semaphore>
#include <stop_token>

#include "mcp/mcp_policy.h"

namespace codemode::mcp {

class ServerCapacity : public std::enable_shared_from_this<ServerCapacity> {
 public:
  static std::shared_ptr<ServerCapacity> create(const McpPolicy& policy);

  // An invocation slot: held while one tools/call runs, released when destroyed.
  class Invocation;
  // A host-operation slot: held while one tool call runs, released when destroyed.
  class HostOperation;

  // A slot, or nullptr when serverInvocations calls are already in flight.
  std::shared_ptr<Invocation> try_start_invocation();
  // Waits (queued) for a slot; nullptr when `stop` fired first.
  std::unique_ptr<HostOperation> wait_for_host_operation(const std::stop_token& stop);

  ServerCapacity(const ServerCapacity&) = delete;
  ServerCapacity& operator=(const ServerCapacity&) = delete;

 private:
  explicit ServerCapacity(const McpPolicy& policy);
  void end_invocation();

  const std::int64_t max_invocations_;
  std::mutex mu_;
  std::int64_t invocations_ = 0;  // guarded by mu_
  std::counting_semaphore<64> host_operations_;
};

class ServerCapacity::Invocation {
 public:
  explicit Invocation(std::shared_ptr<ServerCapacity> capacity) : capacity_(std::move(capacity)) {}
  ~Invocation() { capacity_->end_invocation(); }
  Invocation(const Invocation&) = delete;
  Invocation& operator=(const Invocation&) = delete;

 private:
  const std::shared_ptr<ServerCapacity> capacity_;
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

#endif  // CODEMODE_MCP_SERVER_CAPACITY_H_
