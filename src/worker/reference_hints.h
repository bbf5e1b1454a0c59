// One sentence for a ReferenceError whose name a program expects from another JavaScript runtime
// (fetch, require, process, Buffer, window, ...), saying what a codemode program uses instead.
// The names stay undefined: no stub is defined, the message only says more (model profile).
//
// Thread-safety: pure functions.
#ifndef CODEMODE_WORKER_REFERENCE_HINTS_H_
#define CODEMODE_WORKER_REFERENCE_HINTS_H_

#include <string>
#include <string_view>

namespace codemode::worker {

// `message` with the hint appended when it is the engine's "<name> is not defined" for a name
// with a hint; `message` unchanged otherwise.
std::string with_reference_hint(std::string_view message);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_REFERENCE_HINTS_H_
