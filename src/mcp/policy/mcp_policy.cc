#include "mcp/policy/mcp_policy.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include "codemode/rules.h"

#include "mcp/catalog/mcp_codes.h"

namespace codemode::mcp {

const std::array<PolicyField, 16> kPolicyFields{{
    {"sourceBytes", &McpPolicy::source_bytes, 1, 32 << 10},
    {"wallTimeMillis", &McpPolicy::wall_time_millis, 1, 10'000},
    {"heapBytes", &McpPolicy::heap_bytes, 1 << 20, 64 << 20},
    {"stackBytes", &McpPolicy::stack_bytes, 64 << 10, 1 << 20},
    {"hostCalls", &McpPolicy::host_calls, 1, 16},
    {"hostConcurrency", &McpPolicy::host_concurrency, 1, 4},
    {"hostResultBytes", &McpPolicy::host_result_bytes, 1, 64 << 10},
    {"cumulativeHostResultBytes", &McpPolicy::cumulative_host_result_bytes, 1, 256 << 10},
    {"finalResultBytes", &McpPolicy::final_result_bytes, 1, 48 << 10},
    {"consoleLogBytes", &McpPolicy::console_log_bytes, 64, 8 << 10},
    {"contentBlocks", &McpPolicy::content_blocks, 0, 16},
    {"contentBytes", &McpPolicy::content_bytes, 0, 8 << 20},
    {"serverWorkers", &McpPolicy::server_workers, 1, 16},
    {"serverInvocations", &McpPolicy::server_invocations, 1, 16},
    {"serverHostOperations", &McpPolicy::server_host_operations, 1, 32},
    {"serverHostOperationWaitMillis", &McpPolicy::server_host_operation_wait_millis, 0, 60'000},
}};

const std::array<std::string_view, 17> kBuiltInLimitCodes{{
    rules::kSourceBytesLimit,
    codes::kHostCallsLimit,
    codes::kHostConcurrencyLimit,
    rules::kHostResultBytesLimit,
    rules::kCumulativeHostBytesLimit,
    codes::kFinalResultBytesLimit,
    rules::kContentBlocksLimit,
    rules::kContentBytesLimit,
    codes::kServerWorkersLimit,
    codes::kServerInvocationsLimit,
    rules::kServerHostOperationsLimit,
    rules::kMemoryLimit,
    rules::kCpuLimit,
    rules::kWallTimeLimit,
    rules::kJsonBytesLimit,
    rules::kJsonDepthLimit,
    rules::kJsonValuesLimit,
}};

namespace {

Error policy_error(std::string message) {
  return Error::invalid_config("mcp_config", std::move(message));
}

const PolicyField* find_field(std::string_view name) {
  for (const PolicyField& field : kPolicyFields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

Status apply_field(McpPolicy& policy, const PolicyField& field, const Json& value) {
  const std::string name = "policy." + std::string(field.name);
  if (!value.is_number_integer()) return policy_error(name + " must be an integer.");
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX) {
    return policy_error(name + " exceeds its maximum of " + std::to_string(field.maximum) + ".");
  }
  const std::int64_t number = value.get<std::int64_t>();
  if (number > field.maximum) {
    return policy_error(name + " exceeds its maximum of " + std::to_string(field.maximum) + ".");
  }
  if (number < field.minimum) {
    return policy_error(name + " is below its minimum of " + std::to_string(field.minimum) + ".");
  }
  policy.*field.member = number;
  return {};
}

Result<QuotaClass> parse_quota_class(const std::string& name, const Json& entry,
                                     const std::function<bool(std::string_view)>& known_tool) {
  static const std::regex kName("[a-z][a-z0-9_]{0,63}");
  const std::string field = "policy.quotaClasses." + name;
  if (!std::regex_match(name, kName)) {
    return policy_error("policy.quotaClasses: a class name must match [a-z][a-z0-9_]{0,63}.");
  }
  if (std::find(kBuiltInLimitCodes.begin(), kBuiltInLimitCodes.end(), name + "_limit") !=
      kBuiltInLimitCodes.end()) {
    return policy_error(field + ": its code " + name + "_limit is one of codemode's own.");
  }
  if (!entry.is_object() || entry.size() != 2 || !entry.contains("cap") ||
      !entry.contains("tools")) {
    return policy_error(field + " must be an object with exactly cap and tools.");
  }
  const Json& cap = entry.at("cap");
  if (!cap.is_number_integer() || cap.get<std::int64_t>() < 1 ||
      cap.get<std::int64_t>() > kMaxQuotaCap) {
    return policy_error(field + ".cap must be an integer from 1 to " +
                        std::to_string(kMaxQuotaCap) + ".");
  }
  QuotaClass quota{.name = name, .cap = cap.get<std::int64_t>()};
  const Json& tools = entry.at("tools");
  if (!tools.is_array() || tools.empty())
    return policy_error(field + ".tools must be a nonempty array.");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const Json& tool = tools[i];
    const std::string at = field + ".tools[" + std::to_string(i) + "]";
    if (!tool.is_string() || !known_tool(tool.get<std::string>())) {
      return policy_error(at + " names a tool the config does not declare.");
    }
    if (!seen.insert(tool.get<std::string>()).second) {
      return policy_error(at + " names a tool already named.");
    }
    quota.tools.push_back(tool.get<std::string>());
  }
  return quota;
}

// Names the field when its name is a plain identifier (a typo such as hostCals); any other name is
// not echoed.
std::string unknown_field_message(std::string_view name) {
  const bool plain =
      !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
  if (!plain) return "policy: a field is not one of the documented budgets.";
  return "policy." + std::string(name) + " is not one of the documented budgets.";
}

// policy.unknownOutcomes, as the library's CodeModeOptions::unknown_outcomes names its values.
constexpr std::array<std::pair<UnknownOutcomes, std::string_view>, 2> kUnknownOutcomesNames{{
    {UnknownOutcomes::kEndExecution, "end_execution"},
    {UnknownOutcomes::kLeaveToProgram, "leave_to_program"},
}};

std::optional<UnknownOutcomes> unknown_outcomes_from(const Json& value) {
  if (!value.is_string()) return std::nullopt;
  for (const auto& [choice, name] : kUnknownOutcomesNames) {
    if (value.get_ref<const std::string&>() == name) return choice;
  }
  return std::nullopt;
}

std::string_view unknown_outcomes_name(UnknownOutcomes choice) {
  for (const auto& [known, name] : kUnknownOutcomesNames) {
    if (known == choice) return name;
  }
  return kUnknownOutcomesNames[0].second;
}

Status parse_quota_classes(McpPolicy& policy, const Json& classes,
                           const std::function<bool(std::string_view)>& known_tool) {
  if (!classes.is_object() || classes.size() > kMaxQuotaClasses) {
    return policy_error("policy.quotaClasses must be an object of at most " +
                        std::to_string(kMaxQuotaClasses) + " classes.");
  }
  for (const auto& [name, entry] : classes.items()) {
    Result<QuotaClass> quota = parse_quota_class(name, entry, known_tool);
    if (!quota.ok()) return std::move(quota).error();
    policy.quota_classes.push_back(std::move(*quota));
  }
  return {};
}

}  // namespace

Result<McpPolicy> parse_policy(const Json& overrides,
                               const std::function<bool(std::string_view)>& known_tool) {
  McpPolicy policy;
  if (!overrides.is_object()) return policy_error("policy must be a JSON object.");
  for (const auto& [name, value] : overrides.items()) {
    if (name == "consoleLogs") {
      if (!value.is_boolean()) return policy_error("policy.consoleLogs must be true or false.");
      policy.console_logs = value.get<bool>();
      continue;
    }
    if (name == "programProfile") {
      const std::optional<ProgramProfile> profile =
          value.is_string() ? program_profile_from_string(value.get<std::string>()) : std::nullopt;
      if (!profile) return policy_error("policy.programProfile must be \"model\" or \"standard\".");
      policy.program_profile = *profile;
      continue;
    }
    if (name == "unknownOutcomes") {
      const std::optional<UnknownOutcomes> choice = unknown_outcomes_from(value);
      if (!choice) {
        return policy_error(
            "policy.unknownOutcomes must be \"end_execution\" or \"leave_to_program\".");
      }
      policy.unknown_outcomes = *choice;
      continue;
    }
    if (name == "quotaClasses") {
      if (Status status = parse_quota_classes(policy, value, known_tool); !status.ok()) {
        return std::move(status).error();
      }
      continue;
    }
    const PolicyField* field = find_field(name);
    if (!field) return policy_error(unknown_field_message(name));
    if (Status status = apply_field(policy, *field, value); !status.ok()) {
      return std::move(status).error();
    }
  }
  if (policy.cumulative_host_result_bytes < policy.host_result_bytes) {
    return policy_error("policy.cumulativeHostResultBytes is below policy.hostResultBytes.");
  }
  return policy;
}

Status check_quota_tools_listed(const McpPolicy& policy,
                                const std::function<bool(std::string_view)>& listed) {
  for (const QuotaClass& quota : policy.quota_classes) {
    for (std::size_t i = 0; i < quota.tools.size(); ++i) {
      if (listed(quota.tools[i])) continue;
      return policy_error("policy.quotaClasses." + quota.name + ".tools[" + std::to_string(i) +
                          "] names a tool its server does not list.");
    }
  }
  return {};
}

Json describe_policy(const McpPolicy& policy) {
  Json described = Json::object();
  for (const PolicyField& field : kPolicyFields) {
    described[std::string(field.name)] = policy.*field.member;
  }
  Json classes = Json::object();
  for (const QuotaClass& quota : policy.quota_classes) {
    classes[quota.name] = {{"cap", quota.cap}, {"tools", quota.tools}};
  }
  described["quotaClasses"] = std::move(classes);
  described["consoleLogs"] = policy.console_logs;
  described["programProfile"] = to_string(policy.program_profile);
  described["unknownOutcomes"] = unknown_outcomes_name(policy.unknown_outcomes);
  return described;
}

std::string quota_exhausted_message(std::string_view class_name) {
  if (class_name == "pages") return "page budget exhausted";
  if (class_name == "snapshots") return "snapshot budget exhausted";
  return std::string(class_name) + " budget exhausted";
}

}  // namespace codemode::mcp
