// The client against a fake server, for faults only a fake can produce. The real ovsdb-server
// is exercised in tests/integration.
#include "ovsdb/jsonrpc_client.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

#include "ovsdb/reply_budget.h"
#include "support/fake_unix_server.h"
#include "support/ovsdb_calls.h"

namespace ovn_raft {
namespace {

using testing::FakeUnixServer;
using Clock = std::chrono::steady_clock;

CallOptions Timeout(int ms) {
  CallOptions o;
  o.timeout = std::chrono::milliseconds(ms);
  return o;
}

// A unix socket bound at `path` (listening when `listen_too`), as a crashed or locked-down
// server leaves it. Returns its descriptor.
int BindUnixSocket(const std::string& path, bool listen_too) {
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  if (listen_too) {
    EXPECT_EQ(listen(fd, 1), 0);
  }
  return fd;
}

std::string Reply(const std::string& result) {
  return R"({"id":0,"result":")" + result + R"(","error":null})";
}

TEST(JsonRpcClientTest, ReadsAReply) {
  FakeUnixServer server([](int fd, const std::string& request) {
    EXPECT_EQ(request, R"({"method":"cluster/status","params":["DB"],"id":0})");
    FakeUnixServer::WriteAll(fd, Reply("hello"));
  });
  const auto r = UnixctlCall(server.path(), "cluster/status", {"DB"}, Timeout(2000));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value(), "hello");
}

TEST(JsonRpcClientTest, NeverAnsweringServerTimesOutOnTime) {
  FakeUnixServer server([&server](int, const std::string&) { server.Hang(); });
  const auto start = Clock::now();
  const auto r = UnixctlCall(server.path(), "cluster/status", {"DB"}, Timeout(300));
  const auto elapsed = Clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout);
  EXPECT_GE(elapsed, std::chrono::milliseconds(290));
  EXPECT_LT(elapsed, std::chrono::milliseconds(600));
}

TEST(JsonRpcClientTest, PartialReplyThenSilenceTimesOut) {
  FakeUnixServer server([&server](int fd, const std::string&) {
    FakeUnixServer::WriteAll(fd, R"({"id":0,"result":"half)");
    server.Hang();
  });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(200));
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout);
}

TEST(JsonRpcClientTest, GarbageIsInvalidJson) {
  FakeUnixServer server([](int fd, const std::string&) {
    FakeUnixServer::WriteAll(fd, std::string("\x01\x02garbage\xff", 11));
  });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(1000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidJson);
  EXPECT_NE(r.error().message.find("garbage"), std::string::npos);
}

TEST(JsonRpcClientTest, BalancedButInvalidJson) {
  FakeUnixServer server([](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, "{oops}"); });
  EXPECT_EQ(UnixctlCall(server.path(), "x", {}, Timeout(1000)).error().code,
            ErrorCode::kInvalidJson);
}

TEST(JsonRpcClientTest, OneBytePieces) {
  FakeUnixServer server([](int fd, const std::string&) {
    for (char c : Reply("slow but whole")) {
      FakeUnixServer::WriteAll(fd, std::string(1, c));
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(3000));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value(), "slow but whole");
}

TEST(JsonRpcClientTest, LargeReplyWithinBoundIsRead) {
  const std::string big(3u << 20, 'x');
  FakeUnixServer server(
      [&](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, Reply(big)); });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(5000));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().size(), big.size());
}

TEST(JsonRpcClientTest, TwentyMebibyteReplyIsRefused) {
  FakeUnixServer server([](int fd, const std::string&) {
    FakeUnixServer::WriteAll(fd, Reply(std::string(20u << 20, 'x')));
  });
  const auto start = Clock::now();
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(5000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kReplyTooLarge);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

// The round's budget bounds what is held: notifications read and dropped before the reply give
// their bytes back, a reply larger than what is left is refused.
TEST(JsonRpcClientTest, TheBudgetCountsWhatIsHeldNotWhatWasDropped) {
  std::string notes;
  while (notes.size() < (2u << 20)) notes += R"({"id":null,"method":"n","params":[]})";
  FakeUnixServer chatty(
      [&](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, notes + Reply("ok")); });
  ReplyBudget budget(1u << 20);
  CallOptions o = Timeout(5000);
  o.budget = &budget;
  const auto r = UnixctlCall(chatty.path(), "x", {}, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(budget.refusals(), 0u);

  FakeUnixServer big([](int fd, const std::string&) {
    FakeUnixServer::WriteAll(fd, Reply(std::string(2u << 20, 'x')));
  });
  ReplyBudget small(1u << 20);
  o.budget = &small;
  const auto refused = UnixctlCall(big.path(), "x", {}, o);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kRoundBudgetExceeded);
  EXPECT_EQ(small.refusals(), 1u);
}

TEST(JsonRpcClientTest, ClosedMidReply) {
  FakeUnixServer server(
      [](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, R"({"id":0,"result":"cut)"); });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(1000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kConnectionClosed);
}

TEST(JsonRpcClientTest, SkipsServerRequestsAndOtherIds) {
  FakeUnixServer server([](int fd, const std::string&) {
    FakeUnixServer::WriteAll(fd, R"({"id":"echo","method":"echo","params":[]} )"
                                 R"({"id":9,"result":"not ours","error":null})" +
                                     Reply("ours"));
  });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(1000));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value(), "ours");
}

// Runs `f` on a thread with the stack civetweb's Debian build gives its workers (100 KiB),
// where the HTTP handlers run the reads.
template <typename F>
void OnWorkerSizedStack(F f) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 100 * 1024), 0);
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<F*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, trampoline, &f), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

TEST(JsonRpcClientTest, DeeplyNestedRepliesDoNotExhaustAWorkerStack) {
  const std::size_t depth = 100000;
  const std::string nested = std::string(depth, '[') + std::string(depth, ']');
  for (const std::string& reply : {R"({"id":0,"result":)" + nested + "}",
                                   R"({"id":0,"result":null,"error":)" + nested + "}"}) {
    FakeUnixServer server([&](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, reply); });
    std::optional<ReadResult<std::string>> r;
    OnWorkerSizedStack(
        [&] { r = UnixctlCall(server.path(), "cluster/status", {"DB"}, Timeout(5000)); });
    ASSERT_TRUE(r.has_value());
    ASSERT_FALSE(r->ok());  // not a string result: an error, clearly said, and no crash
    EXPECT_TRUE(r->error().code == ErrorCode::kProtocolError ||
                r->error().code == ErrorCode::kRpcError)
        << r->error().message;
  }
}

TEST(JsonRpcClientTest, ErrorReplyIsRpcError) {
  FakeUnixServer server([](int fd, const std::string&) {
    FakeUnixServer::WriteAll(fd, R"({"id":0,"result":null,"error":"unknown command"})");
  });
  const auto r = UnixctlCall(server.path(), "x", {}, Timeout(1000));
  EXPECT_EQ(r.error().code, ErrorCode::kRpcError);
  EXPECT_EQ(r.error().message, "unknown command");
}

TEST(JsonRpcClientTest, MissingSocket) {
  const auto r = UnixctlCall("/nonexistent/ovnnb_db.ctl", "x", {}, Timeout(1000));
  EXPECT_EQ(r.error().code, ErrorCode::kSocketMissing);
  EXPECT_NE(r.error().message.find("/nonexistent/ovnnb_db.ctl"), std::string::npos);
}

TEST(JsonRpcClientTest, NobodyListening) {
  char dir[] = "/tmp/ovn-raft-dead.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/dead.ctl";
  close(BindUnixSocket(
      path, false));  // the file stays, nobody listens: what a crashed server leaves behind
  EXPECT_EQ(UnixctlCall(path, "x", {}, Timeout(1000)).error().code, ErrorCode::kConnectFailed);
  unlink(path.c_str());
  rmdir(dir);
}

TEST(JsonRpcClientTest, PermissionDenied) {
  char dir[] = "/tmp/ovn-raft-perm.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  chmod(dir, 0755);
  const std::string path = std::string(dir) + "/locked.ctl";
  const int fd = BindUnixSocket(path, true);
  chmod(path.c_str(), 0600);
  // Root ignores file modes, so the call runs in a child that has dropped to "nobody".
  const pid_t child = fork();
  if (child == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    const auto r = UnixctlCall(path, "x", {}, Timeout(1000));
    _exit(!r.ok() && r.error().code == ErrorCode::kPermissionDenied ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  close(fd);
  unlink(path.c_str());
  rmdir(dir);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(JsonRpcClientTest, PathTooLong) {
  EXPECT_EQ(UnixctlCall(std::string(200, 'a'), "x", {}, Timeout(100)).error().code,
            ErrorCode::kConnectFailed);
}

}  // namespace
}  // namespace ovn_raft

namespace ovn_raft {
namespace {

TEST(JsonRpcConnectionTest, KeptConnectionIsReusedAndReopenedAfterServerClose) {
  // The fake closes after every reply, as a restarted server would: the kept connection is
  // found closed on the next call, which must reconnect and still succeed.
  FakeUnixServer server([](int fd, const std::string& request) {
    const auto id = request.substr(request.find("\"id\":") + 5);
    FakeUnixServer::WriteAll(
        fd, R"({"id":)" + id.substr(0, id.size() - 1) + R"(,"result":"ok","error":null})");
  });
  JsonRpcConnection connection(server.path());
  for (int i = 0; i < 3; ++i) {
    std::vector<JsonRpcCall> calls;
    calls.push_back(UnixctlRequest(connection, "x", {}));
    ExchangeAll(calls, Timeout(1000));
    const auto r = UnixctlResult(calls[0]);
    ASSERT_TRUE(r.ok()) << i << ": " << r.error().message;
    EXPECT_EQ(r.value(), "ok");
  }
  EXPECT_EQ(server.requests(), 3);
}

// A session starts when the server went away (first connect, the server closing), not when the
// exporter dropped a connection itself after its deadline: a slow server is not a restarted one.
TEST(JsonRpcConnectionTest, SessionsCountOnlyConnectsAfterTheServerWentAway) {
  std::atomic<int> seen{0};
  FakeUnixServer server([&](int fd, const std::string& request) {
    if (seen++ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(400));  // too slow
    const auto id = request.substr(request.find("\"id\":") + 5);
    FakeUnixServer::WriteAll(
        fd, R"({"id":)" + id.substr(0, id.size() - 1) + R"(,"result":"ok","error":null})");
  });
  JsonRpcConnection connection(server.path());
  const auto call = [&](int timeout_ms) {
    std::vector<JsonRpcCall> calls;
    calls.push_back(UnixctlRequest(connection, "x", {}));
    ExchangeAll(calls, Timeout(timeout_ms));
    return UnixctlResult(calls[0]);
  };
  EXPECT_EQ(call(100).error().code, ErrorCode::kTimeout);  // the exporter drops it
  EXPECT_EQ(connection.connects(), 1u);
  EXPECT_EQ(connection.sessions(), 1u);
  EXPECT_TRUE(call(2000).ok());  // a new connection, the same server
  EXPECT_EQ(connection.connects(), 2u);
  EXPECT_EQ(connection.sessions(), 1u);
  EXPECT_TRUE(call(2000).ok());  // the fake closed the kept one: the server went away
  EXPECT_EQ(connection.connects(), 3u);
  EXPECT_EQ(connection.sessions(), 2u);
}

TEST(JsonRpcConnectionTest, CallsOnDifferentSocketsRunInParallel) {
  auto slow = [](int fd, const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    FakeUnixServer::WriteAll(fd, Reply("late"));
  };
  FakeUnixServer a(slow), b(slow);
  FakeUnixServer hung([&hung](int, const std::string&) { hung.Hang(); });
  JsonRpcConnection ca(a.path()), cb(b.path()), ch(hung.path()), missing("/nonexistent.ctl");
  std::vector<JsonRpcCall> calls;
  for (JsonRpcConnection* c : {&ca, &cb, &ch, &missing})
    calls.push_back(UnixctlRequest(*c, "x", {}));
  const auto start = Clock::now();
  ExchangeAll(calls, Timeout(800));
  const auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, std::chrono::milliseconds(790));   // the hung one holds the round...
  EXPECT_LT(elapsed, std::chrono::milliseconds(1100));  // ...but only until the deadline
  EXPECT_EQ(UnixctlResult(calls[0]).value(), "late");
  EXPECT_EQ(UnixctlResult(calls[1]).value(), "late");
  EXPECT_LT(calls[0].done_at - start, std::chrono::milliseconds(550));  // not 300 + 300
  EXPECT_LT(calls[1].done_at - start, std::chrono::milliseconds(550));
  EXPECT_EQ(UnixctlResult(calls[2]).error().code, ErrorCode::kTimeout);
  EXPECT_EQ(UnixctlResult(calls[3]).error().code, ErrorCode::kSocketMissing);
}

// Each call is told as it ends, not when the last one does: a caller uses the quick replies
// while a slow one is still awaited.
TEST(JsonRpcConnectionTest, AnExchangeTellsEachCallAsItEnds) {
  FakeUnixServer quick(
      [](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, Reply("q")); });
  FakeUnixServer slow([](int fd, const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    FakeUnixServer::WriteAll(fd, Reply("s"));
  });
  FakeUnixServer hung([&hung](int, const std::string&) { hung.Hang(); });
  JsonRpcConnection cs(slow.path()), cq(quick.path()), ch(hung.path());
  std::vector<JsonRpcCall> calls;
  for (JsonRpcConnection* c : {&cs, &cq, &ch}) calls.push_back(UnixctlRequest(*c, "x", {}));
  std::vector<std::pair<std::size_t, Clock::duration>> ended;
  const auto start = Clock::now();
  Exchange exchange(calls, Timeout(800));
  for (const auto* step = &exchange.Next(); !step->empty(); step = &exchange.Next()) {
    for (const std::size_t i : *step) {
      EXPECT_NE(calls[i].done_at, Clock::time_point{});  // its reply or error is there already
      ended.emplace_back(i, Clock::now() - start);
    }
  }
  ASSERT_EQ(ended.size(), 3u);
  EXPECT_EQ(ended[0].first, 1u);
  EXPECT_LT(ended[0].second, std::chrono::milliseconds(200));
  EXPECT_EQ(ended[1].first, 0u);
  EXPECT_LT(ended[1].second, std::chrono::milliseconds(700));
  EXPECT_EQ(ended[2].first, 2u);
  EXPECT_GE(ended[2].second, std::chrono::milliseconds(790));
  EXPECT_EQ(UnixctlResult(calls[1]).value(), "q");
  EXPECT_EQ(UnixctlResult(calls[2]).error().code, ErrorCode::kTimeout);
}

// A kept connection the server closed between calls (it restarted) is found before the next
// call: the session has ended, and the next connection starts another.
TEST(JsonRpcConnectionTest, AConnectionTheServerClosedIsDroppedBeforeTheNextCall) {
  FakeUnixServer server(
      [](int fd, const std::string&) { FakeUnixServer::WriteAll(fd, Reply("ok")); });
  JsonRpcConnection connection(server.path());
  EXPECT_FALSE(connection.DropIfClosedByServer());  // nothing to drop
  EXPECT_TRUE(connection.session_ended());          // none begun
  std::vector<JsonRpcCall> calls;
  calls.push_back(UnixctlRequest(connection, "x", {}));
  ExchangeAll(calls, Timeout(1000));
  ASSERT_TRUE(UnixctlResult(calls[0]).ok());
  EXPECT_FALSE(connection.session_ended());
  EXPECT_EQ(connection.sessions(), 1u);
  // The fake closes every connection after its reply.
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  bool dropped = false;
  while (!(dropped = connection.DropIfClosedByServer()) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(dropped);
  EXPECT_LT(connection.fd(), 0);
  EXPECT_TRUE(connection.session_ended());
  EXPECT_EQ(connection.sessions(), 1u);  // counted when the next one connects
}

}  // namespace
}  // namespace ovn_raft
