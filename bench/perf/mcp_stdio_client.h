// McpStdioClient: a real `codemode mcp` process driven as an MCP client drives it over stdio:
// newline-delimited JSON-RPC 2.0 on its stdin and stdout (docs/mcp.md). start() spawns it, sends
// `initialize` and `notifications/initialized`; request() then sends one request and waits for the
// response with its id. A reader thread hands each response to the request waiting for it, so two
// requests may be in flight at once (the bench's concurrency-2 pass), as a client would send them.
//
// Ownership: destroying the client closes the server's stdin (how MCP clients stop a stdio server),
// waits for it to exit, and reaps it; a server still running after 10 s is killed.
// Thread-safety: request() may be called from several threads at once.
#ifndef CODEMODE_BENCH_PERF_MCP_STDIO_CLIENT_H_
#define CODEMODE_BENCH_PERF_MCP_STDIO_CLIENT_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::perf {

class McpStdioClient {
 public:
  // Spawns argv (argv[0] a path) with its stderr appended to `stderr_path`, then initializes.
  // Fails (rule "mcp_client") when the process cannot be started or does not answer `initialize`
  // within `timeout`.
  static Result<std::unique_ptr<McpStdioClient>> start(const std::vector<std::string>& argv,
                                                       const std::string& stderr_path,
                                                       std::chrono::milliseconds timeout);
  ~McpStdioClient();
  McpStdioClient(const McpStdioClient&) = delete;
  McpStdioClient& operator=(const McpStdioClient&) = delete;

  // Sends {method, params} with a fresh id and returns the response (the whole message: `result`
  // or `error`). Fails when the server's stdout ends or no response comes within `timeout`.
  Result<Json> request(const std::string& method, const Json& params,
                       std::chrono::milliseconds timeout);

 private:
  McpStdioClient(pid_t pid, int to_server, int from_server);
  void read_responses();
  bool send_line(const std::string& line);

  const pid_t pid_;
  const int to_server_;    // the server's stdin; writes are serialized by write_mu_
  const int from_server_;  // the server's stdout; read only by reader_
  std::mutex write_mu_;
  std::mutex mu_;  // guards responses_ and closed_
  std::condition_variable answered_;
  std::map<std::int64_t, Json> responses_;  // by id, until their request takes them
  bool closed_ = false;                     // the server's stdout ended
  std::int64_t next_id_ = 1;                // guarded by write_mu_
  std::thread reader_;
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_MCP_STDIO_CLIENT_H_
