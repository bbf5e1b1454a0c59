// The messages between the library's fork-server launcher and `codemode-worker --fork-server`,
// over a Unix SOCK_SEQPACKET socket pair (one message per send, never merged or split). Both ends
// are trusted (the server never runs a program), but each end parses the other strictly anyway:
// anything but exactly the message below ends the conversation. docs/protocol.md ("The fork
// server") gives the grammar; keep the two in step.
//
//   request  launcher -> server   8 bytes "fork", u32 version (1), with exactly 3 fds (SCM_RIGHTS):
//                                 the child's stdin (read end), stdout and stderr (write ends)
//   reply    server -> launcher   8 bytes "chld", i32 pid (> 0): the child, a child of the
//                                 launcher's process (CLONE_PARENT), in the launcher's pid
//                                 namespace or      "fail", i32 errno (> 0): clone(2) failed; the
//                                 server lives
// Integers are in host byte order: both ends run on the same machine.
#ifndef CODEMODE_PROTOCOL_FORK_SERVER_MESSAGES_H_
#define CODEMODE_PROTOCOL_FORK_SERVER_MESSAGES_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include <sys/types.h>

#include "codemode/error.h"

#include "core/process/unique_fd.h"

namespace codemode::internal {

inline constexpr std::uint32_t kForkServerVersion = 1;
inline constexpr std::size_t kForkMessageBytes = 8;
inline constexpr std::size_t kForkRequestFds = 3;

// The child's ends of its three pipes, in the order 0, 1, 2.
using ChildStdio = std::array<UniqueFd, kForkRequestFds>;

// Every failure below is an Error with rule "fork_server_failed"; the launcher reports it as
// worker_start_failed.

// Sends one request carrying `child_stdio` (the caller keeps its fds). MSG_NOSIGNAL: a server
// that is gone is an error, never SIGPIPE.
[[nodiscard]] Status send_fork_request(int socket,
                                       const std::array<int, kForkRequestFds>& child_stdio);

// Waits for one request; the fds arrive close-on-exec. Anything else than exactly one request
// (EOF, a short or long message, a wrong tag or version, missing or extra fds, truncated control
// data) is an error and every fd that did arrive is closed; `*closed` tells EOF apart.
[[nodiscard]] Result<ChildStdio> receive_fork_request(int socket, bool* closed);

// Sends the reply: `pid` > 0 for a child, else `error_number` for a failed clone.
[[nodiscard]] Status send_fork_reply(int socket, pid_t pid, int error_number);

// Waits up to `timeout_millis` for one reply. The child's pid, or an error (a failed clone, EOF,
// a timeout or a malformed reply). `*closed` is set when the server is gone or spoke out of turn,
// so the caller replaces it.
[[nodiscard]] Result<pid_t> receive_fork_reply(int socket, int timeout_millis, bool* server_lost);

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_FORK_SERVER_MESSAGES_H_
