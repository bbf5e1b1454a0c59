// codemode-bench's in-process tools, called through the standard broker: the catalog example's
// catalog.price and number.double. Both answer at once, so a call's time is codemode's own
// overhead.
#ifndef CODEMODE_BENCH_PERF_BENCH_TOOLS_H_
#define CODEMODE_BENCH_PERF_BENCH_TOOLS_H_

#include <vector>

#include "codemode/error.h"
#include "codemode/permissions.h"
#include "codemode/tool.h"

namespace codemode::perf {

struct BenchTools {
  Tool catalog_price;  // "catalog.price": {sku} -> {cents: 100 x sku's length}; effects read
  Tool double_value;   // "number.double": {value} -> {value: 2 x value}; effects none
};

// INVALID_CONFIG only if a definition is wrong, which is a bug in the bench.
Result<BenchTools> make_bench_tools();

std::vector<Tool> all_tools(const BenchTools& tools);

// The grants both tools need: their "tool:<id>" and "effect:read".
Permissions bench_permissions(const BenchTools& tools);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_BENCH_TOOLS_H_
