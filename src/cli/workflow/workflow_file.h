// WORKFLOW.json: a durable workflow as the command line reads it. Each phase names its program's
// source file and, optionally, a TOOLS.json file (command tools, the same format as `codemode run
// --tools`) and limit overrides; paths are relative to the workflow file.
//
//   {"id": "catalog.quote", "version": "1",
//    "scope": {"principalId": "local", "projectId": "demo"},
//    "approvers": ["alice"],
//    "maxCostMicros": 1000, "approvalTtlMs": 3600000,
//    "inputSchema": {...}, "outputSchema": {...},
//    "phases": [{"id": "price", "program": "price.js", "intent": "Price every item.",
//                "tools": "tools.json", "limits": {"maxToolCalls": 10},
//                "inputSchema": {...}, "outputSchema": {...},
//                "input": {"kind": "input", "path": []}, "dependsOn": []}],
//    "result": {"kind": "phase", "phaseId": "price", "path": []}}
//
// Required: id, version, scope, approvers (1..64 names: who may approve, see
// workflow_approver.h), maxCostMicros (each run's budget), phases (each with id, program, intent)
// and result. The schemas default to {} (any value), a phase's input to the whole workflow input;
// approvalTtlMs (how long an approval request stays open before it is issued again with a new
// digest) to an hour, 1 s .. 30 days. Optional approverKeys ({"alice": "alice.pub"}, PEM files
// relative to the workflow file) makes every decision need the approver's signature.
// Unknown fields are refused.
#ifndef CODEMODE_CLI_WORKFLOW_WORKFLOW_FILE_H_
#define CODEMODE_CLI_WORKFLOW_WORKFLOW_FILE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/workflow.h"

namespace codemode::cli {

struct WorkflowFile {
  DurableWorkflow workflow;
  Scope scope;  // the workflow's audit scope, and whom the command's runs act for
  std::int64_t max_cost_micros = 0;
  std::vector<std::string> approvers;
  // approverKeys: each approver's Ed25519 public key (PEM), read from the files it names; when
  // given, every decision must be signed (`approve --key`, workflow_runtime.h).
  std::map<std::string, std::string> approver_keys;
  std::chrono::milliseconds approval_ttl{3'600'000};
};

// Reads and checks the file. Usage errors (INVALID_CONFIG, rule "command_line") name the field;
// the definition's own errors keep their code and rule.
Result<WorkflowFile> load_workflow_file(const std::string& path);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_WORKFLOW_WORKFLOW_FILE_H_
