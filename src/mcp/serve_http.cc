#include "mcp/serve_http.h"

#include <charconv>

#include <signal.h>

namespace codemode::mcp {

Status parse_listen_address(const std::string& text, HttpServerOptions& options) {
  const std::size_t colon = text.rfind(':');
  unsigned port = 0;
  const char* end = text.data() + text.size();
  const auto parsed = colon == std::string::npos
                          ? std::from_chars_result{end, std::errc::invalid_argument}
                          : std::from_chars(text.data() + colon + 1, end, port);
  if (parsed.ec != std::errc() || parsed.ptr != end || colon + 1 == text.size() || port > 65535) {
    return Error::invalid_config("http_listen",
                                 "--listen must be HOST:PORT with an IPv4 address and a port.");
  }
  options.address = text.substr(0, colon);
  options.port = static_cast<std::uint16_t>(port);
  return {};
}

namespace {

sigset_t stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

}  // namespace

void block_stop_signals() {
  const sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

Status serve_http(McpServerOptions options, McpHttpOptions http,
                  const std::function<void(std::uint16_t port)>& on_listening) {
  // One capacity for every session: the caps are the server's, not each session's.
  if (!options.capacity) options.capacity = ServerCapacity::create(options.policy);
  auto transport = McpHttpTransport::start(std::move(http), [options](McpSendFn send) {
    return std::make_unique<McpServer>(options, std::move(send));
  });
  if (!transport.ok()) return std::move(transport).error();
  on_listening((*transport)->port());
  const sigset_t signals = stop_signals();
  int signal_number = 0;
  while (sigwait(&signals, &signal_number) != 0) {
  }
  return {};  // destroying the transport stops the HTTP server, then ends every session
}

}  // namespace codemode::mcp
