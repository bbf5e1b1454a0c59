// Errors inside the worker. They all end the execution as sandbox_error (which the executor reports
// as TOOL_FAILED, rule sandbox_error), so they share that code; the rule names the failing step.
//
// Thread-safety: pure functions returning values.
#ifndef CODEMODE_WORKER_WORKER_ERROR_H_
#define CODEMODE_WORKER_WORKER_ERROR_H_

#include <string>
#include <string_view>

#include "codemode/error.h"

#include "protocol/protocol_error.h"

namespace codemode::worker {

inline Error worker_error(std::string_view rule, std::string_view message) {
  return Error::tool_failed(std::string(rule), std::string(message));
}

// A message from the parent that breaks the protocol (protocol/protocol_error.h).
using internal::protocol_error;

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_WORKER_ERROR_H_
