// The named workloads of codemode-bench: each a real JavaScript program, its input, its limits, the
// output it must return, and how many tool calls it makes. The same source runs in codemode's
// worker and in the QuickJS baseline, so the two are compared on identical work.
#ifndef CODEMODE_BENCH_PERF_WORKLOADS_H_
#define CODEMODE_BENCH_PERF_WORKLOADS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "codemode/json.h"
#include "codemode/program.h"

namespace codemode::perf {

struct Workload {
  std::string name;         // "trivial", "catalog", ...: the --workloads names
  std::string description;  // one line, for the report
  std::string source;       // `async (input, tools) => ...`
  Json input;
  Json expected_output;  // an execution that returns anything else counts as failed
  CodeLimits limits;
  std::size_t tool_calls = 0;          // per execution; 0 for none
  std::size_t default_iterations = 0;  // per pass, unless --iterations says otherwise
};

// Every workload, in report order.
std::vector<Workload> standard_workloads();

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_WORKLOADS_H_
