// `codemode mcp` as a bench subject: one real server process over stdio per configuration
// (mcp_stdio_client.h), started and initialized once, then timed per tools/call from request to
// response. In code mode it runs the mcp_code_call workload through the `code` tool, with the
// config's sandbox set to the spawn mode, isolation profile and engine of the codemode row it
// stands beside, so its ratio to that row's `trivial` is the server's own cost; in direct mode
// it runs mcp_direct_call, one in-process tool (no worker).
//
// The config file (in a temporary directory removed with the subject) serves the repository
// tools over one empty root, in both modes: the same seven tools a repository server has, so a
// code-mode call carries their method table and declarations as a real one does.
//
// Thread-safety: run may be called from several threads at once (two calls in flight on the one
// server: codemode mcp runs each tools/call on its own thread, up to serverInvocations).
#ifndef CODEMODE_BENCH_PERF_MCP_SUBJECT_H_
#define CODEMODE_BENCH_PERF_MCP_SUBJECT_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "codemode/json.h"

#include "perf/mcp_stdio_client.h"
#include "perf/subject.h"

namespace codemode::perf {

struct McpSubjectOptions {
  std::string cli_path;     // the built `codemode` binary
  std::string worker_path;  // passed as --worker (code mode)
  // "code" or "direct".
  std::string mode;
  // Code mode: the config's `sandbox` member ({"type": "process", "spawn", "isolation",
  // "engine"}); null for the server's default.
  Json sandbox;
};

class McpSubject final : public Subject {
 public:
  // Fails (rule "mcp_unavailable", so the configuration is reported as skipped) when the CLI is
  // not an executable file, or the server does not start and initialize (its stderr is kept in
  // the reason).
  static Result<std::unique_ptr<McpSubject>> create(const McpSubjectOptions& options);
  ~McpSubject() override;

  std::string name() const override { return "mcp_" + mode_; }
  bool supports(const Workload& workload) const override;
  ExecutionResult run(const Workload& workload, std::size_t sequence) override;

 private:
  McpSubject(std::string mode, std::string directory)
      : mode_(std::move(mode)), dir_(std::move(directory)) {}

  std::string mode_;
  std::string dir_;  // the config, the empty root, the server's stderr; removed by the destructor
  std::unique_ptr<McpStdioClient> client_;
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_MCP_SUBJECT_H_
