// The parts of a Tool that only the broker may reach: its execute function and its guards. The
// public Tool exposes neither, so holding a Tool never lets anyone call it past the broker.
#ifndef CODEMODE_TOOLS_TOOL_ACCESS_H_
#define CODEMODE_TOOLS_TOOL_ACCESS_H_

#include "codemode/json.h"
#include "codemode/tool.h"

namespace codemode {

// Immutable once define_tool has validated it; shared by every copy of the Tool.
struct Tool::Definition {
  ToolOptions options;
  Json manifest;
};

namespace internal {

struct ToolAccess {
  // False only for a moved-from Tool, which has no definition.
  static bool has_definition(const Tool& tool) { return tool.definition_ != nullptr; }
  static const ToolExecuteFn& execute(const Tool& tool) {
    return tool.definition_->options.execute;
  }
  static const ToolGuards& guards(const Tool& tool) { return tool.definition_->options.guards; }
};

}  // namespace internal
}  // namespace codemode

#endif  // CODEMODE_TOOLS_TOOL_ACCESS_H_
