// A raw HTTP/1.1 client over loopback sockets for the HTTP tests (MCP transport, console): what
// goes on the wire is exactly what the test wrote.
#ifndef CODEMODE_TESTS_SUPPORT_HTTP_TEST_CLIENT_H_
#define CODEMODE_TESTS_SUPPORT_HTTP_TEST_CLIENT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <gtest/gtest.h>

#include "core/process/unique_fd.h"

namespace codemode::testing {

using internal::UniqueFd;

// A connection to 127.0.0.1:`port` from `source`, another loopback address (all of 127.0.0.0/8
// reaches this host), so that a test can be several clients.
inline UniqueFd connect_from(const char* source, std::uint16_t port) {
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source, &local.sin_addr);
  EXPECT_EQ(::bind(fd.get(), reinterpret_cast<sockaddr*>(&local), sizeof local), 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  EXPECT_EQ(::connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const timeval timeout{.tv_sec = 5, .tv_usec = 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  return fd;
}

inline UniqueFd connect_to(std::uint16_t port) { return connect_from("127.0.0.1", port); }

// Closes with a reset, as a client that crashed or was killed does: the server's next write to
// the connection fails.
inline void reset_connection(UniqueFd& fd) {
  const linger reset{.l_onoff = 1, .l_linger = 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
  fd.reset();
}

inline void send_text(const UniqueFd& fd, std::string_view text) {
  ASSERT_EQ(::send(fd.get(), text.data(), text.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(text.size()));
}

// Everything the server sends until it closes the connection (or 5 s pass).
inline std::string read_to_end(const UniqueFd& fd) {
  std::string text;
  char bytes[4096];
  ssize_t got;
  while ((got = ::recv(fd.get(), bytes, sizeof bytes, 0)) > 0) text.append(bytes, got);
  return text;
}

// Reads until `text` holds `marker` (or the connection ends).
inline std::string read_until(const UniqueFd& fd, std::string_view marker) {
  std::string text;
  char bytes[4096];
  ssize_t got;
  while (text.find(marker) == std::string::npos &&
         (got = ::recv(fd.get(), bytes, sizeof bytes, 0)) > 0) {
    text.append(bytes, got);
  }
  return text;
}

// Whether the server closed `fd`: end of file within 5 s, after whatever it still had to send.
inline bool closed_by_server(const UniqueFd& fd) {
  pollfd readable{.fd = fd.get(), .events = POLLIN, .revents = 0};
  char bytes[4096];
  while (::poll(&readable, 1, 5000) > 0) {
    const ssize_t got = ::recv(fd.get(), bytes, sizeof bytes, 0);
    if (got <= 0) return got == 0;
  }
  return false;
}

// Sends `request` on a new connection and returns everything until the server closes it.
inline std::string round_trip(std::uint16_t port, std::string_view request) {
  UniqueFd fd = connect_to(port);
  send_text(fd, request);
  return read_to_end(fd);
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_HTTP_TEST_CLIENT_H_
