// The error either end of the wire protocol reports for a message that breaks it
// (docs/protocol.md): rule worker_protocol_error. Its code is TOOL_FAILED, as for every error
// inside the worker (the execution ends as a sandbox error); frame_codec.h's frame_error reports a
// broken frame stream.
//
// Thread-safety: a pure function returning a value.
#ifndef CODEMODE_PROTOCOL_PROTOCOL_ERROR_H_
#define CODEMODE_PROTOCOL_PROTOCOL_ERROR_H_

#include <string>
#include <string_view>

#include "codemode/error.h"

namespace codemode::internal {

inline Error protocol_error(std::string_view message) {
  return Error::tool_failed("worker_protocol_error", std::string(message));
}

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_PROTOCOL_ERROR_H_
