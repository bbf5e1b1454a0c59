#include "core/process/clone_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/process/block_all_signals.h"

// The child shares the parent's memory: instrumented code would write the sanitizer's shadow of
// the child's stack, which outlives that stack.
#define CODEMODE_CHILD_SIDE __attribute__((no_sanitize("address", "undefined")))

namespace codemode::internal {
namespace {

// Enough for the child's few calls (and a sanitizer's interceptors of them).
constexpr std::size_t kChildStackBytes = 256u << 10;

// The child's stack, unmapped when the clone has returned (the child then runs the program, or is
// gone).
class ChildStack {
 public:
  ChildStack()
      : base_(mmap(nullptr, kChildStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0)) {}
  ~ChildStack() {
    if (valid()) munmap(base_, kChildStackBytes);
  }
  ChildStack(const ChildStack&) = delete;
  ChildStack& operator=(const ChildStack&) = delete;
  bool valid() const { return base_ != MAP_FAILED; }
  void* top() const { return static_cast<char*>(base_) + kChildStackBytes; }  // it grows down

 private:
  void* base_;
};

// What the child reads (the plan, the parent it expects, how far to close fds without
// close_range) and the one thing it writes: why it did not get to the program.
struct ChildContext {
  const CloneExecPlan* plan;
  pid_t parent;
  int max_fds;
  volatile int failed = 0;
};

[[noreturn]] CODEMODE_CHILD_SIDE void fail(ChildContext& context) {
  context.failed = errno != 0 ? errno : EINVAL;
  _exit(127);
}

// posix_spawn's POSIX_SPAWN_SETSIGDEF with every signal: SIG_IGN would survive execve otherwise.
// glibc refuses its two internal signals here, harmlessly: their handlers reset at execve.
CODEMODE_CHILD_SIDE void default_every_signal() {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
    sigaction(signal_number, &default_action, nullptr);  // fails harmlessly for KILL, STOP
  }
}

// Every fd from 3 up closed, whether or not whoever opened it asked for O_CLOEXEC. Kernels before
// 5.9 lack close_range.
CODEMODE_CHILD_SIDE void close_from_3(const ChildContext& context) {
  if (close_range(3, ~0U, 0) == 0) return;
  for (int fd = 3; fd < context.max_fds; ++fd) close(fd);
}

// posix_spawn's order: signal dispositions, process group, file actions (dup2s, /dev/null,
// closefrom, chdir), signal mask, execve. The parent-death signal is armed first, so that a
// parent that dies while the child is being set up kills it too.
[[noreturn]] CODEMODE_CHILD_SIDE void run_child(ChildContext& context) {
  const CloneExecPlan& plan = *context.plan;
  // PR_SET_PDEATHSIG does not fire for a parent that died before it was armed: then the child
  // was already given to another parent (init or a subreaper), which getppid() shows.
  if (plan.kill_with_parent &&
      (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != context.parent)) {
    fail(context);
  }
  default_every_signal();
  if (plan.own_group && setpgid(0, 0) != 0) fail(context);
  for (int fd = 0; fd < 2; ++fd) {
    if (dup2(plan.stdio[fd], fd) != fd) fail(context);
  }
  if (plan.stdio[2] >= 0) {
    if (dup2(plan.stdio[2], 2) != 2) fail(context);
  } else {
    const int null = open("/dev/null", O_WRONLY);
    if (null < 0 || (null != 2 && (dup2(null, 2) != 2 || close(null) != 0))) fail(context);
  }
  close_from_3(context);
  if (plan.cwd != nullptr && chdir(plan.cwd) != 0) fail(context);
  sigset_t none;
  sigemptyset(&none);
  // NOLINTNEXTLINE(concurrency-mt-unsafe): the child has one thread
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execve(plan.path, plan.argv, plan.envp);
  fail(context);
}

CODEMODE_CHILD_SIDE int child_main(void* context) {
  run_child(*static_cast<ChildContext*>(context));
}

int fd_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
      limit.rlim_cur > (1u << 20)) {
    return 1 << 20;
  }
  return static_cast<int>(limit.rlim_cur);
}

}  // namespace

pid_t clone_exec(const CloneExecPlan& plan) {
  ChildStack stack;
  if (!stack.valid()) return -1;
  ChildContext context{.plan = &plan, .parent = getpid(), .max_fds = fd_limit()};
  pid_t pid;
  {
    BlockAllSignals blocked;
    // CLONE_VFORK: returns once the child executed the program or exited, so `context` and the
    // stack are the child's no longer.
    pid = clone(child_main, stack.top(), CLONE_VM | CLONE_VFORK | SIGCHLD, &context);
  }
  if (pid < 0) return -1;
  if (context.failed == 0) return pid;
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  return -1;
}

}  // namespace codemode::internal
