// A raw HTTP/1.1 client over loopback sockets for the MCP HTTP tests: what goes on the wire is
// exactly what the test wrote.
#ifndef CODEMODE_TESTS_MCP_HTTP_TEST_CLIENT_H_
#define CODEMODE_TESTS_MCP_HTTP_TEST_CLIENT_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cstdint>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "core/unique_fd.h"

namespace codemode::mcp::testing {

using internal::UniqueFd;

inline UniqueFd connect_to(std::uint16_t port) {
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  EXPECT_EQ(::connect(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const timeval timeout{.tv_sec = 5, .tv_usec = 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  return fd;
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

// Sends `request` on a new connection and returns everything until the server closes it.
inline std::string round_trip(std::uint16_t port, std::string_view request) {
  UniqueFd fd = connect_to(port);
  send_text(fd, request);
  return read_to_end(fd);
}

}  // namespace codemode::mcp::testing

#endif  // CODEMODE_TESTS_MCP_HTTP_TEST_CLIENT_H_
