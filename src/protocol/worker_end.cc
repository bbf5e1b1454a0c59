#include "protocol/worker_end.h"

#include <array>
#include <initializer_list>
#include <optional>
#include <utility>

#include "codemode/program.h"
#include "codemode/sandbox.h"

#include "core/json/json_keys.h"
#include "core/text/identifiers.h"
#include "protocol/frame_format.h"
#include "protocol/protocol_error.h"

namespace codemode::worker {
namespace {

using internal::kProtocolVersion;
using internal::protocol_error;

using internal::only_keys;

// A positive integer no larger than `maximum`, or nullopt.
std::optional<std::uint64_t> positive_integer(const Json& object, const char* key,
                                              std::uint64_t maximum) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number_integer()) return std::nullopt;
  if (found->is_number_unsigned()) {
    const auto value = found->get<std::uint64_t>();
    if (value >= 1 && value <= maximum) return value;
  }
  return std::nullopt;
}

bool has_type(const Json& frame, std::string_view type) {
  const auto found = frame.find("type");
  return found != frame.end() && found->is_string() && found->get_ref<const std::string&>() == type;
}

Result<WorkerLimits> parse_limits(const Json& frame) {
  const auto found = frame.find("limits");
  if (found == frame.end() || !found->is_object() ||
      !only_keys(*found,
                 {"cpuMillis", "wallTimeMillis", "memoryBytes", "maxOutputBytes",
                  "maxToolInputBytes", "maxToolCalls", "stackBytes", "maxToolConcurrency"})) {
    return protocol_error("The start frame's limits are not an object of the known limits.");
  }
  const Json& json = *found;
  const auto cpu = positive_integer(json, "cpuMillis", CodeLimitMaxima::kCpuMillis);
  const auto wall = positive_integer(json, "wallTimeMillis", CodeLimitMaxima::kWallTimeMillis);
  const auto memory = positive_integer(json, "memoryBytes", CodeLimitMaxima::kMemoryBytes);
  const auto output = positive_integer(json, "maxOutputBytes", CodeLimitMaxima::kMaxOutputBytes);
  const auto tool_input =
      positive_integer(json, "maxToolInputBytes", CodeLimitMaxima::kMaxToolInputBytes);
  const auto calls = positive_integer(json, "maxToolCalls", CodeLimitMaxima::kMaxToolCalls);
  const auto stack = positive_integer(json, "stackBytes", kMaxEngineStackBytes);
  if (!cpu || !wall || !memory || !output || !tool_input || !calls || !stack ||
      *stack < static_cast<std::uint64_t>(kMinEngineStackBytes)) {
    return protocol_error("A start frame limit is missing or outside its range.");
  }
  std::uint64_t concurrency = 0;
  if (json.contains("maxToolConcurrency")) {
    const auto given =
        positive_integer(json, "maxToolConcurrency", CodeLimitMaxima::kMaxToolConcurrency);
    if (!given) return protocol_error("A start frame limit is missing or outside its range.");
    concurrency = *given;
  }
  return WorkerLimits{*cpu, *wall, *memory, *output, *tool_input, *calls, *stack, concurrency};
}

// An optional string field with two known values: the first when absent.
template <typename Enum>
Result<Enum> parse_choice(const Json& frame, const char* key,
                          std::initializer_list<std::pair<std::string_view, Enum>> known) {
  const auto found = frame.find(key);
  if (found == frame.end()) return known.begin()->second;
  if (found->is_string()) {
    for (const auto& [name, value] : known) {
      if (found->get_ref<const std::string&>() == name) return value;
    }
  }
  return protocol_error("The start frame's " + std::string(key) + " is not a known value.");
}

Result<std::string> parse_source(const Json& frame) {
  const auto found = frame.find("source");
  if (found == frame.end() || !found->is_string() || found->get_ref<const std::string&>().empty() ||
      found->get_ref<const std::string&>().size() > kMaxSourceBytes) {
    return protocol_error("The start frame's source is not a string of 1 byte to 1 MiB.");
  }
  return found->get<std::string>();
}

Result<std::string> parse_input(const Json& frame) {
  const auto found = frame.find("input");
  if (found == frame.end()) return protocol_error("The start frame has no input.");
  const auto limits = program_json_limits(CodeLimitMaxima::kMaxInputBytes);
  Result<std::string> text = serialize_json(*found, limits);
  if (!text.ok()) return protocol_error("The start frame's input is not bounded, plain JSON.");
  return text;
}

constexpr std::array<std::string_view, 4> kFailedStatuses{"failed", "blocked", "cancelled",
                                                          "outcome_unknown"};

bool is_failed_status(std::string_view status) {
  for (std::string_view known : kFailedStatuses) {
    if (known == status) return true;
  }
  return false;
}

// {code, rule, message}: a known error code, a rule name and a string.
bool is_tool_error(const Json& error) {
  if (!error.is_object() || !only_keys(error, {"code", "rule", "message"})) return false;
  const auto code = error.find("code");
  const auto rule = error.find("rule");
  const auto message = error.find("message");
  return code != error.end() && code->is_string() &&
         error_code_from_string(code->get_ref<const std::string&>()).has_value() &&
         rule != error.end() && rule->is_string() &&
         internal::is_rule_name(rule->get_ref<const std::string&>()) && message != error.end() &&
         message->is_string();
}

// The guest-visible answer of a toolResult frame whose callId was already checked.
Result<Json> guest_answer(const Json& frame, const WorkerLimits& limits) {
  const auto status = frame.find("status");
  const auto has_output = frame.find("hasOutput");
  if (status == frame.end() || !status->is_string() || has_output == frame.end() ||
      !has_output->is_boolean()) {
    return protocol_error("A toolResult frame lacks its status or its hasOutput bit.");
  }
  const auto status_text = status->get_ref<const std::string&>();
  if (status_text == "succeeded" && has_output->get<bool>() && frame.contains("output") &&
      !frame.contains("error") &&
      check_json(frame["output"], program_json_limits(limits.max_output_bytes)).ok()) {
    return Json{{"status", "succeeded"}, {"output", frame["output"]}};
  }
  if (is_failed_status(status_text) && !has_output->get<bool>() && !frame.contains("output") &&
      frame.contains("error") && is_tool_error(frame["error"])) {
    return Json{{"status", status_text}, {"error", frame["error"]}};
  }
  return protocol_error("A toolResult frame's status, hasOutput, output and error disagree.");
}

}  // namespace

JsonLimits program_json_limits(std::uint64_t max_bytes) {
  return JsonLimits{.max_bytes = static_cast<std::size_t>(max_bytes)};
}

Result<StartRequest> parse_start(const Json& frame) {
  if (!has_type(frame, "start")) return protocol_error("The first frame is not a start frame.");
  if (!only_keys(frame, {"type", "version", "source", "input", "limits", "profile", "language"})) {
    return protocol_error("The start frame has an unknown field.");
  }
  const auto version = frame.find("version");
  if (version == frame.end() || !version->is_number_integer() || *version != kProtocolVersion) {
    return protocol_error("The start frame's protocol version is not supported.");
  }
  Result<std::string> source = parse_source(frame);
  if (!source.ok()) return std::move(source).error();
  Result<std::string> input = parse_input(frame);
  if (!input.ok()) return std::move(input).error();
  Result<WorkerLimits> limits = parse_limits(frame);
  if (!limits.ok()) return std::move(limits).error();
  Result<ProgramProfile> profile = parse_choice<ProgramProfile>(
      frame, "profile",
      {{"standard", ProgramProfile::kStandard}, {"model", ProgramProfile::kModel}});
  if (!profile.ok()) return std::move(profile).error();
  Result<ProgramLanguage> language = parse_choice<ProgramLanguage>(
      frame, "language",
      {{"javascript", ProgramLanguage::kJavaScript}, {"typescript", ProgramLanguage::kTypeScript}});
  if (!language.ok()) return std::move(language).error();
  return StartRequest{std::move(*source), std::move(*input), *limits, *profile, *language};
}

Result<ToolAnswer> parse_tool_result(const Json& frame, const WorkerLimits& limits) {
  if (!has_type(frame, "toolResult")) {
    return protocol_error("The parent sent a frame other than a toolResult.");
  }
  if (!only_keys(frame, {"type", "callId", "status", "hasOutput", "output", "error"})) {
    return protocol_error("A toolResult frame has an unknown field.");
  }
  const auto call_id = positive_integer(frame, "callId", kMaxSafeInteger);
  if (!call_id) return protocol_error("A toolResult frame's callId is not a positive integer.");
  Result<Json> answer = guest_answer(frame, limits);
  if (!answer.ok()) return std::move(answer).error();
  // The answer is the tool's bounded output one level down: frame limits fit it.
  Result<std::string> text =
      serialize_json(*answer, internal::frame_json_limits(internal::kMaxFrameBytes));
  if (!text.ok()) return protocol_error("A toolResult frame's answer is not bounded, plain JSON.");
  return ToolAnswer{*call_id, std::move(*text)};
}

Json confined_message(const std::vector<std::string>& layers) {
  return Json{{"type", "confined"}, {"version", kProtocolVersion}, {"layers", layers}};
}

Json tool_call_message(std::uint64_t call_id, std::string_view tool_id, Json input) {
  return Json{
      {"type", "toolCall"}, {"callId", call_id}, {"toolId", tool_id}, {"input", std::move(input)}};
}

Json result_message(const Completion& completion) {
  Json message{{"type", "result"}};
  if (completion.succeeded()) {
    message["status"] = "succeeded";
    message["hasOutput"] = true;
    message["output"] = *completion.output;
  } else {
    message["status"] = "failed";
    message["reason"] = to_string(completion.reason);
  }
  if (completion.program_error) {
    Json error{{"name", completion.program_error->name},
               {"message", completion.program_error->message}};
    if (const auto& location = completion.program_error->location) {
      error["line"] = location->line;
      error["column"] = location->column;
      error["sourceLine"] = location->source_line;
    }
    message["programError"] = std::move(error);
  }
  if (completion.output_fault) message["rule"] = to_string(*completion.output_fault);
  if (completion.logs) {
    message["logs"] =
        Json{{"lines", completion.logs->lines}, {"dropped", completion.logs->dropped}};
  }
  return message;
}

}  // namespace codemode::worker
