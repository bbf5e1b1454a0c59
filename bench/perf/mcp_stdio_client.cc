#include "perf/mcp_stdio_client.h"

#include <cerrno>
#include <csignal>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace codemode::perf {
namespace {

using Clock = std::chrono::steady_clock;

Error client_error(const std::string& message) { return Error::tool_failed("mcp_client", message); }

// The latest protocol version codemode serves (docs/mcp.md).
constexpr std::string_view kProtocolVersion = "2025-11-25";

}  // namespace

Result<std::unique_ptr<McpStdioClient>> McpStdioClient::start(const std::vector<std::string>& argv,
                                                              const std::string& stderr_path,
                                                              std::chrono::milliseconds timeout) {
  // O_CLOEXEC, so no other child of the bench inherits our ends (it would hold the server's stdin
  // open past our destructor).
  int in[2];
  int out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return client_error("A pipe could not be made.");
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return client_error("A pipe could not be made.");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0600);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (spawned != 0) {
    close(in[1]);
    close(out[0]);
    return client_error("codemode mcp could not be started.");
  }
  std::unique_ptr<McpStdioClient> client(new McpStdioClient(pid, in[1], out[0]));
  Result<Json> initialized =
      client->request("initialize",
                      {{"protocolVersion", kProtocolVersion},
                       {"capabilities", Json::object()},
                       {"clientInfo", {{"name", "codemode-bench"}, {"version", "1"}}}},
                      timeout);
  if (!initialized.ok() || !initialized->contains("result")) {
    return client_error("codemode mcp did not answer initialize (its stderr: " + stderr_path +
                        ").");
  }
  if (!client->send_line(
          Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump())) {
    return client_error("codemode mcp closed its stdin after initialize.");
  }
  return client;
}

McpStdioClient::McpStdioClient(pid_t pid, int to_server, int from_server)
    : pid_(pid), to_server_(to_server), from_server_(from_server) {
  reader_ = std::thread([this] { read_responses(); });
}

McpStdioClient::~McpStdioClient() {
  close(to_server_);  // end of input: the server stops its calls and exits
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() >= deadline) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    usleep(1000);
  }
  {
    std::lock_guard lock(mu_);
    closed_ = true;  // also stops the reader should a descendant still hold the server's stdout
  }
  reader_.join();
  close(from_server_);
}

bool McpStdioClient::send_line(const std::string& line) {
  std::string data = line + "\n";
  std::string_view rest = data;
  while (!rest.empty()) {
    const ssize_t n = write(to_server_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

Result<Json> McpStdioClient::request(const std::string& method, const Json& params,
                                     std::chrono::milliseconds timeout) {
  std::int64_t id = 0;
  {
    std::lock_guard lock(write_mu_);
    id = next_id_++;
    const Json message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    if (!send_line(message.dump())) return client_error("codemode mcp closed its stdin.");
  }
  std::unique_lock lock(mu_);
  const bool arrived =
      answered_.wait_for(lock, timeout, [&] { return closed_ || responses_.contains(id); });
  const auto found = responses_.find(id);
  if (found == responses_.end()) {
    return client_error(arrived ? "codemode mcp closed its stdout." : "no response in time");
  }
  Json response = std::move(found->second);
  responses_.erase(found);
  return response;
}

void McpStdioClient::read_responses() {
  std::string buffer;
  char chunk[65536];
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (closed_) return;
    }
    // A bounded wait, so that the destructor's closed_ stops this loop even if the pipe stays open.
    pollfd fd{from_server_, POLLIN, 0};
    const int ready = poll(&fd, 1, 100);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = read(from_server_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    std::size_t newline = 0;
    while ((newline = buffer.find('\n')) != std::string::npos) {
      Json message = Json::parse(std::string_view(buffer).substr(0, newline), nullptr,
                                 /*allow_exceptions=*/false);
      buffer.erase(0, newline + 1);
      // Only responses to our requests matter: notifications (progress) carry no integer id.
      if (!message.is_object() || !message.contains("id") || !message["id"].is_number_integer()) {
        continue;
      }
      const std::int64_t id = message["id"].get<std::int64_t>();
      std::lock_guard lock(mu_);
      responses_[id] = std::move(message);
      answered_.notify_all();
    }
  }
  std::lock_guard lock(mu_);
  closed_ = true;
  answered_.notify_all();
}

}  // namespace codemode::perf
