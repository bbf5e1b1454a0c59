// The audit record's format-2 invariants, on write and on read.
#include "codemode/phase_audit.h"

#include <gtest/gtest.h>

namespace codemode::testing {
namespace {

const std::string kRun(64, 'b');

PhaseAudit valid_audit() {
  const std::string execution = kRun + "/step:update:sandbox";
  return PhaseAudit{.run_id = kRun,
                    .phase_id = "update",
                    .execution_id = execution,
                    .program_digest = std::string(64, 'c'),
                    .outcome = OutcomeStatus::kSucceeded,
                    .evidence = {{.run_id = kRun,
                                  .receipt = {.call_id = execution + ":code:1",
                                              .tool_id = "external.write",
                                              .execution = ExecutionState::kSucceeded,
                                              .disclosure = Disclosure::kReleased}}},
                    .usage = {.tool_calls = 1,
                              .unknown_calls = 0,
                              .known_cost_micros = 3,
                              .unknown_cost_micros = 0,
                              .maximum_cost_micros = 6}};
}

TEST(PhaseAuditTest, RoundTripsExactlyItsEightFields) {
  Json json = to_json(valid_audit()).value();
  EXPECT_EQ(json.size(), 8u);
  EXPECT_EQ(json.at("format"), 2);
  EXPECT_FALSE(json.contains("programError"));
  EXPECT_FALSE(json.contains("output"));
  EXPECT_EQ(phase_audit_from_json(json).value(), valid_audit());
}

TEST(PhaseAuditTest, RefusesEveryBrokenInvariantOnWriteAndOnRead) {
  std::vector<std::pair<const char*, std::function<void(PhaseAudit&)>>> breaks{
      {"tool calls past 64", [](PhaseAudit& a) { a.usage.tool_calls = 65; }},
      {"unknown above calls", [](PhaseAudit& a) { a.usage.unknown_calls = 2; }},
      {"costs above the maximum", [](PhaseAudit& a) { a.usage.unknown_cost_micros = 4; }},
      {"negative cost", [](PhaseAudit& a) { a.usage.known_cost_micros = -1; }},
      {"more receipts than calls", [](PhaseAudit& a) { a.usage.tool_calls = 0; }},
      {"unknown calls without outcome_unknown", [](PhaseAudit& a) { a.usage.unknown_calls = 1; }},
      {"call id of another execution",
       [](PhaseAudit& a) { a.evidence[0].receipt.call_id = "other:code:1"; }},
      {"call number 0",
       [](PhaseAudit& a) { a.evidence[0].receipt.call_id = a.execution_id + ":code:0"; }},
      {"call number 65",
       [](PhaseAudit& a) { a.evidence[0].receipt.call_id = a.execution_id + ":code:65"; }},
      {"tool id", [](PhaseAudit& a) { a.evidence[0].receipt.tool_id = "not a tool"; }},
      {"evidence of another run",
       [](PhaseAudit& a) { a.evidence[0].run_id = std::string(64, 'd'); }},
      {"unknown receipts above unknown calls",
       [](PhaseAudit& a) { a.evidence[0].receipt.execution = ExecutionState::kUnknown; }},
      {"execution id", [](PhaseAudit& a) { a.execution_id = "x"; }},
      {"run id", [](PhaseAudit& a) { a.run_id = "run"; }},
      {"program digest", [](PhaseAudit& a) { a.program_digest = "abc"; }},
      {"phase id", [](PhaseAudit& a) { a.phase_id = "__proto__"; }},
  };
  for (const auto& [name, change] : breaks) {
    PhaseAudit audit = valid_audit();
    change(audit);
    Result<Json> written = to_json(audit);
    ASSERT_FALSE(written.ok()) << name;
    EXPECT_EQ(written.error().code, ErrorCode::kStorageUnavailable) << name;
  }
  const Json good = to_json(valid_audit()).value();
  std::vector<std::pair<const char*, std::function<void(Json&)>>> stored_breaks{
      {"format 1", [](Json& j) { j["format"] = 1; }},
      {"an extra key",
       [](Json& j) {
         j["programError"] = {{"name", "Error"}};
       }},
      {"a missing key", [](Json& j) { j.erase("usage"); }},
      {"a receipt with five keys", [](Json& j) { j["evidence"][0]["receipt"]["x"] = 1; }},
      {"a usage with a float", [](Json& j) { j["usage"]["knownCostMicros"] = 3.5; }},
      {"an unknown outcome name", [](Json& j) { j["outcome"] = "done"; }},
      {"an unknown execution", [](Json& j) { j["evidence"][0]["receipt"]["execution"] = "ran"; }},
  };
  for (const auto& [name, change] : stored_breaks) {
    Json json = good;
    change(json);
    Result<PhaseAudit> read = phase_audit_from_json(json);
    ASSERT_FALSE(read.ok()) << name;
    EXPECT_EQ(read.error().code, ErrorCode::kStorageUnavailable) << name;
  }
}

TEST(PhaseAuditTest, AcceptsUnknownCallsOnlyWithAnUnknownOutcome) {
  PhaseAudit audit = valid_audit();
  audit.evidence[0].receipt.execution = ExecutionState::kUnknown;
  audit.usage.unknown_calls = 1;
  audit.usage.known_cost_micros = 0;
  audit.usage.unknown_cost_micros = 3;
  EXPECT_FALSE(to_json(audit).ok());
  audit.outcome = OutcomeStatus::kOutcomeUnknown;
  EXPECT_TRUE(to_json(audit).ok());
}

}  // namespace
}  // namespace codemode::testing
