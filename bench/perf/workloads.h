// The named workloads of codemode-bench: each a real JavaScript program, its input, its limits, the
// output it must return, and how many tool calls it makes. The same source runs in codemode's
// worker and in the QuickJS baseline, so the two are compared on identical work.
// Two workloads are MCP requests instead (mcp_subject.h): one `tools/call` to a `codemode mcp`
// server, timed from request to response, in code mode (`return 6*7;` through the `code` tool)
// and in direct mode (one in-process tool, no worker).
#ifndef CODEMODE_BENCH_PERF_WORKLOADS_H_
#define CODEMODE_BENCH_PERF_WORKLOADS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "codemode/json.h"
#include "codemode/program.h"

namespace codemode::perf {

enum class WorkloadKind {
  kProgram,    // a program run by CodeMode::execute (and the baselines)
  kMcpCode,    // a tools/call of a `codemode mcp --mode code` server
  kMcpDirect,  // a tools/call of a `codemode mcp --mode direct` server
};

struct Workload {
  WorkloadKind kind = WorkloadKind::kProgram;
  std::string name;         // "trivial", "catalog", ...: the --workloads names
  std::string description;  // one line, for the report
  std::string source;       // `async (input, tools) => ...`
  Json input;
  // An execution that returns anything else counts as failed; for an MCP workload, the call
  // result's structuredContent.
  Json expected_output;
  CodeLimits limits;
  std::size_t tool_calls = 0;          // per execution; 0 for none
  std::size_t default_iterations = 0;  // per pass, unless --iterations says otherwise
  // MCP workloads: the tool tools/call names and its arguments.
  std::string mcp_tool;
  Json mcp_arguments;
};

// Every workload, in report order.
std::vector<Workload> standard_workloads();

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_WORKLOADS_H_
