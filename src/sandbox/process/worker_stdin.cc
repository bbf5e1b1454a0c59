#include "sandbox/process/worker_stdin.h"

#include <optional>
#include <string_view>
#include <utility>

namespace codemode::internal {

std::shared_ptr<WorkerStdin> WorkerStdin::create(int fd, std::size_t cap) {
  std::optional<EventFd> wake = EventFd::create();
  if (!wake) return nullptr;
  return std::shared_ptr<WorkerStdin>(new WorkerStdin(fd, cap, std::move(*wake)));
}

void WorkerStdin::send(std::string frame) {
  std::lock_guard lock(mu_);
  if (!writable_ || fault_ != Fault::kNone) return;
  const bool was_empty = queue_.empty();
  if (!was_empty && queued_bytes_ + frame.size() > cap_) {
    fault_ = Fault::kOverflow;
    wake_.notify();
    return;
  }
  queued_bytes_ += frame.size();
  queue_.push_back(std::move(frame));
  // Behind another frame: the loop polls for POLLOUT already (whoever queued that one saw to it).
  if (!was_empty) return;
  write_front();
  if (!queue_.empty()) wake_.notify();  // the rest waits for the pipe to drain
}

void WorkerStdin::fail(Fault fault) {
  std::lock_guard lock(mu_);
  // Once closed, the execution is decided; a late answer's failure must not change that.
  if (!writable_) return;
  if (fault_ == Fault::kNone) fault_ = fault;
  wake_.notify();
}

bool WorkerStdin::wants_write() const {
  std::lock_guard lock(mu_);
  return !queue_.empty();
}

void WorkerStdin::write_queued() {
  std::lock_guard lock(mu_);
  write_front();
}

WorkerStdin::Fault WorkerStdin::fault() const {
  std::lock_guard lock(mu_);
  return fault_;
}

void WorkerStdin::close() {
  std::lock_guard lock(mu_);
  stop_writing();
}

void WorkerStdin::write_front() {
  while (!queue_.empty()) {
    const std::string_view pending = std::string_view(queue_.front()).substr(front_offset_);
    const IoResult written = write_some(fd_, pending);
    if (written.status == IoStatus::kWouldBlock) return;
    if (written.status != IoStatus::kOk) {
      // The worker closed its stdin, perhaps because it finished while answers were on their way.
      return stop_writing();
    }
    front_offset_ += written.bytes;
    if (front_offset_ == queue_.front().size()) {
      queued_bytes_ -= queue_.front().size();
      queue_.pop_front();
      front_offset_ = 0;
    }
  }
}

void WorkerStdin::stop_writing() {
  writable_ = false;
  queue_.clear();
  queued_bytes_ = 0;
  front_offset_ = 0;
}

}  // namespace codemode::internal
