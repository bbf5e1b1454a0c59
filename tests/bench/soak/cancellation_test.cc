// DelayedStop lands its stop only after arm() and its delay, and never without arm().
#include "soak/cancellation.h"

#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

#include "support/timing.h"

namespace codemode::soak {
namespace {

using namespace std::chrono_literals;

// Waits for the stop itself (woken by it, not polling), at most `limit`.
bool stops_within(const std::stop_source& source, std::chrono::milliseconds limit) {
  std::mutex mutex;
  std::condition_variable_any woken;
  std::unique_lock lock(mutex);
  woken.wait_for(lock, source.get_token(), limit, [] { return false; });
  return source.stop_requested();
}

TEST(SoakDelayedStop, StopsAfterArmAndDelay) {
  std::stop_source source;
  DelayedStop stop(source, 20ms);
  const auto armed_at = std::chrono::steady_clock::now();
  stop.arm();
  EXPECT_TRUE(stops_within(source, testing::slack(5s)));
  EXPECT_GE(std::chrono::steady_clock::now() - armed_at, 20ms);
}

TEST(SoakDelayedStop, NeverStopsWithoutArm) {
  std::stop_source source;
  { DelayedStop stop(source, 1ms); }
  EXPECT_FALSE(source.stop_requested());
}

TEST(SoakDelayedStop, DestroyedBeforeTheDelayStopsNothing) {
  std::stop_source source;
  {
    DelayedStop stop(source, 10s);
    stop.arm();
  }
  EXPECT_FALSE(source.stop_requested());
}

TEST(SoakCancellingBroker, DuringToolCallArmsBeforeTheCall) {
  std::stop_source source;
  DelayedStop stop(source, 0ms);
  bool stopped_in_call = false;
  ToolBroker inner = [&](const Tool&, const Json&, const BrokerContext&) {
    stopped_in_call = stops_within(source, testing::slack(5s));
    return ToolOutcome::succeeded(Json::object());
  };
  ToolBroker broker = cancelling_broker(Cancellation::kDuringToolCall, inner, stop);
  const Tool tool = make_soak_tools().value().double_value;
  (void)broker(tool, Json::object(), BrokerContext{});
  EXPECT_TRUE(stopped_in_call);
}

TEST(SoakCancellingBroker, AfterToolCallArmsOnlyOnceTheCallReturned) {
  std::stop_source source;
  DelayedStop stop(source, 0ms);
  bool stopped_in_call = true;
  ToolBroker inner = [&](const Tool&, const Json&, const BrokerContext&) {
    stopped_in_call = stops_within(source, 50ms);
    return ToolOutcome::succeeded(Json::object());
  };
  ToolBroker broker = cancelling_broker(Cancellation::kAfterToolCall, inner, stop);
  const Tool tool = make_soak_tools().value().double_value;
  (void)broker(tool, Json::object(), BrokerContext{});
  EXPECT_FALSE(stopped_in_call);
  EXPECT_TRUE(stops_within(source, testing::slack(5s)));
}

}  // namespace
}  // namespace codemode::soak
