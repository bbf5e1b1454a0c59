// A model-profile program's console lines, kept within a byte cap: the lines' compact JSON array
// (what the result frame carries) stays within `max_bytes`; a line that does not fit is dropped
// and counted, and so is every later one, so the lines kept are a prefix of what was logged.
//
// Thread-safety: a plain value; the engine thread only.
#ifndef CODEMODE_WORKER_CONSOLE_BUFFER_H_
#define CODEMODE_WORKER_CONSOLE_BUFFER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "codemode/sandbox.h"

namespace codemode::worker {

class ConsoleBuffer {
 public:
  explicit ConsoleBuffer(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // `line` is valid UTF-8 (the engine replaces lone surrogates before).
  void add(std::string_view line);

  const ProgramLogs& logs() const { return logs_; }

 private:
  std::size_t max_bytes_;
  std::size_t used_ = 2;  // "[]"
  bool full_ = false;
  ProgramLogs logs_;
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_CONSOLE_BUFFER_H_
