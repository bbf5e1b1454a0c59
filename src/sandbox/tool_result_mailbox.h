// ToolResultMailbox is where the ToolBridge's answers wait for the worker session's I/O loop. The
// bridge answers on its own threads, and may answer after the adapter returned (the executor waits
// for admitted calls only then), so the mailbox is shared: each callback holds it, and once the
// session closes it, later answers are dropped and nothing of the session is touched.
//
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_SANDBOX_TOOL_RESULT_MAILBOX_H_
#define CODEMODE_SANDBOX_TOOL_RESULT_MAILBOX_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "codemode/sandbox.h"
#include "core/pipe_io.h"

namespace codemode::internal {

class ToolResultMailbox {
 public:
  using Entry = std::pair<std::uint64_t, CodeToolOutcome>;  // call id, answer

  // nullptr when no eventfd could be made.
  static std::shared_ptr<ToolResultMailbox> create();

  // Readable when there is something to take, or after wake().
  int wake_fd() const { return wake_.fd(); }

  // Leaves the answer to call `call_id` and wakes the loop; dropped after close().
  void post(std::uint64_t call_id, CodeToolOutcome outcome);
  // Wakes the loop without an answer (the caller's stop fired).
  void wake();
  // Every answer left so far, in arrival order; resets wake_fd().
  std::vector<Entry> take();
  // Later posts and wakes do nothing.
  void close();

 private:
  explicit ToolResultMailbox(EventFd wake) : wake_(std::move(wake)) {}

  std::mutex mu_;
  const EventFd wake_;
  bool closed_ = false;
  std::vector<Entry> entries_;
};

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_TOOL_RESULT_MAILBOX_H_
