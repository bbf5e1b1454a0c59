// `codemode-worker --fork-server`: the zygote of fork-server mode (docs/worker.md).
// It prepares one worker completely (engine, globals, self-hosted code, warm-ups; for the isolated
// profile also the empty root) and then, per request from the library's launcher
// (src/sandbox/process/fork_server_launcher.h, protocol in src/protocol/fork_server_messages.h),
// creates one child with clone(CLONE_PARENT): the child is the LIBRARY's child, which kills and
// reaps it like an executed worker. The child puts the three pipe ends it was sent on fds 0, 1 and
// 2 and lives the rest of a worker's life (worker.h: threads, start, confine, execute, result,
// _exit).
//
// The server never runs a program and never parses a start frame. At every fork it has no thread
// but the one that forks (the engine thread; main is parked in pthread_join holding nothing), no
// garbage collection in flight, and has never called Math.random (the generator is seeded per
// realm at first use, so every child seeds its own). Children share the server's address-space
// layout (ASLR is per server, not per execution; docs/security.md).
//
// A server started with --jit prepares a JIT engine (engine_runtime.h) and every child it makes is
// a JIT worker; one without never has the JIT. Each launcher starts its own server with its
// adapter's engine profile, so the two never share a server.
//
// The server names itself kForkServerName (its comm, as ps and /proc/<pid>/comm show it); each
// child takes the binary's own name back at once.
//
// The socket is fd 0. The server exits when the socket reaches EOF (the launcher closed it or
// died), and is killed with its parent thread (PR_SET_PDEATHSIG). It has no children of its own.
#ifndef CODEMODE_WORKER_FORK_SERVER_H_
#define CODEMODE_WORKER_FORK_SERVER_H_

#include "worker/worker.h"

namespace codemode::worker {

inline constexpr char kForkServerName[] = "codemode-forksv";  // at most 15 characters (comm)

// Renames the process kForkServerName, remembering the binary's own name for the children.
// REQUIRES: on the main thread (whose name /proc/<pid>/comm shows), before any other thread
// starts (threads inherit the name). False if prctl failed.
bool take_fork_server_name();

// Runs the server on the calling thread, which must have a kEngineThreadStackBytes stack (the
// children run on their copy of it). Never returns: it _exits.
[[noreturn]] void run_fork_server(WorkerProfile profile);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_FORK_SERVER_H_
