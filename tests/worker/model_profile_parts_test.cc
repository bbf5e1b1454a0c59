// The worker's engine-agnostic parts of the model profile, in-process: the timer queue, the
// console's byte cap, error locations in a program's own text and the reference hints.
#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "worker/console_buffer.h"
#include "worker/program_location.h"
#include "worker/reference_hints.h"
#include "worker/timer_queue.h"

namespace codemode::worker {
namespace {

using namespace std::chrono_literals;

TEST(TimerQueueTest, TimersComeDueInDueOrderThenSchedulingOrder) {
  TimerQueue timers;
  const TimerQueue::Clock::time_point start{};
  EXPECT_TRUE(timers.schedule(1, 20ms, start));
  EXPECT_TRUE(timers.schedule(2, 5ms, start));
  EXPECT_TRUE(timers.schedule(3, 5ms, start));
  EXPECT_EQ(timers.next_due(), start + 5ms);
  EXPECT_EQ(timers.take_due(start + 4ms), std::nullopt);
  EXPECT_EQ(timers.take_due(start + 30ms), 2u);
  EXPECT_EQ(timers.take_due(start + 30ms), 3u);
  EXPECT_EQ(timers.take_due(start + 30ms), 1u);
  EXPECT_TRUE(timers.empty());
  EXPECT_EQ(timers.next_due(), std::nullopt);
}

TEST(TimerQueueTest, ACancelledOrRescheduledTimerFiresOnceOrNever) {
  TimerQueue timers;
  const TimerQueue::Clock::time_point start{};
  timers.schedule(1, 1ms, start);
  timers.schedule(2, 2ms, start);
  timers.cancel(1);
  timers.cancel(99);  // unknown: nothing happens
  timers.schedule(2, 10ms, start);
  EXPECT_EQ(timers.take_due(start + 5ms), std::nullopt);
  EXPECT_EQ(timers.take_due(start + 10ms), 2u);
  EXPECT_TRUE(timers.empty());
}

TEST(TimerQueueTest, AtMostMaxPendingTimers) {
  TimerQueue timers;
  const TimerQueue::Clock::time_point start{};
  for (std::uint64_t id = 1; id <= TimerQueue::kMaxPending; ++id) {
    ASSERT_TRUE(timers.schedule(id, 1ms, start));
  }
  EXPECT_FALSE(timers.schedule(TimerQueue::kMaxPending + 1, 1ms, start));
  EXPECT_TRUE(timers.schedule(1, 5ms, start));  // rescheduling a pending one is no new timer
}

TEST(ConsoleBufferTest, KeepsAPrefixOfLinesWithinTheCapAndCountsTheRest) {
  ConsoleBuffer console(20);  // ["abc","de\n"] is 15 bytes
  console.add("abc");
  console.add("de\n");
  console.add("fghij");  // would make it 23
  console.add("k");      // would fit, but the lines kept stay a prefix
  EXPECT_EQ(console.logs().lines, (std::vector<std::string>{"abc", "de\n"}));
  EXPECT_EQ(console.logs().dropped, 2u);
}

TEST(ConsoleBufferTest, AZeroCapDropsEverything) {
  ConsoleBuffer console(0);
  console.add("x");
  EXPECT_TRUE(console.logs().lines.empty());
  EXPECT_EQ(console.logs().dropped, 1u);
}

TEST(ProgramLocationTest, LocatesInTheTextWithTheWrappersShiftTakenOff) {
  const std::string text = "const a = 1;\r\n  return a +\u2028missing;\nend";
  const CompiledText compiled{
      .filename = "x", .text = text, .line_offset = 2, .first_line_columns = 13};
  const auto first = locate(compiled, 3, 20);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->line, 1);
  EXPECT_EQ(first->column, 7);
  EXPECT_EQ(first->source_line, "const a = 1;");
  const auto third = locate(compiled, 5, 1);
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(third->source_line, "missing;");         // U+2028 ends a line, as the engine counts
  EXPECT_EQ(locate(compiled, 2, 5), std::nullopt);   // in the wrapper, before the text
  EXPECT_EQ(locate(compiled, 3, 10), std::nullopt);  // in the wrapper, before the first column
  EXPECT_EQ(locate(compiled, 9, 1), std::nullopt);   // past the text's last line
}

TEST(ProgramLocationTest, ALongLineIsCappedWithoutSplittingACharacter) {
  const std::string text = std::string(199, 'a') + "\xF0\x9F\x98\x80" + "tail";
  const auto found = locate({.filename = "x", .text = text}, 1, 1);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->source_line, std::string(199, 'a'));  // the pair would make 201 units
}

TEST(ReferenceHintsTest, NamesFromOtherRuntimesGetOneSentence) {
  EXPECT_TRUE(with_reference_hint("fetch is not defined")
                  .starts_with("fetch is not defined. The sandbox has no network"));
  EXPECT_TRUE(with_reference_hint("require is not defined").find("no modules") !=
              std::string::npos);
  EXPECT_TRUE(with_reference_hint("Buffer is not defined").find("TextEncoder") !=
              std::string::npos);
  EXPECT_EQ(with_reference_hint("customer is not defined"), "customer is not defined");
  EXPECT_EQ(with_reference_hint("fetch"), "fetch");
  EXPECT_EQ(with_reference_hint(" is not defined"), " is not defined");
}

}  // namespace
}  // namespace codemode::worker
