#include "cli/workflow/workflow_console.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "cli/cli_io.h"
#include "cli/workflow/workflow_approver.h"
#include "console/console_server.h"
#include "core/crypto/random_hex.h"
#include "http/http_access.h"
#include "http/serve_until_stopped.h"

namespace codemode::cli {

int serve_console(std::shared_ptr<WorkflowRuntime> runtime, const WorkflowFile& file,
                  const WorkflowArguments& arguments) {
  http::HttpServerOptions listen;
  if (Status parsed = http::parse_listen_address(arguments.listen, listen); !parsed.ok()) {
    print_usage_error(parsed.error());
    return kExitUsageError;
  }
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in this process changes its environment
  const char* from_environment = std::getenv("CODEMODE_CONSOLE_TOKEN");
  std::string token = from_environment != nullptr ? from_environment : "";
  const bool generated = token.empty();
  if (generated) {
    if (!http::is_loopback_address(listen.address)) {
      print_usage_error(usage_error(
          "A console on an address that is not loopback needs CODEMODE_CONSOLE_TOKEN (32 to 256 "
          "characters of A-Z a-z 0-9 . _ ~ -), and should be reached through a TLS proxy "
          "(--public-origin)."));
      return kExitUsageError;
    }
    token = internal::random_hex(24);
  }
  const std::string person = current_login();
  std::string signing_key;
  if (arguments.key_path) {
    Result<std::string> key = read_approver_key(*arguments.key_path);
    if (!key.ok()) {
      print_usage_error(key.error());
      return kExitUsageError;
    }
    signing_key = std::move(*key);
  }
  Result<std::unique_ptr<console::ConsoleServer>> server = console::ConsoleServer::start(
      {.runtime = std::move(runtime),
       .workflow_id = file.workflow.id(),
       .person = person,
       .credential = person,
       .signing_key_pem = std::move(signing_key),
       .access_token = token,
       .public_origin = arguments.public_origin,
       .http = listen,
       .poll_interval = std::chrono::milliseconds(arguments.poll_millis),
       .work = arguments.work,
       .on_worker_event = log_worker_event});
  if (!server.ok()) {
    print_usage_error(server.error());
    return server.error().code == ErrorCode::kInvalidConfig ? kExitUsageError : kExitFailed;
  }
  const std::string base =
      "http://" + listen.address + ":" + std::to_string((*server)->port()) + "/";
  // A token of the caller's own (CODEMODE_CONSOLE_TOKEN) is never printed: they know it, and
  // output ends up in logs.
  Json started{{"console", base}};
  started["login"] =
      generated ? base + "login?token=" + token : base + "login?token=<CODEMODE_CONSOLE_TOKEN>";
  print_json_line(started);
  std::fflush(stdout);
  http::wait_for_stop_signal();
  return kExitSucceeded;
}

}  // namespace codemode::cli
