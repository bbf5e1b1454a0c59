// Helpers for executor tests: build an executor around a C++ "program" and a broker.
// The caller owns each CodeMode made here; it is as thread-safe as any (code_mode.h).
#ifndef CODEMODE_TESTS_SUPPORT_EXECUTOR_FIXTURE_H_
#define CODEMODE_TESTS_SUPPORT_EXECUTOR_FIXTURE_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "codemode/broker.h"
#include "codemode/code_mode.h"

#include "support/program_fixture.h"

namespace codemode::testing {

inline ExecuteOptions execute_options(std::string execution_id = "execution-1") {
  return ExecuteOptions{.run_id = "run-1",
                        .execution_id = std::move(execution_id),
                        .scope = {.principal_id = "local", .project_id = "demo"}};
}

// A broker that answers every call from `answer`.
inline ToolBroker broker_from(
    std::function<ToolOutcome(const Tool&, const Json&, const BrokerContext&)> answer) {
  return answer;
}

// A receipt that names the call exactly.
inline ExecutionReceipt receipt_for(const BrokerContext& context, const Tool& tool,
                                    ExecutionState execution, Disclosure disclosure) {
  return ExecutionReceipt{context.call_id, tool.id(), execution, disclosure};
}

// A broker that succeeds with {value: 2 * input.value} and an exact receipt.
inline ToolBroker doubling_broker() {
  return [](const Tool& tool, const Json& input, const BrokerContext& context) {
    return ToolOutcome::succeeded(
        Json{{"value", input.at("value").get<double>() * 2}},
        receipt_for(context, tool, ExecutionState::kSucceeded, Disclosure::kReleased));
  };
}

// doubling_broker, counting its calls in `calls` and taking `delay` for each.
struct Counted {
  ToolBroker broker;
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
};
inline Counted counting_broker(std::chrono::milliseconds delay = std::chrono::milliseconds(0)) {
  Counted counted;
  counted.broker = [calls = counted.calls, delay](const Tool& tool, const Json& input,
                                                  const BrokerContext& context) {
    ++*calls;
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    return doubling_broker()(tool, input, context);
  };
  return counted;
}

inline std::unique_ptr<CodeMode> make_mode(TestProgramFn run, ToolBroker broker) {
  return CodeMode::create({.adapter = make_test_sandbox_adapter({.run = std::move(run)}),
                           .invoke_tool = std::move(broker),
                           .allow_test_adapter = true})
      .value();
}

// A program that calls number.double with its input and returns the output.
inline SandboxResult call_double(const SandboxRequest& request, ToolBridge& tools,
                                 std::stop_token) {
  CodeToolOutcome outcome = tools.call_and_wait("number.double", request.input);
  if (!outcome.ok()) {
    return SandboxResult::failure(SandboxFailureReason::kProgramError,
                                  ProgramError{"Error", outcome.message()});
  }
  return SandboxResult::success(*outcome.output());
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_EXECUTOR_FIXTURE_H_
