// What a runtime knows about its own phases that the store does not yet: a claim whose commit
// may or may not have landed, or an execution whose audit, receipt or completion could not be
// committed, because the store could not be reached (docs/workflows.md, "Store outages"). The
// next pass commits it (phase_runner.h, settle_unsettled); nothing is executed again. Kept in
// memory only: a runtime that dies with an unsettled phase leaves it to recovery, as a crash does.
#ifndef CODEMODE_WORKFLOW_RUN_UNSETTLED_PHASES_H_
#define CODEMODE_WORKFLOW_RUN_UNSETTLED_PHASES_H_

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/phase_audit.h"
#include "codemode/workflow.h"

namespace codemode::internal {

// What a claimed phase needs to run and settle.
struct ClaimedPhase {
  const DurableWorkflow* workflow = nullptr;  // owned by the RuntimeCore, which outlives it
  const DurableWorkflow::Phase* definition = nullptr;
  Json input;
  std::string execution_id;
};

// How an execution settles: the audit still to write, the usage charged to the ledger, and how
// the phase ends.
struct Settlement {
  std::optional<PhaseAudit> audit;  // none once written, or when none may be (unbound usage)
  std::int64_t known_micros = 0;
  std::int64_t unknown_micros = 0;
  bool succeeded = false;
  std::optional<Json> output;
  Error error = Error::tool_failed("phase_failed", "");
  OutcomeStatus status = OutcomeStatus::kFailed;
};

struct UnsettledPhase {
  std::string run_id;
  std::string phase_id;
  // The lease owner the claim wrote: one claim's own, so nothing else this runtime does can be
  // taken for it.
  std::string claim;
  // Set once the program ran; without it the claim may have landed but nothing was executed.
  std::optional<ClaimedPhase> claimed;
  std::optional<Settlement> settlement;
};

// Whether `error` says the store could not be reached or answer (a connection lost, a server
// down), rather than a refusal: the operation may be tried again as it is.
bool is_store_outage(const Error& error);

// Thread-safe: a phase is taken out by one caller at a time, and held again if it still cannot
// be settled.
class UnsettledPhases {
 public:
  void hold(UnsettledPhase phase);
  std::vector<UnsettledPhase> take_all();

 private:
  mutable std::mutex mutex_;
  std::vector<UnsettledPhase> phases_;  // guarded by mutex_
};

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_UNSETTLED_PHASES_H_
