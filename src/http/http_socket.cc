#include "http/http_socket.h"

#include <algorithm>
#include <climits>

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>

namespace codemode::http {
namespace {

// poll's timeout for `deadline`: rounded up (a wait never ends before it), 0 once it has passed.
int poll_millis(SocketClock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SocketClock::now());
  return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(left.count(), 0, INT_MAX));
}

// Whether `fd` became ready for `events` before `deadline` (or failed: the call that follows
// reports it).
bool wait_for(int fd, short events, SocketClock::time_point deadline) {
  while (true) {
    pollfd entry{.fd = fd, .events = events, .revents = 0};
    const int ready = ::poll(&entry, 1, poll_millis(deadline));
    if (ready < 0 && errno == EINTR) continue;
    return ready != 0;
  }
}

bool would_block() { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR; }

}  // namespace

SocketRead read_before(int fd, SocketClock::time_point deadline, std::string& out) {
  char bytes[16 * 1024];
  while (true) {
    if (!wait_for(fd, POLLIN, deadline)) return SocketRead::kTimedOut;
    const ssize_t got = ::recv(fd, bytes, sizeof bytes, MSG_DONTWAIT);
    if (got > 0) {
      out.append(bytes, static_cast<std::size_t>(got));
      return SocketRead::kData;
    }
    if (got == 0 || !would_block()) return SocketRead::kClosed;
  }
}

bool write_before(int fd, std::string_view bytes, SocketClock::time_point deadline) {
  while (!bytes.empty()) {
    const ssize_t written = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (written > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(written));
    } else if (written == 0 || !would_block() || !wait_for(fd, POLLOUT, deadline)) {
      return false;
    }
  }
  return true;
}

void discard_pending(int fd) {
  char bytes[16 * 1024];
  for (int i = 0; i < 4 && ::recv(fd, bytes, sizeof bytes, MSG_DONTWAIT) > 0; ++i) {
  }
}

}  // namespace codemode::http
