// CodeMode::create: qualification rules and option checks; adapter availability.
#include <gtest/gtest.h>

#include "support/executor_fixture.h"

namespace codemode {
namespace {

using testing::FakeAdapter;

TEST(CreateCodeMode, RefusesATestAdapterWithoutTheOptIn) {
  auto adapter = make_test_sandbox_adapter({.id = "sandbox.test", .run = testing::call_double});
  auto mode = CodeMode::create({.adapter = adapter, .invoke_tool = testing::doubling_broker()});
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(mode.error().rule, "test_adapter");
  EXPECT_EQ(mode.error().message,
            "Sandbox adapter \"sandbox.test\" is qualified for tests only. Use a production "
            "adapter, or pass allowTestAdapter: true to accept its isolation.");
  EXPECT_TRUE(CodeMode::create({.adapter = adapter,
                                .invoke_tool = testing::doubling_broker(),
                                .allow_test_adapter = true})
                  .ok());
}

TEST(CreateCodeMode, AcceptsAProductionAdapterEitherWay) {
  for (bool allow : {false, true}) {
    auto adapter = std::make_shared<FakeAdapter>(
        "sandbox.production", AdapterQualification::kProduction, testing::call_double);
    EXPECT_TRUE(CodeMode::create({.adapter = adapter,
                                  .invoke_tool = testing::doubling_broker(),
                                  .allow_test_adapter = allow})
                    .ok());
  }
}

TEST(CreateCodeMode, RequiresAnAdapterAndABroker) {
  auto no_adapter = CodeMode::create({.invoke_tool = testing::doubling_broker()});
  ASSERT_FALSE(no_adapter.ok());
  EXPECT_EQ(no_adapter.error().code, ErrorCode::kInvalidConfig);
  auto no_broker =
      CodeMode::create({.adapter = make_test_sandbox_adapter({.run = testing::call_double}),
                        .allow_test_adapter = true});
  ASSERT_FALSE(no_broker.ok());
  EXPECT_EQ(no_broker.error().message,
            "invokeTool must be a function that brokers each tool call.");
  auto bad_id = CodeMode::create(
      {.adapter = make_test_sandbox_adapter({.id = "1bad", .run = testing::call_double}),
       .invoke_tool = testing::doubling_broker(),
       .allow_test_adapter = true});
  ASSERT_FALSE(bad_id.ok());
  EXPECT_EQ(bad_id.error().code, ErrorCode::kInvalidConfig);
}

TEST(CodeModeAvailability, NeverRunsOnAnUnavailableAdapter) {
  for (bool throws : {false, true}) {
    auto adapter = std::make_shared<FakeAdapter>(
        "sandbox.unavailable", AdapterQualification::kProduction, testing::call_double);
    adapter->available_ = [throws]() -> bool {
      if (throws) throw std::runtime_error("SECRET path /etc/x");
      return false;
    };
    auto mode =
        CodeMode::create({.adapter = adapter, .invoke_tool = testing::doubling_broker()}).value();
    CodeExecutionOutcome outcome =
        mode->execute(testing::calculate_program(), {{"value", 1}}, testing::execute_options());
    EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
    ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
    EXPECT_EQ(outcome.error->code, ErrorCode::kUnsupportedProfile);
    EXPECT_NE(outcome.error->message.find("\"sandbox.unavailable\" is not available"),
              std::string::npos);
    EXPECT_EQ(outcome.error->message.find("SECRET"), std::string::npos);
    EXPECT_EQ(adapter->executions, 0);
    EXPECT_EQ(outcome.usage, (CodeExecutionUsage{.maximum_cost_micros = 4}));
  }
}

}  // namespace
}  // namespace codemode
