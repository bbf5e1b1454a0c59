#include "cli/workflow/workflow_subcommand.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "codemode/phase_audit.h"
#include "codemode/rules.h"

#include "cli/cli_io.h"
#include "cli/workflow/workflow_approver.h"
#include "cli/workflow/workflow_console.h"
#include "core/text/enum_names.h"
#include "http/serve_until_stopped.h"

namespace codemode::cli {
namespace {

constexpr std::size_t kMaxInputBytes = (16u << 20) + (64u << 10);

constexpr internal::EnumNames<WorkflowCommand, 9> kCommandNames{{
    {WorkflowCommand::kStart, "start"},
    {WorkflowCommand::kList, "list"},
    {WorkflowCommand::kStatus, "status"},
    {WorkflowCommand::kPending, "pending"},
    {WorkflowCommand::kApprove, "approve"},
    {WorkflowCommand::kReject, "reject"},
    {WorkflowCommand::kInspect, "inspect"},
    {WorkflowCommand::kWorker, "worker"},
    {WorkflowCommand::kConsole, "console"},
}};
static_assert(internal::names_are_unique(kCommandNames));

}  // namespace

void log_worker_event(const WorkerEvent& event) {
  Json line;
  if (event.kind == WorkerEvent::Kind::kFailing) {
    line = Json{{"event", "workflow_worker_failing"},
                {"error",
                 {{"code", to_string(event.error->code)},
                  {"rule", event.error->rule},
                  {"message", event.error->message}}},
                {"retryInMillis", event.retry_in.count()}};
  } else {
    line = Json{{"event", "workflow_worker_recovered"},
                {"failedPasses", event.failed_passes},
                {"failingMillis", event.failing_for.count()}};
  }
  std::fputs((line.dump() + "\n").c_str(), stderr);
  std::fflush(stderr);
}

namespace {

// Prints a refused operation's error on stderr; exit status 1.
int refused(const Error& error) {
  print_usage_error(error);
  return kExitFailed;
}

Result<Json> load_input(const WorkflowArguments& arguments) {
  if (arguments.input_json) {
    return parse_json_argument(*arguments.input_json, kMaxInputBytes, "--input");
  }
  if (!arguments.input_file) return Json(nullptr);
  Result<std::string> text = read_file(*arguments.input_file, kMaxInputBytes, "--input-file");
  if (!text.ok()) return std::move(text).error();
  return parse_json_argument(*text, kMaxInputBytes, "--input-file");
}

Json pending_json(const std::vector<ApprovalRequest>& requests) {
  Json list = Json::array();
  for (const ApprovalRequest& request : requests) list.push_back(to_json(request));
  return Json{{"pending", std::move(list)}};
}

int start(WorkflowRuntime& runtime, const WorkflowFile& file, const WorkflowArguments& arguments) {
  Result<Json> input = load_input(arguments);
  if (!input.ok()) {
    print_usage_error(input.error());
    return kExitUsageError;
  }
  Result<std::string> run = runtime.start(file.workflow, *input);
  if (!run.ok()) return refused(run.error());
  Result<RunView> view = runtime.status(*run);
  Result<std::vector<ApprovalRequest>> pending = runtime.pending(*run);
  if (!view.ok()) return refused(view.error());
  if (!pending.ok()) return refused(pending.error());
  Json json = to_json(*view);
  json["pending"] = pending_json(*pending).at("pending");
  print_json_line(json);
  return kExitSucceeded;
}

Result<std::string> sign_with_key_file(const std::string& path, const std::string& message) {
  Result<std::string> key = read_approver_key(path);
  if (!key.ok()) return std::move(key).error();
  return sign_decision(*key, message);
}

int decide(WorkflowRuntime& runtime, const WorkflowArguments& arguments) {
  std::string approver = arguments.approver.value_or("");
  if (!arguments.approver) {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in this process changes its environment
    const char* from_environment = std::getenv("CODEMODE_APPROVER");
    if (from_environment != nullptr) approver = from_environment;
  }
  if (approver.empty()) {
    print_usage_error(usage_error("approve and reject need --as NAME or CODEMODE_APPROVER."));
    return kExitUsageError;
  }
  const Decision decision =
      arguments.command == WorkflowCommand::kApprove ? Decision::kApprove : Decision::kReject;
  std::string signature;
  if (arguments.key_path) {
    Result<std::string> signed_decision = sign_with_key_file(
        *arguments.key_path, decision_message(arguments.run_id, arguments.phase_id,
                                              arguments.digest, decision, approver));
    if (!signed_decision.ok()) return refused(signed_decision.error());
    signature = std::move(*signed_decision);
  }
  Status decided = decision == Decision::kApprove
                       ? runtime.approve(arguments.run_id, arguments.phase_id, arguments.digest,
                                         approver, signature)
                       : runtime.reject(arguments.run_id, arguments.phase_id, arguments.digest,
                                        approver, signature);
  if (!decided.ok()) return refused(decided.error());
  Result<RunView> view = runtime.status(arguments.run_id);
  if (!view.ok()) return refused(view.error());
  print_json_line(to_json(*view));
  return kExitSucceeded;
}

// The loop until SIGINT or SIGTERM; its failures and recoveries are logged on stderr as they
// happen (log_worker_event), and a failure never ends it. --once: one pass, whose failure is the
// command's.
int work(WorkflowRuntime& runtime, const WorkflowArguments& arguments) {
  if (arguments.once) {
    Result<std::size_t> ran = runtime.work_once();
    if (!ran.ok()) return refused(ran.error());
    print_json_line(Json{{"executed", *ran}});
    return kExitSucceeded;
  }
  std::optional<Result<std::size_t>> executed;
  std::jthread loop([&](std::stop_token stop) {
    executed =
        runtime.work(stop, {.poll_interval = std::chrono::milliseconds(arguments.poll_millis),
                            .report = log_worker_event});
  });
  http::wait_for_stop_signal();
  loop.request_stop();
  loop.join();
  if (!executed->ok()) return refused(executed->error());
  print_json_line(Json{{"executed", **executed}});
  return kExitSucceeded;
}

int print_runs(WorkflowRuntime& runtime) {
  Result<std::vector<RunView>> runs = runtime.list();
  if (!runs.ok()) return refused(runs.error());
  Json list = Json::array();
  for (const RunView& run : *runs) list.push_back(to_json(run));
  print_json_line(Json{{"runs", std::move(list)}});
  return kExitSucceeded;
}

int print_status(WorkflowRuntime& runtime, const WorkflowArguments& arguments) {
  Result<RunView> view = runtime.status(arguments.run_id);
  if (!view.ok()) return refused(view.error());
  print_json_line(to_json(*view));
  return kExitSucceeded;
}

int print_pending(WorkflowRuntime& runtime, const WorkflowArguments& arguments) {
  // A person runs this to get something to approve: what lapsed or went stale is asked again
  // first, as a worker's loop would.
  if (Result<std::size_t> reissued = runtime.reissue(arguments.run_id); !reissued.ok()) {
    return refused(reissued.error());
  }
  Result<std::vector<ApprovalRequest>> pending = runtime.pending(arguments.run_id);
  if (!pending.ok()) return refused(pending.error());
  print_json_line(pending_json(*pending));
  return kExitSucceeded;
}

int print_audit(WorkflowRuntime& runtime, const WorkflowArguments& arguments) {
  Result<std::optional<PhaseAudit>> audit = runtime.inspect(arguments.run_id, arguments.phase_id);
  if (!audit.ok()) return refused(audit.error());
  Json json = Json{{"audit", nullptr}};
  if (audit->has_value()) {
    Result<Json> record = to_json(**audit);
    if (!record.ok()) return refused(record.error());
    json["audit"] = std::move(*record);
  }
  print_json_line(json);
  return kExitSucceeded;
}

int dispatch(WorkflowRuntime& runtime, const WorkflowFile& file,
             const WorkflowArguments& arguments) {
  switch (arguments.command) {
    case WorkflowCommand::kStart:
      return start(runtime, file, arguments);
    case WorkflowCommand::kApprove:
    case WorkflowCommand::kReject:
      return decide(runtime, arguments);
    case WorkflowCommand::kWorker:
      return work(runtime, arguments);
    case WorkflowCommand::kList:
      return print_runs(runtime);
    case WorkflowCommand::kStatus:
      return print_status(runtime, arguments);
    case WorkflowCommand::kPending:
      return print_pending(runtime, arguments);
    case WorkflowCommand::kInspect:
      return print_audit(runtime, arguments);
    case WorkflowCommand::kConsole:
      break;  // served by run_workflow_command, never dispatched
  }
  return kExitUsageError;
}

// One subcommand of `codemode workflow`, with the options every one of them takes.
CLI::App* add_command(CLI::App& workflow, WorkflowArguments& arguments, WorkflowCommand which,
                      const std::string& description) {
  CLI::App* command =
      workflow.add_subcommand(std::string(internal::name_of(kCommandNames, which)), description);
  command
      ->add_option("WORKFLOW", arguments.workflow_path,
                   "The WORKFLOW.json file (see docs/workflows.md).")
      ->required();
  command->add_option("--store", arguments.host.store_url,
                      "Where runs are kept: sqlite:PATH (default sqlite:codemode-workflows.db) or "
                      "postgresql://...; the URL is read from here only, so prefer a password "
                      "file (PGPASSFILE) to a password in it.");
  command->add_option("--worker", arguments.host.worker_path,
                      "The codemode-worker binary (default: next to libcodemode).");
  CLI::Option* isolation =
      command
          ->add_option("--isolation", arguments.host.isolation,
                       "The worker's confinement: process (default) or isolated.")
          ->transform(CLI::CheckedTransformer(std::map<std::string, IsolationProfile>{
              {"process", IsolationProfile::kProcess}, {"isolated", IsolationProfile::kIsolated}}));
  command
      ->add_option("--sandbox", arguments.host.sandbox_path,
                   "SANDBOX.json: where phases run, as `codemode run --sandbox` takes it (a "
                   "docker or protocol sandbox, docs/mcp.md). Instead of --isolation.")
      ->excludes(isolation);
  command->callback([&arguments, which] { arguments.command = which; });
  return command;
}

}  // namespace

CLI::App* add_workflow_subcommand(CLI::App& app, WorkflowArguments& arguments) {
  CLI::App* workflow = app.add_subcommand(
      "workflow",
      "Durable code workflows: each phase is a program a person approves by its exact digest "
      "before it runs; every execution leaves an audit record. Prints one JSON line on stdout. "
      "Exit status: 0 done, 1 refused (one JSON line on stderr), 2 usage error.");
  workflow->require_subcommand(1);
  CLI::App* start = add_command(*workflow, arguments, WorkflowCommand::kStart,
                                "Start a run; its first phases wait for approval.");
  CLI::Option* input =
      start->add_option("--input", arguments.input_json, "The run's input as JSON text.");
  start->add_option("--input-file", arguments.input_file, "Read the run's input from FILE.")
      ->excludes(input);
  add_command(*workflow, arguments, WorkflowCommand::kList,
              "The runs of the workflow's scope, newest first.");
  add_command(*workflow, arguments, WorkflowCommand::kStatus,
              "One run: status, output, ledger and phases.")
      ->add_option("RUN", arguments.run_id, "The run id.")
      ->required();
  add_command(*workflow, arguments, WorkflowCommand::kPending,
              "Every phase waiting for approval: intent, tools and effects, what each tool runs "
              "(its command and files' digests), limits, input, source and the approval digest.")
      ->add_option("RUN", arguments.run_id, "Only this run's.");
  for (WorkflowCommand which : {WorkflowCommand::kApprove, WorkflowCommand::kReject}) {
    CLI::App* decide =
        add_command(*workflow, arguments, which,
                    which == WorkflowCommand::kApprove
                        ? "Approve a phase by its exact approval digest; a worker then runs it."
                        : "Reject a phase by its approval digest; the run ends blocked.");
    decide->add_option("RUN", arguments.run_id, "The run id.")->required();
    decide->add_option("PHASE", arguments.phase_id, "The phase id.")->required();
    decide->add_option("DIGEST", arguments.digest, "The approval digest `pending` printed.")
        ->required();
    decide->add_option("--as", arguments.approver,
                       "Who decides (default: $CODEMODE_APPROVER). Must be the login name of the "
                       "account running the command and listed in the workflow's approvers.");
    decide->add_option("--key", arguments.key_path,
                       "Your Ed25519 private key (PEM) to sign the decision with; required when "
                       "the workflow lists approverKeys.");
  }
  CLI::App* inspect = add_command(*workflow, arguments, WorkflowCommand::kInspect,
                                  "A phase's audit record (null if none).");
  inspect->add_option("RUN", arguments.run_id, "The run id.")->required();
  inspect->add_option("PHASE", arguments.phase_id, "The phase id.")->required();
  CLI::App* worker = add_command(
      *workflow, arguments, WorkflowCommand::kWorker,
      "Execute approved phases until stopped (SIGINT/SIGTERM), recovering phases whose runtime "
      "died without running them again; prints {\"executed\": N} when it stops. A pass that "
      "fails (the store away) is retried after 200 ms doubling to 5 s, and logged on stderr once "
      "when passes start failing and once when they work again.");
  worker->add_flag("--once", arguments.once, "One pass over the due runs, then exit.");
  worker->add_option("--poll-ms", arguments.poll_millis, "Wait between idle passes (default 500).")
      ->check(CLI::Range(10, 60'000));
  CLI::App* console = add_command(
      *workflow, arguments, WorkflowCommand::kConsole,
      "Serve the approvals console until stopped: a web page listing the runs, where you review "
      "a phase (intent, highlighted source, input, tools and what they run, limits, digest) and "
      "approve or reject "
      "its exact digest, and read finished phases' audit records (docs/console.md). Prints "
      "{\"console\", \"login\"}: open the login URL. You decide as the account running it.");
  console->add_option("--listen", arguments.listen,
                      "HOST:PORT to serve on (default 127.0.0.1:8809; port 0: any free port). An "
                      "address that is not loopback needs CODEMODE_CONSOLE_TOKEN.");
  console->add_option("--public-origin", arguments.public_origin,
                      "The page's origin behind a TLS proxy (https://approvals.example): decisions "
                      "from it are accepted.");
  console->add_flag("--work", arguments.work,
                    "Also execute approved phases, as `codemode workflow worker` does.");
  console->add_option("--key", arguments.key_path,
                      "Your Ed25519 private key (PEM) to sign your decisions with; required when "
                      "the workflow lists approverKeys.");
  console
      ->add_option("--poll-ms", arguments.poll_millis,
                   "How often live updates and --work look for changes (default 500).")
      ->check(CLI::Range(10, 60'000));
  return workflow;
}

int run_workflow_command(const WorkflowArguments& arguments) {
  // Before any thread starts, and first, so that a stop requested while a worker or the console
  // starts still ends it cleanly.
  if ((arguments.command == WorkflowCommand::kWorker && !arguments.once) ||
      arguments.command == WorkflowCommand::kConsole) {
    http::block_stop_signals();
  }
  Result<WorkflowFile> file = load_workflow_file(arguments.workflow_path);
  if (!file.ok()) {
    print_usage_error(file.error());
    return kExitUsageError;
  }
  Result<std::unique_ptr<WorkflowRuntime>> runtime = make_workflow_runtime(*file, arguments.host);
  if (!runtime.ok() && runtime.error().rule == rules::kCommandLine) {  // a bad --sandbox file
    print_usage_error(runtime.error());
    return kExitUsageError;
  }
  if (!runtime.ok()) return refused(runtime.error());
  if (arguments.command == WorkflowCommand::kConsole) {
    return serve_console(std::shared_ptr<WorkflowRuntime>(std::move(*runtime)), *file, arguments);
  }
  return dispatch(**runtime, *file, arguments);
}

}  // namespace codemode::cli
