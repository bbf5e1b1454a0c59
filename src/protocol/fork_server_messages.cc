#include "protocol/fork_server_messages.h"

#include <cstring>
#include <string_view>
#include <utility>

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>

namespace codemode::internal {
namespace {

constexpr std::string_view kRequestTag = "fork";
constexpr std::string_view kChildTag = "chld";
constexpr std::string_view kFailTag = "fail";
constexpr std::size_t kTagBytes = 4;

Error fork_server_error() {
  return Error::tool_failed("fork_server_failed",
                            "The fork server did not answer as its protocol says.");
}

using Message = std::array<char, kForkMessageBytes>;

Message message(std::string_view tag, std::uint32_t value) {
  Message out{};
  std::memcpy(out.data(), tag.data(), kTagBytes);
  std::memcpy(out.data() + kTagBytes, &value, sizeof value);
  return out;
}

std::string_view tag_of(const Message& in) { return std::string_view(in.data(), kTagBytes); }

std::uint32_t value_of(const Message& in) {
  std::uint32_t value = 0;
  std::memcpy(&value, in.data() + kTagBytes, sizeof value);
  return value;
}

// Control space for exactly kForkRequestFds fds, aligned as cmsghdr needs.
union FdControl {
  char bytes[CMSG_SPACE(sizeof(int) * kForkRequestFds)];
  cmsghdr align;
};

// Takes ownership of every fd in the control data, whatever else is wrong with the message.
ChildStdio take_fds(msghdr& header, std::size_t& count) {
  ChildStdio fds;
  count = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&header); c; c = CMSG_NXTHDR(&header, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < n; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      UniqueFd owned(fd);
      if (count < kForkRequestFds) fds[count] = std::move(owned);  // else closed here
      ++count;
    }
  }
  return fds;
}

}  // namespace

Status send_fork_request(int socket, const std::array<int, kForkRequestFds>& child_stdio) {
  Message body = message(kRequestTag, kForkServerVersion);
  iovec data{body.data(), body.size()};
  FdControl control{};
  msghdr header{};
  header.msg_iov = &data;
  header.msg_iovlen = 1;
  header.msg_control = control.bytes;
  header.msg_controllen = sizeof control.bytes;
  cmsghdr* c = CMSG_FIRSTHDR(&header);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * kForkRequestFds);
  std::memcpy(CMSG_DATA(c), child_stdio.data(), sizeof(int) * kForkRequestFds);
  ssize_t sent;
  do {
    sent = sendmsg(socket, &header, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent != static_cast<ssize_t>(body.size())) return fork_server_error();
  return {};
}

Result<ChildStdio> receive_fork_request(int socket, bool* closed) {
  *closed = false;
  // One byte more than a request: a longer message is then too long (or truncated), never equal.
  char body[kForkMessageBytes + 1];
  iovec data{body, sizeof body};
  FdControl control{};
  msghdr header{};
  header.msg_iov = &data;
  header.msg_iovlen = 1;
  header.msg_control = control.bytes;
  header.msg_controllen = sizeof control.bytes;
  ssize_t got;
  do {
    got = recvmsg(socket, &header, MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  std::size_t fd_count = 0;
  ChildStdio fds = take_fds(header, fd_count);
  if (got == 0) *closed = true;
  Message in{};
  if (got == static_cast<ssize_t>(kForkMessageBytes)) std::memcpy(in.data(), body, in.size());
  const bool well_formed = got == static_cast<ssize_t>(kForkMessageBytes) &&
                           (header.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) == 0 &&
                           fd_count == kForkRequestFds && tag_of(in) == kRequestTag &&
                           value_of(in) == kForkServerVersion;
  if (!well_formed) return fork_server_error();
  return fds;
}

Status send_fork_reply(int socket, pid_t pid, int error_number) {
  const Message body = pid > 0 ? message(kChildTag, static_cast<std::uint32_t>(pid))
                               : message(kFailTag, static_cast<std::uint32_t>(error_number));
  ssize_t sent;
  do {
    sent = send(socket, body.data(), body.size(), MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent != static_cast<ssize_t>(body.size())) return fork_server_error();
  return {};
}

Result<pid_t> receive_fork_reply(int socket, int timeout_millis, bool* server_lost) {
  *server_lost = true;
  pollfd ready{socket, POLLIN, 0};
  int polled;
  do {
    polled = poll(&ready, 1, timeout_millis);
  } while (polled < 0 && errno == EINTR);
  if (polled != 1) return fork_server_error();
  char body[kForkMessageBytes + 1];
  ssize_t got;
  do {
    got = recv(socket, body, sizeof body, MSG_DONTWAIT);
  } while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(kForkMessageBytes)) return fork_server_error();
  Message in{};
  std::memcpy(in.data(), body, in.size());
  const auto value = static_cast<std::int32_t>(value_of(in));
  if (tag_of(in) == kChildTag && value > 0) {
    *server_lost = false;
    return static_cast<pid_t>(value);
  }
  if (tag_of(in) == kFailTag && value > 0) *server_lost = false;
  return fork_server_error();
}

}  // namespace codemode::internal
