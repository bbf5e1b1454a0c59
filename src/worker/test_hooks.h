// Test hooks: forbidden system calls the codemode-worker-testhooks binary lets a program make
// through __codemodeTestHook(name), so tests can show that the system-call filter kills the
// worker. The production codemode-worker is built without CODEMODE_WORKER_TEST_HOOKS and has no
// such global (a test asserts it).
#ifndef CODEMODE_WORKER_TEST_HOOKS_H_
#define CODEMODE_WORKER_TEST_HOOKS_H_

#include <string_view>

namespace codemode::worker {

#ifdef CODEMODE_WORKER_TEST_HOOKS
// Makes the raw system call `name`: "open" (openat of /etc/hostname), "socket", "fork", "exec"
// (execve of a path that does not exist), "mprotect_exec" (an anonymous page made executable).
// Returns the call's result, or -errno, if the process survives; -1 for an unknown name.
long run_test_hook(std::string_view name);
#endif

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TEST_HOOKS_H_
