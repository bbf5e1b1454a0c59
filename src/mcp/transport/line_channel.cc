#include "mcp/transport/line_channel.h"

#include <utility>

#include <errno.h>
#include <poll.h>

#include "core/process/pipe_io.h"

namespace codemode::mcp {
namespace {

using internal::IoStatus;

constexpr std::size_t kReadChunk = 64u << 10;

// Waits until `fd` is readable or writable (per `events`), or `wake_fd` is readable. False when
// only the wake fd fired.
bool wait_for(int fd, short events, int wake_fd) {
  pollfd fds[2] = {{fd, events, 0}, {wake_fd, POLLIN, 0}};
  while (poll(fds, wake_fd >= 0 ? 2 : 1, -1) < 0 && errno == EINTR) {
  }
  return fds[0].revents != 0 || !(wake_fd >= 0 && fds[1].revents != 0);
}

}  // namespace

bool LineReader::fill() {
  for (;;) {
    const internal::IoResult read = internal::read_some(fd_, kReadChunk, buffer_);
    if (read.status == IoStatus::kOk) return true;
    if (read.status != IoStatus::kWouldBlock) return false;
    if (!wait_for(fd_, POLLIN, wake_fd_)) {
      woken_ = true;
      return true;
    }
  }
}

LineRead LineReader::read_line() {
  for (;;) {
    const std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (std::exchange(skipping_, false) || line.size() > max_line_bytes_) {
        return {LineRead::Status::kOversized, {}};
      }
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return {LineRead::Status::kLine, std::move(line)};
    }
    if (buffer_.size() > max_line_bytes_) {
      // Keep memory bounded: drop what is read of the oversized line, remember to skip the rest.
      buffer_.clear();
      skipping_ = true;
    }
    if (closed_) return {};
    closed_ = !fill();
    if (std::exchange(woken_, false)) return {LineRead::Status::kWoken, {}};
  }
}

bool LineWriter::write_line(std::string_view line) {
  std::string data(line);
  data.push_back('\n');
  std::lock_guard lock(mu_);
  std::string_view rest = data;
  while (!failed_ && !rest.empty()) {
    const internal::IoResult wrote = internal::write_some(fd_, rest);
    if (wrote.status == IoStatus::kOk) {
      rest.remove_prefix(wrote.bytes);
    } else if (wrote.status == IoStatus::kWouldBlock) {
      wait_for(fd_, POLLOUT, -1);
    } else {
      failed_ = true;
    }
  }
  return !failed_;
}

}  // namespace codemode::mcp
