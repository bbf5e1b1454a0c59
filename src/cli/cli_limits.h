// The limits `codemode run` gives a program: documented defaults, overridable field by field by a
// LIMITS.json object whose names are the manifest's camelCase names. Ranges are checked by
// define_code_program (rule "limits"); the command reports that as a usage error.
#ifndef CODEMODE_CLI_CLI_LIMITS_H_
#define CODEMODE_CLI_CLI_LIMITS_H_

#include <string>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/program.h"

namespace codemode::cli {

// cpuMillis 1000, wallTimeMillis 10000, memoryBytes 64 MiB, scratchBytes 1,
// maxInputBytes / maxOutputBytes / maxToolInputBytes 1 MiB, maxToolCalls 100,
// maxToolConcurrency 8.
CodeLimits default_limits();

// The same list as text, for --help.
std::string describe_default_limits();

// `limits` with every field named in `overrides` replaced. A name that is not a limit, or a
// value that is not an integer, is a usage error naming the field. When `overrides` sets
// maxToolCalls and not maxToolConcurrency, the concurrency is at most the calls (a default the
// user never wrote never makes the limits invalid).
Result<CodeLimits> apply_limit_overrides(CodeLimits limits, const Json& overrides);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_CLI_LIMITS_H_
