#include "workflow/run/runtime_core.h"

#include <chrono>
#include <utility>

#include "core/crypto/random_hex.h"
#include "workflow/definition/hash_material.h"
#include "workflow/definition/phase_binding.h"
#include "workflow/run/approval.h"

namespace codemode::internal {
namespace {

constexpr int kMaxUpdateAttempts = 64;

Error option_error(std::string message) {
  return Error::invalid_config("workflow_runtime", std::move(message));
}

Status check_options(const WorkflowRuntimeOptions& options) {
  if (!options.store) return option_error("store is required.");
  if (!options.code_mode) return option_error("code_mode is required.");
  if (!options.verify_person) return option_error("verify_person is required.");
  if (options.max_cost_micros < 0 || options.max_cost_micros > kMaxSafeInteger) {
    return option_error("max_cost_micros must be 0 .. 2^53-1.");
  }
  if (options.policy_version.empty() || options.policy_version.size() > 128) {
    return option_error("policy_version must be 1..128 characters.");
  }
  if (options.approval_ttl < std::chrono::seconds(1) ||
      options.approval_ttl > std::chrono::hours(24 * 30)) {
    return option_error("approval_ttl must be 1 s .. 30 days.");
  }
  if (options.lease < std::chrono::milliseconds(100) || options.lease > std::chrono::hours(1)) {
    return option_error("lease must be 100 ms .. 1 hour.");
  }
  if (options.permissions.allow.size() > 4096) {
    return option_error("permissions must hold at most 4096 grants.");
  }
  if (options.approvers.empty() || options.approvers.size() > 4096) {
    return option_error("approvers must name 1 to 4096 people.");
  }
  for (const std::string& approver : options.approvers) {
    if (approver.empty() || approver.size() > 256) {
      return option_error("approvers must be ids of 1..256 characters.");
    }
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<RuntimeCore>> RuntimeCore::create(WorkflowRuntimeOptions options) {
  if (Status valid = check_options(options); !valid.ok()) return std::move(valid).error();
  Result<std::string> scope = codemode::scope_digest(options.scope);
  if (!scope.ok()) return option_error("scope must hold two ids of 1..256 characters.");
  Result<ApproverKeys> keys = ApproverKeys::create(options.approver_keys, options.approvers);
  if (!keys.ok()) return std::move(keys).error();
  Result<std::string> policy = policy_hash_of(options, keys->fingerprints());
  if (!policy.ok()) return std::move(policy).error();
  std::unique_ptr<RuntimeCore> core(new RuntimeCore());
  core->scope_digest_ = std::move(*scope);
  core->policy_hash_ = std::move(*policy);
  core->lease_owner_ = random_hex(16);
  if (core->lease_owner_.empty()) {
    return Error::storage_unavailable("random", "No random identity could be drawn.");
  }
  for (const DurableWorkflow& workflow : options.workflows) {
    core->workflows_.emplace(workflow.digest(), workflow);
  }
  core->approvers_.insert(options.approvers.begin(), options.approvers.end());
  core->approver_keys_ = std::move(*keys);
  core->options_ = std::move(options);
  return core;
}

std::int64_t RuntimeCore::now_millis() const {
  if (options_.clock_millis) return options_.clock_millis();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ApprovalPolicy RuntimeCore::approval_policy() const {
  return ApprovalPolicy{.policy_hash = policy_hash_,
                        .now_millis = now_millis(),
                        .ttl_millis = options_.approval_ttl.count(),
                        .binding_digest = [this](const DurableWorkflow::Phase& phase) {
                          return binding_digest(phase);
                        }};
}

Result<std::string> RuntimeCore::binding_digest(const DurableWorkflow::Phase& phase) const {
  Result<PhaseBinding> binding = phase_binding(phase);
  if (!binding.ok()) return std::move(binding).error();
  {
    std::lock_guard lock(stored_bindings_mutex_);
    if (stored_bindings_.contains(binding->digest)) return std::move(binding->digest);
  }
  if (Status stored = store().put_definition(binding->digest, binding->material.dump());
      !stored.ok()) {
    return std::move(stored).error();
  }
  std::lock_guard lock(stored_bindings_mutex_);
  stored_bindings_.insert(binding->digest);
  return std::move(binding->digest);
}

std::string RuntimeCore::next_claim() const {
  return lease_owner_ + "/" + std::to_string(++claims_);
}

bool RuntimeCore::is_approver(std::string_view person_id) const {
  return approvers_.contains(person_id);
}

const DurableWorkflow* RuntimeCore::workflow(std::string_view digest) const {
  auto found = workflows_.find(digest);
  return found == workflows_.end() ? nullptr : &found->second;
}

Result<LoadedRun> RuntimeCore::load(std::string_view run_id) const {
  if (!is_hex_digest(run_id)) return Error::invalid_input("run_id", "Run identity is invalid.");
  Result<std::optional<StoredRun>> stored = store().load_run(run_id);
  if (!stored.ok()) return std::move(stored).error();
  if (!stored->has_value() || (*stored)->scope_digest != scope_digest_) {
    return Error::not_found("run", "No such run in this scope.");
  }
  Result<RunDocument> run = run_document_of(**stored);
  if (!run.ok()) return std::move(run).error();
  return LoadedRun{.run = std::move(*run), .version = (*stored)->version};
}

Result<bool> RuntimeCore::commit(RunDocument& run, std::int64_t version) const {
  run.updated_at_millis = now_millis();
  Result<StoredRun> stored = to_stored_run(run, version + 1);
  if (!stored.ok()) return std::move(stored).error();
  return store().replace_run(*stored, version);
}

Result<RunDocument> RuntimeCore::update(std::string_view run_id, const RunChange& change) const {
  for (int attempt = 0; attempt < kMaxUpdateAttempts; ++attempt) {
    Result<LoadedRun> loaded = load(run_id);
    if (!loaded.ok()) return std::move(loaded).error();
    Result<Change> decided = change(loaded->run);
    if (!decided.ok()) return std::move(decided).error();
    if (*decided == Change::kKeep) return std::move(loaded->run);
    Result<bool> swapped = commit(loaded->run, loaded->version);
    if (!swapped.ok()) return std::move(swapped).error();
    if (*swapped) return std::move(loaded->run);
  }
  return Error::conflict("run_busy", "The run kept changing under this runtime; try again.");
}

}  // namespace codemode::internal
