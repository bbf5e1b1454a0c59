#include "tools/tool_responder.h"

#include <chrono>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

ToolResponder responder_for(const std::shared_ptr<ResponseSlot>& slot) {
  return ToolResponderAccess::for_slot(slot);
}

TEST(ToolResponderTest, FirstAnswerWinsAndLaterOnesAreIgnored) {
  auto slot = std::make_shared<ResponseSlot>();
  ToolResponder responder = responder_for(slot);
  responder.succeed(Json{{"value", 1}});
  responder.fail();
  responder.refuse();
  responder.succeed(Json{{"value", 2}});
  Answer answer = slot->wait();
  EXPECT_EQ(answer.kind, AnswerKind::kSucceeded);
  EXPECT_EQ(answer.output, (Json{{"value", 1}}));
}

TEST(ToolResponderTest, FailWithTextKeepsTheToolsWordsWithinTheirBound) {
  auto slot = std::make_shared<ResponseSlot>();
  responder_for(slot).fail("quota for project p1 is exhausted");
  Answer answer = slot->wait();
  EXPECT_EQ(answer.kind, AnswerKind::kFailed);
  EXPECT_EQ(answer.tool_message, "quota for project p1 is exhausted");

  // 1,023 ASCII bytes then a 3-byte character: cut before the character, never inside it.
  auto long_slot = std::make_shared<ResponseSlot>();
  responder_for(long_slot).fail(std::string(1023, 'a') + "\u20ac" + "tail");
  EXPECT_EQ(long_slot->wait().tool_message, std::string(1023, 'a'));
}

TEST(ToolResponderTest, FailAsKeepsAToolsOwnRuleButNeverOneOfCodemodes) {
  auto slot = std::make_shared<ResponseSlot>();
  responder_for(slot).fail_as("unknown_snapshot", "open it again");
  Answer answer = slot->wait();
  EXPECT_EQ(answer.kind, AnswerKind::kFailed);
  EXPECT_EQ(answer.tool_rule, "unknown_snapshot");
  EXPECT_EQ(answer.tool_message, "open it again");

  for (const char* taken :
       {"tool_failed", "tool_timeout", "host_calls_limit", "pages_limit", "max_tool_calls",
        "worker_exited", "input_schema", "cancelled", "Not_A_Rule", "", "has space"}) {
    SCOPED_TRACE(taken);
    EXPECT_FALSE(is_tool_failure_rule(taken));
    auto refused = std::make_shared<ResponseSlot>();
    responder_for(refused).fail_as(taken, "words");
    Answer plain = refused->wait();
    EXPECT_EQ(plain.kind, AnswerKind::kFailed);
    EXPECT_FALSE(plain.tool_rule.has_value());
    EXPECT_EQ(plain.tool_message, "words");
  }
}

TEST(ToolResponderTest, FailWithEmptyOrInvalidTextIsAPlainFailure) {
  for (std::string text : {std::string(), std::string("bad \xff byte"), std::string("\xc0\xaf")}) {
    auto slot = std::make_shared<ResponseSlot>();
    responder_for(slot).fail(text);
    Answer answer = slot->wait();
    EXPECT_EQ(answer.kind, AnswerKind::kFailed);
    EXPECT_FALSE(answer.tool_message.has_value());
  }
}

TEST(ToolResponderTest, CopiesAnswerTheSameCall) {
  auto slot = std::make_shared<ResponseSlot>();
  ToolResponder first = responder_for(slot);
  ToolResponder copy = first;
  copy.fail();
  first.succeed(Json(1));
  EXPECT_EQ(slot->wait().kind, AnswerKind::kFailed);
}

TEST(ToolResponderTest, DestroyingTheLastCopyUnansweredAbandonsTheCall) {
  auto slot = std::make_shared<ResponseSlot>();
  {
    ToolResponder first = responder_for(slot);
    { ToolResponder copy = first; }
    EXPECT_FALSE(slot->answered());  // one copy is still alive
  }
  EXPECT_TRUE(slot->answered());
  EXPECT_EQ(slot->wait().kind, AnswerKind::kAbandoned);
}

TEST(ToolResponderTest, DestroyingAnAnsweredResponderKeepsItsAnswer) {
  auto slot = std::make_shared<ResponseSlot>();
  { responder_for(slot).refuse(); }
  EXPECT_EQ(slot->wait().kind, AnswerKind::kRefused);
}

TEST(ToolResponderTest, AnAnswerFromAnotherThreadWakesTheWaiter) {
  auto slot = std::make_shared<ResponseSlot>();
  std::thread answering([responder = responder_for(slot)] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    responder.succeed(Json("late"));
  });
  Answer answer = slot->wait();
  answering.join();
  EXPECT_EQ(answer.kind, AnswerKind::kSucceeded);
  EXPECT_EQ(answer.output, Json("late"));
}

TEST(ToolResponderTest, TheBrokersOwnAnswerBlocksLaterToolAnswers) {
  auto slot = std::make_shared<ResponseSlot>();
  ToolResponder responder = responder_for(slot);
  EXPECT_TRUE(slot->answer(AnswerKind::kTimedOut));
  EXPECT_FALSE(slot->answer(AnswerKind::kCancelled));
  responder.succeed(Json(1));
  EXPECT_EQ(slot->wait().kind, AnswerKind::kTimedOut);
}

TEST(ToolResponderTest, AMovedFromResponderIgnoresAnswers) {
  auto slot = std::make_shared<ResponseSlot>();
  ToolResponder responder = responder_for(slot);
  ToolResponder moved = std::move(responder);
  // NOLINTBEGIN(bugprone-use-after-move): answering from a moved-from responder is the test.
  responder.succeed(Json(1));
  responder.fail();
  responder.refuse();
  // NOLINTEND(bugprone-use-after-move)
  EXPECT_FALSE(slot->answered());  // nothing answered, and nothing crashed
  moved.succeed(Json(2));
  EXPECT_EQ(slot->wait().output, Json(2));
}

}  // namespace
}  // namespace codemode::internal
