// The one error every confinement layer returns when it cannot take effect: UNSUPPORTED_PROFILE,
// with a rule naming the failed check ("no_new_privs", "seccomp_load", ...) and a fixed message
// naming the layer. Messages never carry errno text, paths or fd numbers, so they are safe to
// forward to the parent.
//
// Thread-safety: a pure function returning a value.
#ifndef CODEMODE_CONFINE_CONFINE_ERROR_H_
#define CODEMODE_CONFINE_CONFINE_ERROR_H_

#include <string>
#include <string_view>

#include "codemode/error.h"

namespace codemode::confine {

// `layer` is one of "namespaces", "fds", "rlimits", "capabilities", "process_attributes",
// "seccomp".
inline Error confinement_failed(std::string_view layer, std::string_view rule) {
  return Error::unsupported_profile(
      std::string(rule), "the " + std::string(layer) + " confinement layer could not be applied (" +
                             std::string(rule) + ")");
}

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_CONFINE_ERROR_H_
