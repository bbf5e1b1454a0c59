// The fork-server launcher (spawn = fork_server): one `codemode-worker --fork-server` per
// launcher, started at the first launch, asked for one child per launch over a SOCK_SEQPACKET
// socket pair (src/protocol/fork_server_messages.h). Per launch it makes the child's three pipes,
// sends the child's ends, and gets back the pid of a process that is this process's own child
// (the server clones with CLONE_PARENT): the WorkerProcess it returns is killed and reaped exactly
// like an executed worker's.
//
// The server, and through CLONE_PARENT every child, has a ParentThread of this launcher as its
// parent thread, so a short-lived executor thread that exits kills neither (parent-death signal).
//
// Server failures: a server found dead at a launch is reaped and replaced before that launch. One
// that fails during a launch (EOF, an error, a malformed reply, no reply within
// kForkServerReplyMillis) is killed and reaped, that launch fails (worker_start_failed), and the
// next launch starts a new server. Children already running do not depend on the server and run
// to their end. A server killed in the instant between creating a child and naming it leaves that
// child unknown to this process: it reads EOF on its stdin, exits, and stays a zombie until this
// process ends (documented in docs/architecture.md).
//
// Destroying the launcher kills and reaps the server, closes the socket, then ends the parent
// thread. Thread-safety: launch may be called from many threads; launches are serialised (each
// takes about a millisecond).
#ifndef CODEMODE_SANDBOX_PROCESS_FORK_SERVER_LAUNCHER_H_
#define CODEMODE_SANDBOX_PROCESS_FORK_SERVER_LAUNCHER_H_

#include <memory>
#include <string>

#include "codemode/process_adapter.h"

#include "sandbox/process/worker_launcher.h"

namespace codemode::internal {

// How long a launch waits for the server's reply, the server's own start-up included.
inline constexpr int kForkServerReplyMillis = 20'000;

// `worker_path` is absolute. For the isolated profile the server starts in new user, network,
// mount, IPC and UTS namespaces (isolation_spawn.h) and each child in a new pid namespace. For the
// JIT engine profile the server is started with --jit: a launcher's server, and so every child,
// has exactly its engine profile.
std::unique_ptr<WorkerLauncher> make_fork_server_launcher(
    std::string worker_path, IsolationProfile isolation,
    EngineProfile engine = EngineProfile::kInterpreter);

// Test access: the pid of the running server, or -1 (REQUIRES: the launcher came from
// make_fork_server_launcher).
pid_t fork_server_pid(WorkerLauncher& launcher);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_FORK_SERVER_LAUNCHER_H_
