// The fork server's socket messages (src/protocol/fork_server_messages.h), over a real
// SOCK_SEQPACKET pair: a request carries exactly three fds, and anything else is refused with
// every fd that arrived closed; a reply names a child or a failed clone.
#include "protocol/fork_server_messages.h"

#include <array>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/process_support.h"

namespace codemode::internal {
namespace {

struct SocketPair {
  SocketPair() {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds), 0);
    a.reset(fds[0]);
    b.reset(fds[1]);
  }
  UniqueFd a;
  UniqueFd b;
};

// Sends `body` with `fds` attached (none when empty).
void send_raw(int socket, const std::string& body, const std::vector<int>& fds) {
  iovec data{const_cast<char*>(body.data()), body.size()};
  std::vector<char> control(CMSG_SPACE(sizeof(int) * (fds.empty() ? 1 : fds.size())));
  msghdr header{};
  header.msg_iov = &data;
  header.msg_iovlen = 1;
  if (!fds.empty()) {
    header.msg_control = control.data();
    header.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&header);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  ASSERT_EQ(sendmsg(socket, &header, 0), static_cast<ssize_t>(body.size()));
}

std::string request_body(std::string_view tag = "fork", std::uint32_t version = 1) {
  std::string body(tag);
  body.append(reinterpret_cast<const char*>(&version), sizeof version);
  return body;
}

TEST(ForkServerMessages, RequestCarriesThreeFdsThatArriveCloseOnExec) {
  SocketPair pair;
  UniqueFd null(open("/dev/null", O_RDWR | O_CLOEXEC));
  ASSERT_TRUE(send_fork_request(pair.a.get(), {null.get(), null.get(), null.get()}).ok());
  bool closed = true;
  Result<ChildStdio> fds = receive_fork_request(pair.b.get(), &closed);
  ASSERT_TRUE(fds.ok());
  EXPECT_FALSE(closed);
  for (const UniqueFd& fd : *fds) {
    ASSERT_TRUE(fd.valid());
    EXPECT_EQ(fcntl(fd.get(), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  }
}

TEST(ForkServerMessages, MalformedRequestsAreRefusedAndTheirFdsClosed) {
  UniqueFd null(open("/dev/null", O_RDWR | O_CLOEXEC));
  const int n = null.get();
  const struct {
    std::string body;
    std::vector<int> fds;
  } cases[] = {
      {request_body(), {n, n}},                  // too few fds
      {request_body(), {n, n, n, n}},            // too many fds
      {request_body(), {}},                      // none
      {request_body("frok"), {n, n, n}},         // wrong tag
      {request_body("fork", 2), {n, n, n}},      // wrong version
      {request_body() + "x", {n, n, n}},         // too long
      {request_body().substr(0, 7), {n, n, n}},  // too short
  };
  for (const auto& bad : cases) {
    SocketPair pair;
    const std::size_t fds_before = testing::open_fd_count();
    send_raw(pair.a.get(), bad.body, bad.fds);
    bool closed = true;
    EXPECT_FALSE(receive_fork_request(pair.b.get(), &closed).ok()) << bad.body.size();
    EXPECT_FALSE(closed);
    EXPECT_EQ(testing::open_fd_count(), fds_before) << "an fd that arrived was kept";
  }
}

TEST(ForkServerMessages, EndOfStreamIsAClosedSocketNotAMalformedRequest) {
  SocketPair pair;
  pair.a.reset();
  bool closed = false;
  EXPECT_FALSE(receive_fork_request(pair.b.get(), &closed).ok());
  EXPECT_TRUE(closed);
}

TEST(ForkServerMessages, ReplyNamesTheChildOrAFailedCloneThatKeepsTheServer) {
  SocketPair pair;
  ASSERT_TRUE(send_fork_reply(pair.b.get(), 4242, 0).ok());
  bool lost = true;
  Result<pid_t> pid = receive_fork_reply(pair.a.get(), 1000, &lost);
  ASSERT_TRUE(pid.ok());
  EXPECT_EQ(*pid, 4242);
  EXPECT_FALSE(lost);

  ASSERT_TRUE(send_fork_reply(pair.b.get(), -1, EAGAIN).ok());
  EXPECT_FALSE(receive_fork_reply(pair.a.get(), 1000, &lost).ok());
  EXPECT_FALSE(lost) << "a failed clone leaves a working server";
}

TEST(ForkServerMessages, GarbageSilenceOrEndOfStreamLosesTheServer) {
  SocketPair pair;
  send_raw(pair.b.get(), "chld", {});
  bool lost = false;
  EXPECT_FALSE(receive_fork_reply(pair.a.get(), 1000, &lost).ok());
  EXPECT_TRUE(lost);
  EXPECT_FALSE(receive_fork_reply(pair.a.get(), 20, &lost).ok());  // no reply in time
  EXPECT_TRUE(lost);
  pair.b.reset();
  EXPECT_FALSE(receive_fork_reply(pair.a.get(), 1000, &lost).ok());
  EXPECT_TRUE(lost);
}

}  // namespace
}  // namespace codemode::internal
