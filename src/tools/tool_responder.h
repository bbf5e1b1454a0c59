// The broker's side of a ToolResponder: one ResponseSlot per call that takes the first answer and
// ignores the rest. Answers come from the tool (succeed, fail, refuse), from the broker (execute
// threw), from the last responder copy being destroyed unanswered (abandoned), and from the call's
// deadline timer or the caller's stop_token (timed out, cancelled). Because those last two are
// answers too, an answer the tool gives after its timeout is late and ignored by construction.
//
// Ownership: the broker and every ToolResponder copy (through their shared State) share the slot;
// the State lives exactly as long as some copy does.
// Thread-safety: every method may be called from any thread.
#ifndef CODEMODE_TOOLS_TOOL_RESPONDER_H_
#define CODEMODE_TOOLS_TOOL_RESPONDER_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "codemode/json.h"
#include "codemode/tool.h"

namespace codemode::internal {

enum class AnswerKind : int {
  kSucceeded = 1,  // ToolResponder::succeed; output is set
  kFailed,         // ToolResponder::fail
  kRefused,        // ToolResponder::refuse
  kThrew,          // execute threw
  kAbandoned,      // every responder copy was destroyed without an answer
  kTimedOut,       // the tool's timeout passed first
  kCancelled,      // the caller's stop_token fired first
};

struct Answer {
  AnswerKind kind = AnswerKind::kAbandoned;
  std::optional<Json> output;               // set for kSucceeded only
  std::optional<std::string> tool_message;  // kFailed only, when the tool gave one
  std::optional<std::string> tool_rule;     // kFailed only, when the tool named its failure
};

class ResponseSlot {
 public:
  // Records the answer unless one was recorded already. Returns whether this one was taken.
  bool answer(AnswerKind kind, std::optional<Json> output = std::nullopt,
              std::optional<std::string> tool_message = std::nullopt,
              std::optional<std::string> tool_rule = std::nullopt);
  bool answered() const;
  // Blocks until there is an answer and hands it over. REQUIRES: called at most once.
  Answer wait();

 private:
  mutable std::mutex mu_;
  std::condition_variable answered_;
  std::optional<Answer> answer_;
};

}  // namespace codemode::internal

namespace codemode {

// Shared by every copy of one ToolResponder. Its destructor runs when the last copy goes, which is
// exactly when the call can no longer be answered: it then answers "abandoned" (ignored if the
// call was answered already). The broker holds the slot, never a State, so its own reference does
// not keep the call answerable.
struct ToolResponder::State {
  explicit State(std::shared_ptr<internal::ResponseSlot> response_slot)
      : slot(std::move(response_slot)) {}
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State();

  const std::shared_ptr<internal::ResponseSlot> slot;
};

namespace internal {

// How the broker (and the responder's own tests) make a ToolResponder: the constructor and its
// State are private to the public API.
struct ToolResponderAccess {
  static ToolResponder for_slot(std::shared_ptr<ResponseSlot> slot) {
    return ToolResponder(std::make_shared<ToolResponder::State>(std::move(slot)));
  }
};

}  // namespace internal
}  // namespace codemode

#endif  // CODEMODE_TOOLS_TOOL_RESPONDER_H_
