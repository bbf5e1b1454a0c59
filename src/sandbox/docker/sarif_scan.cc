#include "sandbox/docker/sarif_scan.h"

#include <string>

#include "codemode/json.h"

#include "core/json/json_keys.h"
#include "sandbox/docker/promotion_statement.h"

namespace codemode::internal {
namespace {

constexpr std::size_t kMinSarifBytes = 2;
constexpr std::size_t kMaxSarifBytes = 16u << 20;
constexpr std::size_t kMaxSarifRuns = 16;
constexpr std::string_view kNotClean = "; a failed or incomplete scan is never a clean one.";

const Json* member(const Json& object, std::string_view name) {
  const auto found = object.find(name);
  return found == object.end() ? nullptr : &*found;
}

// Why `notifications` (an invocation's member `list`) shows a failure; empty when it does not.
std::string notification_failure(const Json& notifications, std::string_view list) {
  if (!notifications.is_array()) return std::string(list) + " is not an array";
  for (const Json& notification : notifications) {
    if (!notification.is_object() || notification.value("level", Json()) == "error") {
      return "has an error among its " + std::string(list);
    }
  }
  return {};
}

// Why `invocation` does not show a scan that ran to completion; empty when it does.
std::string invocation_failure(const Json& invocation) {
  if (!invocation.is_object()) return "is not an object";
  const Json* successful = member(invocation, "executionSuccessful");
  if (successful == nullptr || *successful != true) return "is not executionSuccessful: true";
  if (const Json* code = member(invocation, "exitCode"); code != nullptr && *code != 0) {
    return "has an exitCode other than 0";
  }
  if (member(invocation, "exitSignalName") != nullptr ||
      member(invocation, "exitSignalNumber") != nullptr) {
    return "was ended by a signal";
  }
  for (std::string_view list : {"toolExecutionNotifications", "toolConfigurationNotifications"}) {
    if (const Json* notifications = member(invocation, list); notifications != nullptr) {
      if (std::string failure = notification_failure(*notifications, list); !failure.empty()) {
        return failure;
      }
    }
  }
  return {};
}

// Why `run` does not show a scan that ran to completion; empty when it does.
std::string run_failure(const Json& run) {
  if (!run.is_object()) return "is not an object";
  const Json* tool = member(run, "tool");
  const Json* driver = tool != nullptr && tool->is_object() ? member(*tool, "driver") : nullptr;
  const Json* name = driver != nullptr && driver->is_object() ? member(*driver, "name") : nullptr;
  if (name == nullptr || !name->is_string() || name->get_ref<const std::string&>().empty()) {
    return "does not name its scanner (tool.driver.name)";
  }
  const Json* results = member(run, "results");
  if (results == nullptr || !results->is_array()) return "has no results array";
  const Json* invocations = member(run, "invocations");
  if (invocations == nullptr) return {};
  if (!invocations->is_array()) return "has invocations that are not an array";
  for (std::size_t i = 0; i < invocations->size(); ++i) {
    if (std::string failure = invocation_failure(invocations->at(i)); !failure.empty()) {
      return "invocation " + std::to_string(i + 1) + " " + failure;
    }
  }
  return {};
}

Error denied(std::string message) {
  return Error::permission_denied(rules::kDockerPromotion,
                                  "Promotion is denied: " + std::move(message));
}

}  // namespace

Status check_clean_scan(std::string_view sarif) {
  if (sarif.size() < kMinSarifBytes || sarif.size() > kMaxSarifBytes) {
    return promotion_config_error("sarif must be 2 bytes to 16 MiB of JSON.");
  }
  Result<Json> report = parse_json(sarif, {.max_bytes = kMaxSarifBytes});
  if (!report.ok()) return promotion_config_error("sarif is not valid JSON.");
  if (!report->is_object() || !only_keys(*report, {"version", "runs", "$schema"}) ||
      report->value("version", Json()) != "2.1.0" || !report->contains("runs") ||
      !report->at("runs").is_array() || report->at("runs").empty() ||
      report->at("runs").size() > kMaxSarifRuns) {
    return promotion_config_error(
        "sarif must be a SARIF 2.1.0 report holding only version, runs (1 to 16) and $schema.");
  }
  const Json& runs = report->at("runs");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string run = "SARIF run " + std::to_string(i + 1) + " ";
    if (std::string failure = run_failure(runs[i]); !failure.empty()) {
      return denied(run + failure + std::string(kNotClean));
    }
    if (const std::size_t findings = runs[i].at("results").size(); findings > 0) {
      return denied(run + "reports " + std::to_string(findings) + " results (findings).");
    }
  }
  return Status();
}

}  // namespace codemode::internal
