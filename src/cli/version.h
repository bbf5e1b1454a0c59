// `codemode --version`: the command's version and the worker it would run by default, named by
// the worker's own answer to `codemode-worker --version` (its version and GNU build id).
#ifndef CODEMODE_CLI_VERSION_H_
#define CODEMODE_CLI_VERSION_H_

#include <string>

namespace codemode::cli {

// Two lines, without a final newline:
//   codemode 0.1.0
//   codemode-worker 0.1.0 build-id 7590e5…  (/usr/libexec/codemode/0.1/codemode-worker)
// or, when the default worker is missing or does not answer within two seconds, a second line
// that says so (the command still works with --worker or a sandbox file).
std::string version_text();

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_VERSION_H_
