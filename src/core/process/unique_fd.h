// UniqueFd owns one file descriptor and closes it when destroyed (Chromium's ScopedFD). Every fd
// codemode opens for a child process (pipes, eventfds) lives in one, so no exit path can leak it
// into the next child.
//
// Thread-safety: a plain value; use one from one thread at a time.
#ifndef CODEMODE_CORE_PROCESS_UNIQUE_FD_H_
#define CODEMODE_CORE_PROCESS_UNIQUE_FD_H_

#include <utility>

#include <unistd.h>

namespace codemode::internal {

class UniqueFd {
 public:
  UniqueFd() = default;
  // Takes ownership of `fd` (-1 for none).
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

  // Closes the fd held now, if any, and takes ownership of `fd`. close(2)'s result is ignored on
  // purpose: on Linux the fd is released even when close reports EINTR or EIO, so retrying could
  // close an fd another thread has just been given.
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

  // Gives up ownership without closing.
  [[nodiscard]] int release() { return std::exchange(fd_, -1); }

 private:
  int fd_ = -1;
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_UNIQUE_FD_H_
