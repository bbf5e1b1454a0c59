#include "mcp/downstream/downstream_connection.h"

#include <utility>
#include <variant>

#include "mcp/catalog/tool_results.h"
#include "mcp/transport/json_rpc.h"

namespace codemode::mcp {
namespace {

Error exited_error() {
  return Error::tool_failed("downstream_exited",
                            "The downstream MCP server exited before it answered.");
}

}  // namespace

Error call_cancelled_error() { return Error::cancelled("cancelled", "The call was cancelled."); }

struct DownstreamConnection::Pending {
  Completion done;
  // Deregistered (and waited for, if running) when the Pending is destroyed; never destroyed
  // under mu_, since the callback takes mu_.
  std::unique_ptr<std::stop_callback<std::function<void()>>> on_stop;
};

Result<std::shared_ptr<DownstreamConnection>> DownstreamConnection::start(
    const internal::SpawnOptions& options) {
  internal::SpawnOptions spawn = options;
  spawn.stderr_mode = internal::SpawnOptions::Stderr::kDiscard;
  // Its own process group, so ending the server ends whatever it started too.
  spawn.group = internal::ChildProcess::Group::kOwn;
  std::optional<internal::EventFd> wake = internal::EventFd::create();
  if (!wake) {
    return Error::tool_failed("spawn_failed", "A child process could not be started.");
  }
  Result<internal::SpawnedChild> child = internal::spawn_child(spawn);
  if (!child.ok()) return std::move(child).error();
  std::shared_ptr<DownstreamConnection> connection(
      new DownstreamConnection(std::move(*child), std::move(*wake)));
  connection->reader_ = std::thread([raw = connection.get()] { raw->read_loop(); });
  return connection;
}

DownstreamConnection::DownstreamConnection(internal::SpawnedChild child, internal::EventFd wake)
    : child_(std::move(child)), wake_(std::move(wake)), writer_(child_.stdin_fd.get()) {}

DownstreamConnection::~DownstreamConnection() {
  stopping_ = true;
  // The child dies first, so its stdout ends and the reader cannot be stuck in a write to it.
  child_.process.kill();
  wake_.notify();
  if (reader_.joinable()) reader_.join();
  fail_all();
}

void DownstreamConnection::request(std::string_view method, Json params, std::stop_token stop,
                                   Completion done) {
  auto pending = std::make_shared<Pending>(Pending{.done = std::move(done)});
  std::int64_t id = 0;
  bool accepted = false;
  {
    std::lock_guard lock(mu_);
    id = next_id_++;
    accepted = alive_;
    if (accepted) pending_.emplace(id, pending);
  }
  if (!accepted) return pending->done(exited_error());
  // Constructed outside mu_: it runs at once, on this thread, if `stop` has fired already.
  auto on_stop = std::make_unique<std::stop_callback<std::function<void()>>>(
      stop, std::function<void()>([this, id] { cancel_requested(id); }));
  {
    std::lock_guard lock(mu_);
    pending->on_stop = std::move(on_stop);
  }
  if (!writer_.write_line(json_text(rpc_request(id, method, std::move(params))))) {
    complete(id, exited_error());
  }
}

void DownstreamConnection::notify(std::string_view method, Json params) {
  writer_.write_line(json_text(rpc_notification(method, std::move(params))));
}

void DownstreamConnection::cancel_requested(std::int64_t id) {
  {
    std::lock_guard lock(mu_);
    cancellations_.push_back(id);
  }
  wake_.notify();
}

void DownstreamConnection::complete(std::int64_t id, Result<Json> result) {
  std::shared_ptr<Pending> pending;
  {
    std::lock_guard lock(mu_);
    const auto found = pending_.find(id);
    if (found == pending_.end()) return;
    pending = std::move(found->second);
    pending_.erase(found);
  }
  pending->done(std::move(result));
}

void DownstreamConnection::process_cancellations() {
  std::vector<std::int64_t> ids;
  {
    std::lock_guard lock(mu_);
    ids.swap(cancellations_);
  }
  for (std::int64_t id : ids) {
    bool in_flight = false;
    {
      std::lock_guard lock(mu_);
      in_flight = pending_.contains(id);
    }
    if (!in_flight) continue;
    notify("notifications/cancelled", {{"requestId", id}, {"reason", "cancelled by the caller"}});
    complete(id, call_cancelled_error());
  }
}

void DownstreamConnection::fail_all() {
  std::map<std::int64_t, std::shared_ptr<Pending>> pending;
  {
    std::lock_guard lock(mu_);
    alive_ = false;
    pending.swap(pending_);
  }
  for (auto& [id, call] : pending) call->done(exited_error());
}

void DownstreamConnection::read_loop() {
  LineReader reader(child_.stdout_fd.get(), 2 * kMaxMessageBytes, wake_.fd());
  for (;;) {
    LineRead read = reader.read_line();
    if (read.status == LineRead::Status::kLine) {
      try {
        handle_line(read.line);
      } catch (...) {
        // The downstream chose this line; whatever it held, it must not end the server. It
        // answers nothing, so a call waiting for it ends by its timeout.
      }
    } else if (read.status == LineRead::Status::kWoken) {
      wake_.drain();
      if (stopping_) break;
      process_cancellations();
    } else if (read.status == LineRead::Status::kClosed) {
      // The server is dead to us: end it and everything it started now, not when the connection
      // is released (at the next call, maybe much later). Safe on this thread: the child is
      // reaped only by the destructor, after this thread is joined.
      child_.process.kill();
      break;
    }  // an oversized line is skipped
  }
  fail_all();
}

void DownstreamConnection::handle_line(std::string_view line) {
  std::variant<RpcMessage, RpcRefusal> parsed = parse_rpc_message(line);
  // Lines that are not messages are ignored: they answer nothing.
  if (!std::holds_alternative<RpcMessage>(parsed)) return;
  const RpcMessage& message = std::get<RpcMessage>(parsed);
  if (message.kind == RpcMessage::Kind::kRequest) {
    return handle_server_request(message.id, message.method);
  }
  if (message.kind != RpcMessage::Kind::kResponse || !message.id.is_number_integer()) return;
  const std::int64_t id = message.id.get<std::int64_t>();
  if (message.result) return complete(id, *message.result);
  complete(id, Error::tool_failed("downstream_error",
                                  "The downstream MCP server answered with an error."));
}

// codemode declares no client capabilities, so a server has nothing to ask of it but ping.
void DownstreamConnection::handle_server_request(const Json& id, const std::string& method) {
  if (method == "ping") {
    writer_.write_line(json_text(rpc_result(id, Json::object())));
    return;
  }
  writer_.write_line(json_text(rpc_error(id, kMethodNotFound, "codemode does not serve this.")));
}

}  // namespace codemode::mcp
