#include "mcp/code_tool/code_result.h"

#include <optional>
#include <string>

#include "codemode/rules.h"

#include "core/json/json_keys.h"
#include "core/text/utf16.h"
#include "mcp/catalog/mcp_codes.h"
#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/code_prelude.h"
#include "mcp/code_tool/invocation_budget.h"

namespace codemode::mcp {
namespace {

using internal::only_keys;

constexpr std::size_t kMaxMessageUnits = 1024;

Json call_result(Json structured, bool is_error) {
  return Json{{"content", Json::array({{{"type", "text"}, {"text", json_text(structured)}}})},
              {"structuredContent", std::move(structured)},
              {"isError", is_error}};
}

Json malformed() {
  return tool_error_result(codes::kCodeRejected,
                           "The program's result does not have the code tool's envelope.");
}

// The envelope's logs when they are as the policy says (present exactly when on, strings, within
// the cap); nullopt otherwise. A null Json when off. In the model profile the envelope has none
// and the worker's are fitted instead.
std::optional<Json> checked_logs(const Json& envelope, const McpPolicy& policy,
                                 const std::optional<ProgramLogs>& model_logs) {
  const auto found = envelope.find("logs");
  if (policy.program_profile == ProgramProfile::kModel) {
    if (found != envelope.end()) return std::nullopt;
    return policy.console_logs ? fitted_logs(model_logs, policy.console_log_bytes) : Json();
  }
  if (!policy.console_logs) {
    return found == envelope.end() ? std::optional<Json>(Json()) : std::nullopt;
  }
  if (found == envelope.end() || !found->is_array()) return std::nullopt;
  for (const Json& line : *found) {
    if (!line.is_string()) return std::nullopt;
  }
  if (static_cast<std::int64_t>(json_text(*found).size()) > policy.console_log_bytes) {
    return std::nullopt;
  }
  return *found;
}

Json with_logs(Json object, const Json& logs) {
  if (!logs.is_null()) object["logs"] = logs;
  return object;
}

Json error_result(std::string_view code, std::string_view message, const Json& logs) {
  return call_result(with_logs(Json{{"code", code}, {"message", message}}, logs), true);
}

Json too_large(std::optional<std::int64_t> bytes, const Json& logs, const McpPolicy& policy) {
  return error_result(codes::kFinalResultBytesLimit,
                      final_result_too_large(bytes, policy.final_result_bytes), logs);
}

Json succeeded(const Json& result, const Json& logs, const McpPolicy& policy) {
  Result<std::size_t> bytes = check_json(result, {.max_bytes = kMeasureBytes});
  if (!bytes.ok() || static_cast<std::int64_t>(*bytes) > policy.final_result_bytes) {
    // Past the measure's own cap the size is not known: the message leaves it out.
    return too_large(bytes.ok() ? std::optional(static_cast<std::int64_t>(*bytes)) : std::nullopt,
                     logs, policy);
  }
  return call_result(with_logs(Json{{"result", result}}, logs), false);
}

// The worker's own measure of a result over the cap: a size only, and only one above the cap is
// believed (the program could write this envelope itself, but only to fail its own call).
Json measured_too_large(const Json& error, const Json& logs, const McpPolicy& policy) {
  const auto bytes = error.find("bytes");
  if (!only_keys(error, {"code", "bytes"}) || bytes == error.end() || !bytes->is_number_integer() ||
      bytes->get<std::int64_t>() <= policy.final_result_bytes) {
    return malformed();
  }
  return too_large(bytes->get<std::int64_t>(), logs, policy);
}

Json thrown(const Json& error, const Json& logs, const McpPolicy& policy) {
  const auto code = error.find("code");
  if (!error.is_object() || code == error.end()) return malformed();
  if (*code == codes::kHostCallsLimit && only_keys(error, {"code"})) {
    return error_result(codes::kHostCallsLimit, "host-call budget exhausted", logs);
  }
  if (*code == rules::kServerHostOperationsLimit && only_keys(error, {"code"})) {
    return error_result(rules::kServerHostOperationsLimit,
                        "server host-operation capacity is exhausted", logs);
  }
  if (*code == codes::kFinalResultBytesLimit) return measured_too_large(error, logs, policy);
  const auto message = error.find("message");
  if (*code == codes::kCodeRejected && only_keys(error, {"code", "message"}) &&
      message != error.end() && message->is_string()) {
    // What the program threw is the model's own text (never host data): returned as is.
    return error_result(
        codes::kCodeRejected,
        internal::truncate_utf16(message->get_ref<const std::string&>(), kMaxMessageUnits), logs);
  }
  return malformed();
}

}  // namespace

std::string final_result_too_large(std::optional<std::int64_t> bytes, std::int64_t cap) {
  const std::string measured = bytes ? " is " + std::to_string(*bytes) + " bytes and" : "";
  return "final JSON" + measured + " exceeds the " + std::to_string(cap) +
         "-byte limit; return fewer fields or items, or use the repository tools' compact "
         "formats (read with format \"text\", list with format \"paths\")";
}

Json fitted_logs(const std::optional<ProgramLogs>& logs, std::int64_t max_bytes) {
  if (!logs) return Json();
  const auto cap = static_cast<std::size_t>(max_bytes);
  Json lines(logs->lines);
  if (logs->dropped == 0 && json_text(lines).size() <= cap) return lines;
  // Room for the marker is kept from the start: once a line is dropped it ends the logs.
  const std::size_t marker = json_text(Json(std::string(kLogsTruncatedMarker))).size() + 1;
  Json kept = Json::array();
  std::size_t used = 2;  // "[]"
  for (const std::string& line : logs->lines) {
    const std::size_t cost = json_text(Json(line)).size() + (kept.empty() ? 0 : 1);
    if (used + cost + marker > cap) break;
    kept.push_back(line);
    used += cost;
  }
  kept.push_back(std::string(kLogsTruncatedMarker));
  return kept;
}

Json code_result(const Json& envelope, const McpPolicy& policy,
                 const std::optional<ProgramLogs>& model_logs) {
  if (!envelope.is_object()) return malformed();
  const std::optional<Json> logs = checked_logs(envelope, policy, model_logs);
  if (!logs) return malformed();
  if (envelope.contains("result") && only_keys(envelope, {"result", "logs"})) {
    return succeeded(envelope.at("result"), *logs, policy);
  }
  if (envelope.contains("error") && only_keys(envelope, {"error", "logs"})) {
    return thrown(envelope.at("error"), *logs, policy);
  }
  return malformed();
}

}  // namespace codemode::mcp
