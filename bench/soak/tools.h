// The soak's in-process tool set: small C++ tools that every soak program may call through the
// standard broker. Each one exists to drive one path of the bridge and the broker.
#ifndef CODEMODE_BENCH_SOAK_TOOLS_H_
#define CODEMODE_BENCH_SOAK_TOOLS_H_

#include <vector>

#include "codemode/error.h"
#include "codemode/permissions.h"
#include "codemode/tool.h"

namespace codemode::soak {

struct SoakTools {
  Tool double_value;  // "number.double": {value} -> {value: 2 * value}; cost 1 micro
  // "soak.sleep": {ms} -> {slept: ms} after ms milliseconds, or no answer at all once the call's
  // stop_token fires (a wall timeout or a cancellation), so the broker reports the stop.
  Tool sleep;
  Tool fail;  // "soak.fail": always answers fail(), so the program sees TOOL_FAILED
};

// INVALID_CONFIG only if a definition is wrong, which is a bug in the soak.
Result<SoakTools> make_soak_tools();

std::vector<Tool> all_tools(const SoakTools& tools);

// "tool:<id>" for every tool above; their effects are all "none", so no effect grant is needed.
Permissions soak_permissions(const SoakTools& tools);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_TOOLS_H_
