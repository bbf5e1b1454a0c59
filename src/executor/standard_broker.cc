// standard_broker: the usual ToolBroker, invoke_tool with fixed permissions and a shared budget.
#include <utility>

#include "codemode/broker.h"
#include "codemode/code_mode.h"

namespace codemode {

ToolBroker standard_broker(StandardBrokerOptions options) {
  return [options = std::move(options)](const Tool& tool, const Json& input,
                                        const BrokerContext& context) {
    const InvokeOptions invoke{.run_id = context.run_id,
                               .call_id = context.call_id,
                               .scope = context.scope,
                               .stop_token = context.stop_token,
                               .permissions = options.permissions,
                               .budget = options.budget,
                               .max_input_bytes = context.max_tool_input_bytes,
                               .max_output_bytes = context.max_output_bytes};
    return invoke_tool(tool, input, invoke);
  };
}

}  // namespace codemode
