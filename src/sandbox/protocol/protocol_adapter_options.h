// The rules of ProtocolAdapterOptions (include/codemode/protocol_adapter.h), checked once when the
// adapter is made, and the per-execution "{sandbox}" substitution.
#ifndef CODEMODE_SANDBOX_PROTOCOL_PROTOCOL_ADAPTER_OPTIONS_H_
#define CODEMODE_SANDBOX_PROTOCOL_PROTOCOL_ADAPTER_OPTIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/protocol_adapter.h"

namespace codemode::internal {

inline constexpr std::string_view kSandboxPlaceholder = "{sandbox}";
inline constexpr std::size_t kMaxCommandArguments = 256;
inline constexpr std::size_t kMaxArgumentBytes = 4096;
inline constexpr std::size_t kMaxEnvironmentEntries = 256;

// INVALID_CONFIG, rule "protocol_adapter_options", naming the first field that breaks its rule.
Status check_protocol_adapter_options(const ProtocolAdapterOptions& options);

// `argv` with every "{sandbox}" replaced by `sandbox_name`.
std::vector<std::string> with_sandbox_name(std::vector<std::string> argv,
                                           std::string_view sandbox_name);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROTOCOL_PROTOCOL_ADAPTER_OPTIONS_H_
