// The kinds of execution the soak mixes. Each kind is a program, the worker it runs in, the budget
// its broker gets, whether it is cancelled mid-run, and the one outcome it must end with: the
// soak counts an execution whose outcome differs as a failure.
#ifndef CODEMODE_BENCH_SOAK_KINDS_H_
#define CODEMODE_BENCH_SOAK_KINDS_H_

#include <optional>
#include <string>
#include <vector>

#include "codemode/budget.h"
#include "codemode/code_mode.h"
#include "codemode/program.h"

#include "soak/outcome_key.h"
#include "soak/tools.h"

namespace codemode::soak {

enum class WorkerBinary { kStandard, kTestHooks };

// When the soak requests the execution's stop (cancellation.h).
enum class Cancellation {
  kNone,
  kDuringToolCall,  // a few ms into the program's first tool call, while the tool waits
  kAfterToolCall,   // a few ms after the first tool call answered, while the program computes
};

struct ExpectedOutcome {
  OutcomeKey key;              // status, code, rule
  std::optional<Json> output;  // compared exactly when set
};

struct SoakKind {
  std::string name;
  CodeProgram program;
  Json input;
  ExpectedOutcome expected;
  int weight = 1;  // share of the mix, out of the sum of all weights
  WorkerBinary worker = WorkerBinary::kStandard;
  BudgetLimits budget;
  Cancellation cancellation = Cancellation::kNone;
};

// Every kind, in a fixed order (a plan refers to kinds by index). An error only if a program
// definition is wrong, which is a bug in the soak.
Result<std::vector<SoakKind>> soak_kinds(const SoakTools& tools);

// Whether `outcome` is what `expected` says it must be.
bool matches(const ExpectedOutcome& expected, const CodeExecutionOutcome& outcome);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_KINDS_H_
