// Reads and writes on one HTTP connection, each bounded by an absolute deadline rather than a
// per-call timeout (SO_RCVTIMEO restarts on every recv, so a client sending a byte now and then
// would hold its connection forever). A shutdown(2) of the socket from another thread ends a wait
// at once.
#ifndef CODEMODE_HTTP_HTTP_SOCKET_H_
#define CODEMODE_HTTP_HTTP_SOCKET_H_

#include <chrono>
#include <string>
#include <string_view>

namespace codemode::http {

using SocketClock = std::chrono::steady_clock;

enum class SocketRead {
  kData,      // bytes were appended
  kClosed,    // the peer closed, the socket was shut down, or it failed
  kTimedOut,  // nothing arrived before the deadline
};

// Appends what `fd` has (at most 16 KiB), waiting until `deadline` for something to arrive. A
// deadline already past still takes the bytes that are there: only silence times out.
SocketRead read_before(int fd, SocketClock::time_point deadline, std::string& out);

// Sends all of `bytes` by `deadline`; false when it could not (the peer is gone or reads too
// slowly). Never raises SIGPIPE.
bool write_before(int fd, std::string_view bytes, SocketClock::time_point deadline);

// Reads and drops what `fd` holds now, without waiting (at most 64 KiB): closing a socket with
// unread bytes resets the connection, and the client may then lose the answer it was just sent.
void discard_pending(int fd);

}  // namespace codemode::http

#endif  // CODEMODE_HTTP_HTTP_SOCKET_H_
