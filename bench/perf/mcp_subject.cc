#include "perf/mcp_subject.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

#include <unistd.h>

namespace codemode::perf {
namespace {

namespace fs = std::filesystem;

constexpr std::chrono::seconds kStartTimeout{30};
// Above the code tool's 10 s wall limit, so a slow call is the server's answer, not ours.
constexpr std::chrono::seconds kCallTimeout{30};

Error unavailable(const std::string& reason) {
  return Error::unsupported_profile("mcp_unavailable", reason);
}

std::string first_line_of(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line.substr(0, 300);
}

Json config_json(const McpSubjectOptions& options, const fs::path& root) {
  Json config{{"repositories", {{"roots", {{"bench", root.string()}}}}}};
  if (options.mode == "code" && !options.sandbox.is_null()) config["sandbox"] = options.sandbox;
  return config;
}

}  // namespace

Result<std::unique_ptr<McpSubject>> McpSubject::create(const McpSubjectOptions& options) {
  if (access(options.cli_path.c_str(), X_OK) != 0) {
    return unavailable("The codemode CLI is not an executable file: " + options.cli_path);
  }
  std::string templ = (fs::temp_directory_path() / "codemode-bench-mcp-XXXXXX").string();
  if (mkdtemp(templ.data()) == nullptr) return unavailable("No temporary directory could be made.");
  std::unique_ptr<McpSubject> subject(new McpSubject(options.mode, templ));
  const fs::path dir(templ);
  const fs::path root = dir / "root";  // holds no repository: findRepositories walks one level
  std::error_code error;
  fs::create_directory(root, error);
  const fs::path config = dir / "codemode.json";
  std::ofstream(config) << config_json(options, root).dump() << "\n";
  if (error) return unavailable("The bench's MCP config could not be written.");
  std::vector<std::string> argv{options.cli_path, "mcp",    "--config",
                                config.string(),  "--mode", options.mode};
  if (options.mode == "code") {
    argv.insert(argv.end(), {"--worker", options.worker_path});
  }
  const fs::path log = dir / "stderr.log";
  Result<std::unique_ptr<McpStdioClient>> client =
      McpStdioClient::start(argv, log.string(), kStartTimeout);
  if (!client.ok()) {
    return unavailable("codemode mcp --mode " + options.mode +
                       " did not start: " + first_line_of(log));
  }
  subject->client_ = std::move(*client);
  return subject;
}

McpSubject::~McpSubject() {
  client_.reset();  // the server exits before its directory goes
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

bool McpSubject::supports(const Workload& workload) const {
  return workload.kind == (mode_ == "code" ? WorkloadKind::kMcpCode : WorkloadKind::kMcpDirect);
}

ExecutionResult McpSubject::run(const Workload& workload, std::size_t) {
  Result<Json> response = client_->request(
      "tools/call", {{"name", workload.mcp_tool}, {"arguments", workload.mcp_arguments}},
      kCallTimeout);
  if (!response.ok()) return {.succeeded = false, .failure = response.error().message};
  const Json& result = (*response)["result"];
  if (!result.is_object() || result.value("isError", false)) {
    return {.succeeded = false, .failure = "response " + response->dump().substr(0, 300)};
  }
  return judge_output(workload, result.value("structuredContent", Json()));
}

}  // namespace codemode::perf
