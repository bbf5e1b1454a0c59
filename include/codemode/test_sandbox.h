// A sandbox adapter for tests: its "programs" are C++ callables, run in-process. It is qualified
// kTest, so an executor refuses it unless created with allow_test_adapter. It isolates nothing and
// must never run untrusted code; it exists so the executor's every rule can be tested on its own.
//
// Thread-safety: execute may run on several threads at once; the callables must allow that.
#ifndef CODEMODE_TEST_SANDBOX_H_
#define CODEMODE_TEST_SANDBOX_H_

#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "codemode/export.h"
#include "codemode/sandbox.h"

namespace codemode {

using TestProgramFn = std::function<SandboxResult(const SandboxRequest& request, ToolBridge& tools,
                                                  std::stop_token stop)>;

struct TestSandboxOptions {
  std::string id = "codemode.test";
  std::string version = "1";
  std::function<bool()> is_available;  // optional; absent means available
  TestProgramFn run;                   // required: runs every program
};

CODEMODE_EXPORT std::shared_ptr<SandboxAdapter> make_test_sandbox_adapter(
    TestSandboxOptions options);

}  // namespace codemode

#endif  // CODEMODE_TEST_SANDBOX_H_
