// A WorkflowStore that forwards every call to a real store: the base of the tests' store
// wrappers, which override only the calls they watch or change.
#ifndef CODEMODE_TESTS_WORKFLOW_FORWARDING_STORE_H_
#define CODEMODE_TESTS_WORKFLOW_FORWARDING_STORE_H_

#include <memory>
#include <utility>

#include "codemode/workflow_store.h"

namespace codemode::testing {

class ForwardingStore : public WorkflowStore {
 public:
  explicit ForwardingStore(std::shared_ptr<WorkflowStore> inner) : inner_(std::move(inner)) {}

  Status put_definition(std::string_view digest, std::string_view document) override {
    return inner_->put_definition(digest, document);
  }
  Result<std::optional<std::string>> get_definition(std::string_view digest) override {
    return inner_->get_definition(digest);
  }
  Status insert_run(const StoredRun& run) override { return inner_->insert_run(run); }
  Result<std::optional<StoredRun>> load_run(std::string_view run_id) override {
    return inner_->load_run(run_id);
  }
  Result<bool> replace_run(const StoredRun& run, std::int64_t expected_version) override {
    return inner_->replace_run(run, expected_version);
  }
  Result<std::vector<std::string>> list_runs(std::string_view scope_digest,
                                             std::size_t limit) override {
    return inner_->list_runs(scope_digest, limit);
  }
  Result<std::vector<std::string>> due_runs(std::string_view scope_digest,
                                            std::string_view policy_hash, std::int64_t now_millis,
                                            std::size_t limit) override {
    return inner_->due_runs(scope_digest, policy_hash, now_millis, limit);
  }
  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    return inner_->create_audit(audit);
  }
  Result<std::optional<StoredAudit>> read_audit(std::string_view scope_digest,
                                                std::string_view audit_id) override {
    return inner_->read_audit(scope_digest, audit_id);
  }

 private:
  std::shared_ptr<WorkflowStore> inner_;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_WORKFLOW_FORWARDING_STORE_H_
