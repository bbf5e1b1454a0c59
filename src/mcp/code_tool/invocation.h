// Invocation: what one call of the code tool owns in the host besides its worker: the budgets
// codemode's broker counts (invocation_budget.h) and the content blocks its tools answered
// (content_handles.h). It lives exactly as long as the call: its blocks go with it.
//
// InvocationRegistry maps an execution id to its invocation, so the broker (one for the server's
// life) finds the invocation a tool call belongs to.
//
// Thread-safety: every method may be called from any thread.
#ifndef CODEMODE_MCP_CODE_TOOL_INVOCATION_H_
#define CODEMODE_MCP_CODE_TOOL_INVOCATION_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "mcp/code_tool/content_handles.h"
#include "mcp/code_tool/invocation_budget.h"
#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

struct Invocation {
  // Borrows `policy`, which must outlive this. `tag` names its content handles (content_handles.h).
  Invocation(const McpPolicy& policy, std::string tag)
      : budget(policy), contents(policy.content_blocks, policy.content_bytes, std::move(tag)) {}

  InvocationBudget budget;
  ContentStore contents;
};

class InvocationRegistry {
 public:
  // Keeps one invocation registered for as long as it lives. Move-only.
  class Registration {
   public:
    Registration(InvocationRegistry& registry, std::string execution_id)
        : registry_(&registry), execution_id_(std::move(execution_id)) {}
    Registration(Registration&& other) noexcept
        : registry_(std::exchange(other.registry_, nullptr)),
          execution_id_(std::move(other.execution_id_)) {}
    Registration& operator=(Registration&&) = delete;
    ~Registration();

   private:
    InvocationRegistry* registry_;
    std::string execution_id_;
  };

  // REQUIRES: `execution_id` is not registered (the code tool's ids are never reused).
  [[nodiscard]] Registration add(std::string execution_id, std::shared_ptr<Invocation> invocation);
  // nullptr when no invocation of that id runs.
  std::shared_ptr<Invocation> find(std::string_view execution_id) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Invocation>, std::less<>> invocations_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_INVOCATION_H_
