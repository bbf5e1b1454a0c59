// Runs one command for one call of a command tool (make_command_tool in the public API): feeds the
// input on stdin, collects stdout up to a cap, waits for the exit, and gives up (SIGKILL and reap)
// the moment `stop` fires. Every fd and the process are owned, so no path leaves either behind. The
// command leads a process group of its own, killed whenever the run ends: also after an exit with
// status 0, nothing the command started (a background job) outlives the call. Output ends when
// stdout closes, or, once the command exited, when what its killed group left in the pipe is read.
//
// The command also dies with this process, however it dies (SIGKILL, a crash): it is started with
// PR_SET_PDEATHSIG SIGKILL (SpawnOptions::ParentDeath::kKill), so a runtime killed mid-call does
// not leave its tool finishing an effect after recovery marked the call unknown. That signal
// follows the thread that started the command; the calling thread (a call pool thread, which may
// end when idle) is that thread and waits in run_command until the command is reaped, so it never
// ends first. What the command itself starts is not bound: its group is killed by whoever reaps
// the command, and nobody is left to do that once this process is gone (docs/security.md).
//
// Thread-safety: run_command may be called from many threads at once.
#ifndef CODEMODE_CORE_PROCESS_COMMAND_RUNNER_H_
#define CODEMODE_CORE_PROCESS_COMMAND_RUNNER_H_

#include <cstddef>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace codemode::internal {

struct CommandSpec {
  std::string path;               // absolute path of the executable
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // "NAME=value" entries
};

struct CommandRun {
  enum class Ending {
    kExitedZero,      // exit status 0; stdout holds what it wrote
    kFailed,          // non-zero exit, a signal, or an I/O failure
    kOutputTooLarge,  // wrote more than max_output_bytes (killed)
    kNotStarted,      // could not be started; nothing ran
    kStopped,         // `stop` fired first (killed)
  } ending = Ending::kFailed;
  std::string stdout_text;
};

CommandRun run_command(const CommandSpec& spec, std::string_view stdin_text,
                       std::size_t max_output_bytes, std::stop_token stop);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_COMMAND_RUNNER_H_
