// Which way a program's result is not output (OutputFault, sandbox.h), from the Error the JSON
// boundary refused it with, under the limits program_json_limits gives (bytes, depth 32, 100,000
// values, plain values only). The worker and the executor both name a result's fault with it, so
// the two ends of the wire report a result the same way.
//
// Thread-safety: a pure function.
#ifndef CODEMODE_PROTOCOL_OUTPUT_FAULT_H_
#define CODEMODE_PROTOCOL_OUTPUT_FAULT_H_

#include "codemode/error.h"
#include "codemode/sandbox.h"

namespace codemode::internal {

OutputFault output_fault_of(const Error& json_error);

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_OUTPUT_FAULT_H_
