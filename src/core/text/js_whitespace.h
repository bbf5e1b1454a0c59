// "Nonempty after trimming" for ids, versions and descriptions means what JavaScript's
// String.prototype.trim means: whitespace is the ECMAScript WhiteSpace and LineTerminator sets,
// not only ASCII spaces, so a value of no-break spaces is as blank to us as it is to trim().
//
// Thread-safety: pure functions.
#ifndef CODEMODE_CORE_TEXT_JS_WHITESPACE_H_
#define CODEMODE_CORE_TEXT_JS_WHITESPACE_H_

#include <string_view>

namespace codemode::internal {

// True when `utf8` is empty or holds only ECMAScript whitespace and line terminators.
bool is_js_blank(std::string_view utf8);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TEXT_JS_WHITESPACE_H_
