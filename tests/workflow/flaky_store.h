// A real store that fails as one that cannot be reached does (STORAGE_UNAVAILABLE, rule
// "store_io", the error both SQL stores give a lost connection), when and where a test says:
// everything while it is `down`, or one chosen write, either before it reaches the store or after
// it landed (the answer lost on the way back). The test double of an outage for the cases a real
// server cannot be stopped at exactly (tests/cli/workflow_outage_test.cc stops a real one).
#ifndef CODEMODE_TESTS_WORKFLOW_FLAKY_STORE_H_
#define CODEMODE_TESTS_WORKFLOW_FLAKY_STORE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "codemode/json.h"

#include "workflow/forwarding_store.h"

namespace codemode::testing {

inline Error unreachable() {
  return Error::storage_unavailable("store_io", "The workflow store could not be read or written.");
}

class FlakyStore final : public ForwardingStore {
 public:
  // Where a failing write fails: before the store has it, or after it committed.
  enum class Lost { kRequest, kAnswer };
  // Decides, for a run document about to be swapped in, whether this swap fails and how.
  using ReplaceFault = std::function<std::optional<Lost>(const Json& document)>;

  using ForwardingStore::ForwardingStore;

  // Every call fails while true.
  std::atomic<bool> down{false};
  // Only due_runs fails while true: a worker's passes fail, while what a view reads works.
  std::atomic<bool> due_runs_down{false};
  // Calls that failed, of every kind.
  std::atomic<int> failures{0};
  // Writes that reached the real store (put_definition, insert_run, replace_run, create_audit).
  std::atomic<int> writes{0};
  // How many create_audit calls fail (before reaching the store) from now on.
  std::atomic<int> audit_failures{0};

  // The first swap `fault` picks fails (and only that one): the fault is dropped once it fired.
  void fail_one_replace(ReplaceFault fault) {
    std::lock_guard lock(mutex_);
    replace_fault_ = std::move(fault);
  }

  Status put_definition(std::string_view digest, std::string_view document) override {
    if (down) return fail();
    ++writes;
    return ForwardingStore::put_definition(digest, document);
  }
  Result<std::optional<std::string>> get_definition(std::string_view digest) override {
    if (down) return fail();
    return ForwardingStore::get_definition(digest);
  }
  Status insert_run(const StoredRun& run) override {
    if (down) return fail();
    ++writes;
    return ForwardingStore::insert_run(run);
  }
  Result<std::optional<StoredRun>> load_run(std::string_view run_id) override {
    if (down) return fail();
    return ForwardingStore::load_run(run_id);
  }
  Result<bool> replace_run(const StoredRun& run, std::int64_t expected_version) override {
    if (down) return fail();
    std::optional<Lost> lost;
    {
      std::lock_guard lock(mutex_);
      if (replace_fault_) lost = replace_fault_(Json::parse(run.document));
      if (lost) replace_fault_ = nullptr;
    }
    if (lost == Lost::kRequest) return fail();
    ++writes;
    Result<bool> swapped = ForwardingStore::replace_run(run, expected_version);
    if (lost == Lost::kAnswer) return fail();
    return swapped;
  }
  Result<std::vector<std::string>> list_runs(std::string_view scope_digest,
                                             std::size_t limit) override {
    if (down) return fail();
    return ForwardingStore::list_runs(scope_digest, limit);
  }
  Result<std::vector<std::string>> due_runs(std::string_view scope_digest,
                                            std::string_view policy_hash, std::int64_t now_millis,
                                            std::size_t limit) override {
    if (down || due_runs_down) return fail();
    return ForwardingStore::due_runs(scope_digest, policy_hash, now_millis, limit);
  }
  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    if (down || take_audit_failure()) return fail();
    ++writes;
    return ForwardingStore::create_audit(audit);
  }
  Result<std::optional<StoredAudit>> read_audit(std::string_view scope_digest,
                                                std::string_view audit_id) override {
    if (down) return fail();
    return ForwardingStore::read_audit(scope_digest, audit_id);
  }

 private:
  bool take_audit_failure() {
    int left = audit_failures.load();
    while (left > 0 && !audit_failures.compare_exchange_weak(left, left - 1)) {
    }
    return left > 0;
  }
  Error fail() {
    ++failures;
    return unreachable();
  }

  std::mutex mutex_;
  ReplaceFault replace_fault_;  // guarded by mutex_
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_WORKFLOW_FLAKY_STORE_H_
