#include "protocol/parent_end.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

#include "codemode/program.h"

#include "core/json/json_keys.h"
#include "protocol/frame_format.h"

namespace codemode::internal {
namespace {

Error protocol_error(std::string_view message) {
  return Error::integrity_violation("worker_protocol_error", std::string(message));
}

// The string at `key`, or nullptr.
const std::string* string_at(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return nullptr;
  return &found->get_ref<const std::string&>();
}

bool bool_at(const Json& object, const char* key, bool expected) {
  const auto found = object.find(key);
  return found != object.end() && found->is_boolean() && found->get<bool>() == expected;
}

// nlohmann reads every non-negative integer literal as unsigned.
std::optional<std::uint64_t> positive_integer_at(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number_unsigned()) return std::nullopt;
  const auto value = found->get<std::uint64_t>();
  if (value < 1 || value > static_cast<std::uint64_t>(kMaxSafeInteger)) return std::nullopt;
  return value;
}

Result<WorkerMessage> parse_tool_call(Json& frame) {
  if (!only_keys(frame, {"type", "callId", "toolId", "input"}) || !frame.contains("input")) {
    return protocol_error("A toolCall frame does not have exactly its documented fields.");
  }
  const std::optional<std::uint64_t> call_id = positive_integer_at(frame, "callId");
  const std::string* tool_id = string_at(frame, "toolId");
  if (!call_id || !tool_id) {
    return protocol_error("A toolCall frame's callId or toolId has the wrong type.");
  }
  return WorkerMessage(ToolCallMessage{*call_id, *tool_id, std::move(frame["input"])});
}

Result<std::optional<ProgramError>> parse_program_error(const Json& frame,
                                                        SandboxFailureReason reason) {
  const auto found = frame.find("programError");
  if (found == frame.end()) return std::optional<ProgramError>();
  const std::string* name = found->is_object() ? string_at(*found, "name") : nullptr;
  const std::string* message = found->is_object() ? string_at(*found, "message") : nullptr;
  if (reason != SandboxFailureReason::kProgramError || !name || !message ||
      !only_keys(*found, {"name", "message", "line", "column", "sourceLine"})) {
    return protocol_error("A result frame's programError is malformed or out of place.");
  }
  ProgramError error{*name, *message, std::nullopt};
  const std::optional<std::uint64_t> line = positive_integer_at(*found, "line");
  const std::optional<std::uint64_t> column = positive_integer_at(*found, "column");
  const std::string* source_line = string_at(*found, "sourceLine");
  if (line && column && source_line) {
    error.location = ProgramErrorLocation{.line = static_cast<std::int64_t>(*line),
                                          .column = static_cast<std::int64_t>(*column),
                                          .source_line = *source_line};
  } else if (found->contains("line") || found->contains("column") ||
             found->contains("sourceLine")) {
    return protocol_error("A result frame's programError has a partial location.");
  }
  return std::optional<ProgramError>(std::move(error));
}

// {"lines":[string], "dropped":n}, whose lines fit kMaxConsoleBytes as a compact JSON array.
Result<std::optional<ProgramLogs>> parse_logs(const Json& frame) {
  const auto found = frame.find("logs");
  if (found == frame.end()) return std::optional<ProgramLogs>();
  const auto lines = found->is_object() ? found->find("lines") : found->end();
  const auto dropped = found->is_object() ? found->find("dropped") : found->end();
  if (!found->is_object() || !only_keys(*found, {"lines", "dropped"}) || lines == found->end() ||
      !lines->is_array() || dropped == found->end() || !dropped->is_number_unsigned() ||
      lines->dump().size() > kMaxConsoleBytes) {
    return protocol_error("A result frame's logs are malformed or over their cap.");
  }
  ProgramLogs logs{.lines = {}, .dropped = dropped->get<std::uint64_t>()};
  for (const Json& line : *lines) {
    if (!line.is_string()) return protocol_error("A result frame's log line is not a string.");
    logs.lines.push_back(line.get<std::string>());
  }
  return std::optional<ProgramLogs>(std::move(logs));
}

// The rule of an invalid_output result: required with that reason, refused with any other.
Result<std::optional<OutputFault>> parse_output_fault(const Json& frame,
                                                      SandboxFailureReason reason) {
  const std::string* rule = string_at(frame, "rule");
  const std::optional<OutputFault> fault = rule ? output_fault_from_string(*rule) : std::nullopt;
  const bool invalid_output = reason == SandboxFailureReason::kInvalidOutput;
  if (invalid_output != fault.has_value() || (!invalid_output && frame.contains("rule"))) {
    return protocol_error("A result frame's rule is missing, unknown or out of place.");
  }
  return fault;
}

Result<WorkerMessage> parse_failed_result(const Json& frame) {
  if (!only_keys(frame,
                 {"type", "status", "reason", "programError", "rule", "hasOutput", "logs"}) ||
      (frame.contains("hasOutput") && !bool_at(frame, "hasOutput", false))) {
    return protocol_error("A failed result frame does not have exactly its documented fields.");
  }
  const std::string* reason_text = string_at(frame, "reason");
  const std::optional<SandboxFailureReason> reason =
      reason_text ? sandbox_failure_reason_from_string(*reason_text) : std::nullopt;
  if (!reason) return protocol_error("A failed result frame has no known reason.");
  // Whether a program is supported is the parent's decision, made before any worker starts; a
  // worker claiming it could make a host look for another sandbox.
  if (*reason == SandboxFailureReason::kUnsupportedProgram) {
    return protocol_error("A worker may not report unsupported_program.");
  }
  auto program_error = parse_program_error(frame, *reason);
  if (!program_error.ok()) return std::move(program_error).error();
  Result<std::optional<OutputFault>> output_fault = parse_output_fault(frame, *reason);
  if (!output_fault.ok()) return std::move(output_fault).error();
  // parse_output_fault set one only with kInvalidOutput, parse_program_error only with
  // kProgramError.
  Result<std::optional<ProgramLogs>> logs = parse_logs(frame);
  if (!logs.ok()) return std::move(logs).error();
  SandboxResult result = *output_fault ? SandboxResult::failure(**output_fault)
                                       : SandboxResult::failure(*reason, std::move(*program_error));
  if (*logs) result = std::move(result).with_logs(std::move(**logs));
  return WorkerMessage(std::move(result));
}

Result<WorkerMessage> parse_result(Json& frame) {
  const std::string* status = string_at(frame, "status");
  if (status && *status == "failed") return parse_failed_result(frame);
  if (!status || *status != "succeeded") {
    return protocol_error("A result frame's status is neither succeeded nor failed.");
  }
  if (!only_keys(frame, {"type", "status", "hasOutput", "output", "logs"}) ||
      !bool_at(frame, "hasOutput", true) || !frame.contains("output")) {
    return protocol_error("A succeeded result frame lacks hasOutput true and its output.");
  }
  Result<std::optional<ProgramLogs>> logs = parse_logs(frame);
  if (!logs.ok()) return std::move(logs).error();
  SandboxResult result = SandboxResult::success(std::move(frame["output"]));
  if (*logs) result = std::move(result).with_logs(std::move(**logs));
  return WorkerMessage(std::move(result));
}

}  // namespace

Json start_message(const SandboxRequest& request, std::int64_t stack_bytes) {
  const CodeLimits& limits = request.program.limits();
  Json frame{{"type", "start"},
             {"version", 1},
             {"source", request.program.source()},
             {"input", request.input},
             {"limits",
              {{"cpuMillis", limits.cpu_millis},
               {"wallTimeMillis", limits.wall_time_millis},
               {"memoryBytes", limits.memory_bytes},
               {"maxOutputBytes", limits.max_output_bytes},
               {"maxToolInputBytes", limits.max_tool_input_bytes},
               {"maxToolCalls", limits.max_tool_calls},
               {"stackBytes", stack_bytes}}}};
  // Only the model profile's worker uses these; a standard JavaScript program's frame is the one
  // a worker of any earlier release reads.
  if (request.program.profile() != ProgramProfile::kStandard) {
    frame["profile"] = to_string(request.program.profile());
    frame["limits"]["maxToolConcurrency"] = limits.max_tool_concurrency;
  }
  if (request.program.language() != ProgramLanguage::kJavaScript) {
    frame["language"] = to_string(request.program.language());
  }
  return frame;
}

Json tool_result_message(std::uint64_t call_id, const CodeToolOutcome& outcome) {
  Json frame{{"type", "toolResult"}, {"callId", call_id}, {"status", to_string(outcome.status())}};
  if (outcome.ok()) {
    frame["hasOutput"] = true;
    frame["output"] = outcome.output().value_or(Json());
  } else {
    frame["hasOutput"] = false;
    frame["error"] = std::move(outcome.to_json()["error"]);  // {code, rule, message}
  }
  return frame;
}

Status check_confined_message(const Json& frame, std::span<const std::string_view> expected) {
  const std::string* type = string_at(frame, "type");
  const auto version = frame.find("version");
  const auto layers = frame.find("layers");
  if (!type || *type != "confined" || !only_keys(frame, {"type", "version", "layers"}) ||
      version == frame.end() || !version->is_number_unsigned() || *version != 1 ||
      layers == frame.end() || !layers->is_array()) {
    return protocol_error("The worker's first frame is not a confined frame of version 1.");
  }
  for (const Json& layer : *layers) {
    if (!layer.is_string()) return protocol_error("A confined frame's layers are not strings.");
  }
  // Exactly the layers, in order: a worker that lacks one (or was built with others) does not run
  // the program.
  if (!std::equal(layers->begin(), layers->end(), expected.begin(), expected.end(),
                  [](const Json& layer, std::string_view name) {
                    return layer.get_ref<const std::string&>() == name;
                  })) {
    return protocol_error("The worker does not name every confinement layer.");
  }
  return {};
}

Result<WorkerMessage> parse_worker_message(Json frame) {
  const std::string* type = string_at(frame, "type");
  if (type && *type == "toolCall") return parse_tool_call(frame);
  if (type && *type == "result") return parse_result(frame);
  return protocol_error("The worker sent a frame that is neither a toolCall nor a result.");
}

}  // namespace codemode::internal
