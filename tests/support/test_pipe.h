// A pipe for a test: both ends owned (each closed when the TestPipe goes, or at reset()), both
// non-blocking and close-on-exec, as the parent's ends of a worker's pipes are.
#ifndef CODEMODE_TESTS_SUPPORT_TEST_PIPE_H_
#define CODEMODE_TESTS_SUPPORT_TEST_PIPE_H_

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/process/unique_fd.h"

namespace codemode::testing {

struct TestPipe {
  internal::UniqueFd read_end;
  internal::UniqueFd write_end;
};

// A failure to make it fails the test; both ends are then invalid (-1).
inline TestPipe make_test_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    ADD_FAILURE() << "pipe2: " << std::strerror(errno);
    return {};
  }
  return {internal::UniqueFd(fds[0]), internal::UniqueFd(fds[1])};
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_TEST_PIPE_H_
