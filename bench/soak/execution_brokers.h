// ExecutionBrokers routes each tool call to the broker registered for its execution. A CodeMode
// has one broker for all its executions; the soak needs one per execution, because each gets a
// standard broker with a Budget of its own (the budget kind must exhaust its own budget, not one
// shared with whatever runs beside it) and the cancellation kinds wrap theirs.
//
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_BENCH_SOAK_EXECUTION_BROKERS_H_
#define CODEMODE_BENCH_SOAK_EXECUTION_BROKERS_H_

#include <mutex>
#include <string>
#include <unordered_map>

#include "codemode/code_mode.h"

namespace codemode::soak {

class ExecutionBrokers {
 public:
  // Keeps an execution's broker registered while it lives. Move-only.
  class Registration {
   public:
    Registration(ExecutionBrokers& owner, std::string execution_id)
        : owner_(&owner), execution_id_(std::move(execution_id)) {}
    Registration(Registration&& other) noexcept;
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    Registration& operator=(Registration&&) = delete;
    ~Registration();

   private:
    ExecutionBrokers* owner_;  // null once moved from; must outlive this registration
    std::string execution_id_;
  };

  // REQUIRES: `execution_id` is not registered. Register before execute, drop after it returns
  // (execute joins every tool call before returning, so no call arrives after).
  [[nodiscard]] Registration add(std::string execution_id, ToolBroker broker);

  // The one broker to give every CodeMode. REQUIRES: this outlives the CodeModes.
  ToolBroker router();

 private:
  ToolOutcome route(const Tool& tool, const Json& input, const BrokerContext& context);
  void remove(const std::string& execution_id);

  std::mutex mu_;
  std::unordered_map<std::string, ToolBroker> brokers_;
};

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_EXECUTION_BROKERS_H_
