// The variables systemd sets for a socket-activated service, and the check that a passed
// descriptor is a listening TCP socket, on real sockets.

#include "web/systemd_socket.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>

namespace ovn_raft {
namespace {

Result<int, std::string> Count(std::map<std::string, std::string> env, pid_t pid) {
  return ListenFdCount(
      [env](const std::string& name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
      },
      pid);
}

TEST(SystemdSocketTest, TheVariablesMustBeThisProcesss) {
  EXPECT_EQ(Count({{"LISTEN_PID", "42"}, {"LISTEN_FDS", "2"}}, 42).value(), 2);
  EXPECT_NE(Count({}, 42).error().find("LISTEN_PID and LISTEN_FDS are not set"), std::string::npos);
  EXPECT_NE(Count({{"LISTEN_PID", "41"}, {"LISTEN_FDS", "1"}}, 42).error().find("not this process"),
            std::string::npos);
  EXPECT_NE(Count({{"LISTEN_PID", "42"}, {"LISTEN_FDS", "0"}}, 42).error().find("passes no socket"),
            std::string::npos);
  EXPECT_FALSE(Count({{"LISTEN_PID", "42"}, {"LISTEN_FDS", "x"}}, 42).ok());
  EXPECT_FALSE(Count({{"LISTEN_PID", "42x"}, {"LISTEN_FDS", "1"}}, 42).ok());
}

int Bound(int family, int type) {
  const int fd = socket(family, type, 0);
  sockaddr_storage addr{};
  socklen_t len = 0;
  if (family == AF_INET) {
    auto* in = reinterpret_cast<sockaddr_in*>(&addr);
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    len = sizeof(*in);
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
    in6->sin6_family = AF_INET6;
    in6->sin6_addr = in6addr_loopback;
    len = sizeof(*in6);
  }
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), len), 0);
  return fd;
}

TEST(SystemdSocketTest, OnlyAListeningTcpSocketIsServed) {
  const int listening = Bound(AF_INET, SOCK_STREAM);
  ASSERT_EQ(listen(listening, 4), 0);
  const auto ok = CheckListeningSocket(listening);
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok.value().address, "127.0.0.1:" + std::to_string(ok.value().port));
  EXPECT_NE(ok.value().port, 0);
  EXPECT_FALSE(ok.value().ipv6);

  const int six = Bound(AF_INET6, SOCK_STREAM);
  ASSERT_EQ(listen(six, 4), 0);
  EXPECT_EQ(CheckListeningSocket(six).value().address.rfind("[::1]:", 0), 0u);

  const int idle = Bound(AF_INET, SOCK_STREAM);  // bound, not listening
  EXPECT_NE(CheckListeningSocket(idle).error().find("not a listening stream socket"),
            std::string::npos);
  const int datagram = Bound(AF_INET, SOCK_DGRAM);
  EXPECT_NE(CheckListeningSocket(datagram).error().find("ListenStream="), std::string::npos);
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  EXPECT_FALSE(CheckListeningSocket(pair[0]).ok());
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_NE(CheckListeningSocket(pipe_fds[0]).error().find("is not a socket"), std::string::npos);
  for (int fd : {listening, six, idle, datagram, pair[0], pair[1], pipe_fds[0], pipe_fds[1]}) {
    close(fd);
  }
}

}  // namespace
}  // namespace ovn_raft
