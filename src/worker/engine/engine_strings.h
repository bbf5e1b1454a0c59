// Moving strings across the engine boundary: JS strings out as capped UTF-8, UTF-8 in as JS
// strings. Copies are bounded before they are made, so a huge guest string never becomes a huge
// host allocation by accident.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_STRINGS_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_STRINGS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <jsapi.h>

namespace codemode::worker {

// At most `max_units` UTF-16 code units of `str`, as UTF-8; a surrogate pair is never split and
// a lone surrogate becomes U+FFFD. nullopt (with an exception pending) when the engine failed.
std::optional<std::string> copy_capped_string(JSContext* cx, JS::HandleString str,
                                              std::size_t max_units);

// The whole of `value` if it is a string of at most `max_units` code units, else nullopt.
// Never runs program code (no conversion of non-strings).
std::optional<std::string> copy_string_argument(JSContext* cx, JS::HandleValue value,
                                                std::size_t max_units);

// A new JS string holding `utf8`; nullptr with an exception pending on failure.
JSString* new_string(JSContext* cx, std::string_view utf8);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_STRINGS_H_
