// ExecutionBrokers sends each call to its own execution's broker, and to none once unregistered.
#include "soak/execution_brokers.h"

#include <gtest/gtest.h>

#include "soak/tools.h"

namespace codemode::soak {
namespace {

ToolBroker answering(int value) {
  return [value](const Tool&, const Json&, const BrokerContext&) {
    return ToolOutcome::succeeded(Json(value));
  };
}

ToolOutcome call_for(ToolBroker& router, const std::string& execution_id) {
  const Tool tool = make_soak_tools().value().double_value;
  return router(tool, Json::object(), BrokerContext{.execution_id = execution_id});
}

TEST(SoakExecutionBrokers, RoutesByExecutionId) {
  ExecutionBrokers brokers;
  ToolBroker router = brokers.router();
  const auto one = brokers.add("e-1", answering(1));
  const auto two = brokers.add("e-2", answering(2));
  EXPECT_EQ(call_for(router, "e-1").output, Json(1));
  EXPECT_EQ(call_for(router, "e-2").output, Json(2));
}

TEST(SoakExecutionBrokers, UnregisteredExecutionIsRefused) {
  ExecutionBrokers brokers;
  ToolBroker router = brokers.router();
  { const auto gone = brokers.add("e-1", answering(1)); }
  const ToolOutcome outcome = call_for(router, "e-1");
  EXPECT_FALSE(outcome.ok());
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->rule, "soak_unrouted");
}

}  // namespace
}  // namespace codemode::soak
