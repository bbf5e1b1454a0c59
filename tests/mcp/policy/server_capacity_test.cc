// The server-wide budgets: invocations and workers fail fast, each counted on its own; host
// operations queue, and a queued wait ends when its stop token fires.
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
  ASSERT_NE(held, nullptr);
  std::stop_source stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.request_stop();
  });
  EXPECT_EQ(capacity->wait_for_host_operation(stop.get_token()), nullptr);
  stopper.join();
  std::thread releaser([&held] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    held.reset();
  });
  EXPECT_NE(capacity->wait_for_host_operation(std::stop_token()), nullptr);
  releaser.join();
}

}  // namespace
}  // namespace codemode::mcp
