// The server-wide budgets: invocations and workers fail fast, each counted on its own; host
// operations queue, and a queued wait ends when its stop token fires or its bound runs out.
#include "mcp/policy/server_capacity.h"

#include <chrono>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

TEST(ServerCapacityTest, InvocationsAndWorkersAreCappedSeparatelyAndFreedBySlots) {
  const std::shared_ptr<ServerCapacity> capacity =
      ServerCapacity::create({.server_workers = 1, .server_invocations = 2});
  auto first = capacity->try_start_invocation();
  auto second = capacity->try_start_invocation();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(capacity->try_start_invocation(), nullptr);
  auto worker = capacity->try_start_worker();
  ASSERT_NE(worker, nullptr);
  EXPECT_EQ(capacity->try_start_worker(), nullptr);
  first.reset();
  EXPECT_NE(capacity->try_start_invocation(), nullptr);
  EXPECT_EQ(capacity->try_start_worker(), nullptr);
  worker.reset();
  EXPECT_NE(capacity->try_start_worker(), nullptr);
}

TEST(ServerCapacityTest, ASlotKeepsTheCapacityAlive) {
  std::shared_ptr<ServerCapacity::Slot> slot;
  {
    auto capacity = ServerCapacity::create({.server_workers = 1});
    slot = capacity->try_start_worker();
  }
  ASSERT_NE(slot, nullptr);
  slot.reset();  // gives its unit back to a capacity only the slot still held: no use after free
}

TEST(ServerCapacityTest, HostOperationsQueueUntilFreedOrStopped) {
  const std::shared_ptr<ServerCapacity> capacity =
      ServerCapacity::create({.server_host_operations = 1});
  auto held = capacity->wait_for_host_operation(std::stop_token());
  ASSERT_TRUE(held.ok());
  std::stop_source stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.request_stop();
  });
  const auto stopped = capacity->wait_for_host_operation(stop.get_token());
  stopper.join();
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().code, ErrorCode::kCancelled);
  std::thread releaser([&held] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    held->reset();
  });
  EXPECT_TRUE(capacity->wait_for_host_operation(std::stop_token()).ok());
  releaser.join();
}

// A wait is bounded: past serverHostOperationWaitMillis the call is refused with the boundary's
// code, and the slot it never got stays with its holder.
TEST(ServerCapacityTest, AHostOperationWaitPastItsBoundIsRefused) {
  const std::shared_ptr<ServerCapacity> capacity = ServerCapacity::create(
      {.server_host_operations = 1, .server_host_operation_wait_millis = 150});
  auto held = capacity->wait_for_host_operation(std::stop_token());
  ASSERT_TRUE(held.ok());
  const auto started = std::chrono::steady_clock::now();
  const auto refused = capacity->wait_for_host_operation(std::stop_token());
  const auto waited = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(refused.error().rule, "server_host_operations_limit");
  EXPECT_EQ(refused.error().message, "server host-operation capacity is exhausted");
  EXPECT_GE(waited, std::chrono::milliseconds(150));
  // A wait of 0 takes a free slot, and refuses at once when there is none.
  const std::shared_ptr<ServerCapacity> at_once =
      ServerCapacity::create({.server_host_operations = 1, .server_host_operation_wait_millis = 0});
  auto first = at_once->wait_for_host_operation(std::stop_token());
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(at_once->wait_for_host_operation(std::stop_token()).error().rule,
            "server_host_operations_limit");
  held->reset();
  EXPECT_TRUE(capacity->wait_for_host_operation(std::stop_token()).ok());
}

}  // namespace
}  // namespace codemode::mcp
