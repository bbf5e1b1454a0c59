#include "http/request_reader.h"

#include <utility>

namespace codemode::http {
namespace {

constexpr std::string_view kHeadEnd = "\r\n\r\n";

}  // namespace

bool RequestReader::await_request() {
  if (requests_ == 0 || !buffer_.empty()) return true;
  return read_before(fd_, SocketClock::now() + options_.idle_timeout, buffer_) == SocketRead::kData;
}

RequestReader::Next RequestReader::next(const std::function<bool()>& may_wait) {
  SocketClock::time_point head_deadline = started_ + options_.head_timeout;
  may_wait_ = nullptr;
  if (requests_++ > 0) {
    head_deadline = SocketClock::now() + options_.head_timeout;
    may_wait_ = &may_wait;
  }
  std::size_t end;
  Next ended;
  while ((end = buffer_.find(kHeadEnd)) == std::string::npos) {
    if (buffer_.size() > options_.max_head_bytes) {
      return HttpRefusal{431, "request head too large"};
    }
    if (!read_more(head_deadline, "request head not received in time", ended)) return ended;
  }
  if (end > options_.max_head_bytes) return HttpRefusal{431, "request head too large"};
  auto parsed = parse_http_head(std::string_view(buffer_).substr(0, end), options_.max_body_bytes);
  buffer_.erase(0, end + kHeadEnd.size());
  auto* request = std::get_if<HttpRequest>(&parsed);
  if (request == nullptr) return parsed;
  const SocketClock::time_point body_deadline = SocketClock::now() + options_.body_timeout;
  while (buffer_.size() < request->content_length) {
    if (!read_more(body_deadline, "request body not received in time", ended)) return ended;
  }
  request->body = buffer_.substr(0, request->content_length);
  buffer_.erase(0, request->content_length);
  return parsed;
}

// Waits until `deadline` for more of the request. False when it ended instead: `ended` is the
// refusal (408 at the deadline, `late`; 503 when may_wait said no) or nullopt (closed).
bool RequestReader::read_more(SocketClock::time_point deadline, std::string_view late,
                              Next& ended) {
  if (may_wait_ != nullptr) {
    // What has arrived is taken first: a request whose bytes are all there never waits, so is
    // never refused.
    const SocketRead ready = read_before(fd_, SocketClock::now(), buffer_);
    if (ready != SocketRead::kTimedOut) return ready == SocketRead::kData;
    if (!(*std::exchange(may_wait_, nullptr))()) {
      ended = HttpRefusal{503, "too many incomplete requests from this address"};
      return false;
    }
  }
  const SocketRead read = read_before(fd_, deadline, buffer_);
  if (read == SocketRead::kData) return true;
  if (read == SocketRead::kTimedOut) ended = HttpRefusal{408, late};
  return false;
}

}  // namespace codemode::http
