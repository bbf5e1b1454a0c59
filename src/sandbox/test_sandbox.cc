// The test adapter: runs C++ callables as "programs", in-process, isolating nothing. Qualified
// kTest, so CodeMode refuses it unless allow_test_adapter is set.
#include "codemode/test_sandbox.h"

#include <utility>

namespace codemode {
namespace {

class TestSandboxAdapter final : public SandboxAdapter {
 public:
  explicit TestSandboxAdapter(TestSandboxOptions options) : options_(std::move(options)) {}

  std::string id() const override { return options_.id; }
  std::string version() const override { return options_.version; }
  AdapterQualification qualification() const override { return AdapterQualification::kTest; }

  bool is_available() override { return !options_.is_available || options_.is_available(); }

  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    if (!options_.run) return SandboxResult::failure(SandboxFailureReason::kSandboxError);
    return options_.run(request, tools, std::move(stop));
  }

 private:
  const TestSandboxOptions options_;
};

}  // namespace

std::shared_ptr<SandboxAdapter> make_test_sandbox_adapter(TestSandboxOptions options) {
  return std::make_shared<TestSandboxAdapter>(std::move(options));
}

}  // namespace codemode
