#include "http/serve_until_stopped.h"

#include <charconv>

#include <signal.h>

namespace codemode::http {
namespace {

sigset_t stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

}  // namespace

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

void block_stop_signals() {
  const sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

void wait_for_stop_signal() {
  const sigset_t signals = stop_signals();
  int signal_number = 0;
  while (sigwait(&signals, &signal_number) != 0) {
  }
}

}  // namespace codemode::http
