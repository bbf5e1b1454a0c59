// Test hooks: native code the codemode-worker-testhooks binary runs on a program's request
// through __codemodeTestHook(name, bytesOrNumber, number), after confinement and while the
// program runs, so tests can act like an exploited engine: make forbidden system calls (the
// filter must kill the worker), or misbehave in ways the filter allows (garbage on the frame
// pipe, a stderr flood, a sudden exit, a hang in native code, a crash) and show the parent copes.
// The production codemode-worker is built without CODEMODE_WORKER_TEST_HOOKS and has no such
// global (a test asserts it).
#ifndef CODEMODE_WORKER_TEST_HOOKS_H_
#define CODEMODE_WORKER_TEST_HOOKS_H_

#include <string>
#include <string_view>

namespace codemode::worker {

#ifdef CODEMODE_WORKER_TEST_HOOKS
// What the program passed after the hook's name.
struct TestHookArguments {
  std::string bytes;     // the first argument, when a string of code units 0-255: one byte each
  long long number = 0;  // the first argument that is a number (the first or the second)
};

// Runs the hook `name`. Forbidden system calls, each of which must kill the worker (SIGSYS):
//   "open"           openat of /etc/hostname, read-only
//   "create"         openat(bytes, O_WRONLY | O_CREAT | O_EXCL)
//   "socket"         socket(AF_INET, SOCK_STREAM)
//   "connect"        a socket, then connect to 127.0.0.1, port `number`
//   "fork"           fork; the child would sleep 5 s before exiting, so a leak would show
//   "exec"           execve of `bytes` (argv {bytes}, no environment), or of a path that does not
//                    exist when `bytes` is empty
//   "mmap_exec"      an anonymous executable mapping (read + execute)
//   "mprotect_exec"  an anonymous read-write page made read + execute
//   "mmap_wx"        an anonymous mapping both writable and executable
//   "mprotect_wx"    an anonymous read-write page made writable and executable
// (The JIT engine profile allows the first two, as its compilers need them, and kills the last
// two: W^X. The interpreter profile kills all four.)
//   "mmap_shared"    a shared anonymous read-write mapping of `number` bytes (at least a page),
//                    every page written: RLIMIT_DATA would not count it
//   "mmap_growsdown" a private anonymous MAP_GROWSDOWN page: not counted either
//   "mremap_alias"   mremap of a private page with old_size 0: a second view of the same pages
//   "madvise"        madvise of a private page with advice `number` (only MADV_DONTNEED passes)
//   "ptrace"         PTRACE_ATTACH to pid `number`
//   "kill"           SIGTERM to pid `number` (the caller passes its parent's pid: getppid itself
//                    is not allowed, and would hide whether kill is)
// Misbehaviour the filter allows:
//   "reserve"        a read-only private mapping of `number` bytes, unmapped again: RLIMIT_DATA
//                    does not count it, so only RLIMIT_AS refuses it (-ENOMEM)
//   "write_stdout"   writes `bytes` verbatim to fd 1, the frame pipe
//   "write_stderr"   writes `bytes` to fd 2, `number` times (at least once)
//   "exit"           ends the process at once with exit status `number`
//   "hang"           sleeps in clock_nanosleep forever: no CPU is used and no JavaScript runs,
//                    so neither the CPU watchdog nor the engine's interrupt can end it
//   "segfault"       stores through a null pointer
//   "spin"           loops in native code forever: CPU is used but no JavaScript runs, so only
//                    RLIMIT_CPU (the backstop) can end it
// What the worker saw of its isolation (observe_before_confinement):
//   "isolation"      a bit set: 1 its pid is 1, 2 its root directory is empty, 4 /etc/passwd
//                    does not exist, 8 its only network interface is a loopback that is down
// Sanitizer builds only (CODEMODE_SANITIZER_BUILD), bugs a sanitizer must report and end on:
//   "heap_overflow"  reads one byte past a heap block (AddressSanitizer)
//   "signed_overflow" INT_MAX + 1 (UndefinedBehaviorSanitizer)
// Returns the call's result (bytes written for the writes), or -errno, if the process survives;
// -1 for an unknown name.
long run_test_hook(std::string_view name, const TestHookArguments& arguments);
#endif

// Records what the "isolation" hook reports, just before confine_worker: the system-call filter
// would kill the calls that look (open, socket), and the namespaces and the empty root are in
// place by then. Does nothing in the production worker.
void observe_before_confinement();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TEST_HOOKS_H_
