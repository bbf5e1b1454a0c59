#include "perf/call_timeline.h"

#include <thread>

#include <gtest/gtest.h>

#include "perf/bench_tools.h"

namespace codemode::perf {
namespace {

ToolOutcome answer(const Tool&, const Json&, const BrokerContext&) { return {}; }

TEST(CallTimelineTest, SpanIsPerExecutionAndForgottenOnceTaken) {
  CallTimeline timeline;
  ToolBroker broker = timeline.wrap(answer);
  const Result<BenchTools> tools = make_bench_tools();
  ASSERT_TRUE(tools.ok());
  const Tool& tool = tools->double_value;
  BrokerContext a{.execution_id = "a"};
  BrokerContext b{.execution_id = "b"};
  broker(tool, Json{}, a);
  broker(tool, Json{}, b);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  broker(tool, Json{}, a);
  const std::optional<double> span = timeline.take_span_micros("a");
  ASSERT_TRUE(span);
  EXPECT_GE(*span, 2000);
  EXPECT_FALSE(timeline.take_span_micros("a"));  // forgotten
  EXPECT_FALSE(timeline.take_span_micros("b"));  // one call has no span
}

}  // namespace
}  // namespace codemode::perf
