// WorkflowBinding: its JSON form and how it is resolved.
#include "workflow/definition/workflow_binding.h"

#include <utility>

#include "core/json/json_keys.h"

namespace codemode {
namespace {

Error binding_error() {
  return Error::invalid_config(
      "workflow_binding",
      "A binding must be {kind:\"input\", path} or {kind:\"phase\", phaseId, path} with a path of "
      "at most 32 keys and indices.");
}

Error path_error() {
  return Error::invalid_input("binding_path", "A binding path names no value of its source.");
}

Result<std::vector<WorkflowBinding::Step>> path_from_json(const Json& json) {
  if (!json.is_array() || json.size() > internal::kMaxBindingSteps) return binding_error();
  std::vector<WorkflowBinding::Step> path;
  for (const Json& step : json) {
    if (step.is_string() &&
        step.get_ref<const std::string&>().size() <= internal::kMaxBindingKeyBytes) {
      path.emplace_back(step.get<std::string>());
    } else if (step.is_number_unsigned() && step.get<std::uint64_t>() <= kMaxSafeInteger) {
      path.emplace_back(static_cast<std::size_t>(step.get<std::uint64_t>()));
    } else {
      return binding_error();
    }
  }
  return path;
}

}  // namespace

WorkflowBinding WorkflowBinding::workflow_input(std::vector<Step> path) {
  return WorkflowBinding({}, std::move(path));
}

WorkflowBinding WorkflowBinding::phase_output(std::string phase_id, std::vector<Step> path) {
  return WorkflowBinding(std::move(phase_id), std::move(path));
}

Json WorkflowBinding::to_json() const {
  Json path = Json::array();
  for (const Step& step : path_) {
    if (const auto* key = std::get_if<std::string>(&step)) {
      path.push_back(*key);
    } else {
      path.push_back(std::get<std::size_t>(step));
    }
  }
  if (from_workflow_input()) return Json{{"kind", "input"}, {"path", std::move(path)}};
  return Json{{"kind", "phase"}, {"phaseId", phase_id_}, {"path", std::move(path)}};
}

Result<WorkflowBinding> WorkflowBinding::from_json(const Json& json) {
  if (!json.is_object() || !json.contains("kind") || !json.contains("path")) {
    return binding_error();
  }
  Result<std::vector<Step>> path = path_from_json(json.at("path"));
  if (!path.ok()) return std::move(path).error();
  if (json.at("kind") == "input" && internal::only_keys(json, {"kind", "path"})) {
    return workflow_input(std::move(*path));
  }
  if (json.at("kind") == "phase" && internal::only_keys(json, {"kind", "phaseId", "path"}) &&
      json.contains("phaseId") && json.at("phaseId").is_string() &&
      !json.at("phaseId").get_ref<const std::string&>().empty()) {
    return phase_output(json.at("phaseId").get<std::string>(), std::move(*path));
  }
  return binding_error();
}

namespace internal {

Result<Json> resolve_binding(const WorkflowBinding& binding, const Json& workflow_input,
                             const std::map<std::string, Json, std::less<>>& phase_outputs) {
  const Json* value = &workflow_input;
  if (!binding.from_workflow_input()) {
    auto found = phase_outputs.find(binding.phase_id());
    if (found == phase_outputs.end()) return path_error();
    value = &found->second;
  }
  for (const WorkflowBinding::Step& step : binding.path()) {
    if (const auto* key = std::get_if<std::string>(&step)) {
      if (!value->is_object()) return path_error();
      auto member = value->find(*key);
      if (member == value->end()) return path_error();
      value = &*member;
    } else {
      std::size_t index = std::get<std::size_t>(step);
      if (!value->is_array() || index >= value->size()) return path_error();
      value = &(*value)[index];
    }
  }
  return *value;
}

}  // namespace internal
}  // namespace codemode
