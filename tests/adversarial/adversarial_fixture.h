// The executor every adversarial case runs in: the production process adapter with the real
// worker, the standard broker, and a small set of tools a hostile program can lean on. Some tools
// carry a secret token and a host path in their failures and in the process environment; no
// outcome may ever show either.
#ifndef CODEMODE_TESTS_ADVERSARIAL_ADVERSARIAL_FIXTURE_H_
#define CODEMODE_TESTS_ADVERSARIAL_ADVERSARIAL_FIXTURE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/program.h"
#include "codemode/tool.h"

namespace codemode::testing {

inline constexpr const char* kSecretToken = "cm-secret-7f3a9c2e51";
inline constexpr const char* kSecretPath = "/private/codemode-secret";

// test.echo      none   returns its input
// test.slow      none   {ms}: answers after ms milliseconds, or never once stopped
// test.bytes     none   {n}: returns {text: "x" * n}
// test.deep      none   {depth}: returns [[[...]]] nested depth levels
// test.leaky     read   throws an exception whose text holds the secret and the path
// test.leaky_cmd read   a command tool that prints the secret and path, then exits 3
// test.never     write  never answers; stops only when the call is stopped
std::vector<Tool> adversarial_tools();

// Defaults of every case: cpu 1 s, wall 5 s, 64 MiB, 64 KiB in/out, 16 KiB tool input,
// 16 calls, 4 at once. `overrides` maps camelCase limit names to values.
Result<CodeLimits> adversarial_limits(const std::map<std::string, std::int64_t>& overrides);

Result<CodeProgram> adversarial_program(const std::string& source, const CodeLimits& limits);

// One executor shared by every case of the binary, so each case also shows the executor survives
// the previous one. Every tool is granted.
CodeMode& adversarial_mode();

// An executor like adversarial_mode's, over another sandbox (the Docker suite's).
std::unique_ptr<CodeMode> adversarial_mode_with(std::shared_ptr<SandboxAdapter> adapter);

// A fresh execution id each call.
ExecuteOptions adversarial_execute_options();

// Processes whose parent is this process, zombies included, but the live fork servers of the
// adapters in use (process_support.h is_fork_server).
std::vector<int> child_processes();

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_ADVERSARIAL_ADVERSARIAL_FIXTURE_H_
