// The real binary held up against slow, hostile and flooding clients and hostile replies
// Behaviour only: the figures are scripts/abuse-benchmark.sh's.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "parsers/utf8.h"
#include "raft_cluster.h"
#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/exposition.h"
#include "support/fake_unix_server.h"
#include "support/fixtures.h"
#include "support/gunzip.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::FakeUnixServer;
using testing::RaftCluster;

struct ProcessState {
  int threads = 0;
  int fds = 0;
};

ProcessState StateOf(pid_t pid) {
  ProcessState s;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) s.threads = std::stoi(line.substr(8));
  }
  const std::string fd_dir = "/proc/" + std::to_string(pid) + "/fd";
  FILE* ls = popen(("ls " + fd_dir + " | wc -l").c_str(), "r");
  if (ls) {
    if (fscanf(ls, "%d", &s.fds) != 1) s.fds = -1;
    pclose(ls);
  }
  return s;
}

// A TCP connection from `source` (a 127.0.0.0/8 address) to the exporter, or -1.
int ConnectFrom(const std::string& source, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0 ||
      connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof(remote)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Sends a whole request and returns what came back before the server closed or 2 s passed.
std::string Exchange(int fd, const std::string& request) {
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) return "";
  std::string reply;
  char buf[4096];
  for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;)
    reply.append(buf, static_cast<size_t>(n));
  return reply;
}

// The id of a JSON-RPC request, as its reply must carry it.
std::string IdOf(const std::string& request) {
  const auto at = request.find("\"id\":");
  if (at == std::string::npos) return "0";
  const auto end = request.find_first_of(",}", at + 5);
  return request.substr(at + 5, end - at - 5);
}

// A unixctl reply carrying `status` (the bytes raw, newlines escaped as JSON wants them).
std::string StatusReply(const std::string& request, const std::string& status) {
  std::string escaped;
  for (char ch : status) escaped += ch == '\n' ? std::string("\\n") : std::string(1, ch);
  return R"({"id":)" + IdOf(request) + R"(,"result":")" + escaped + R"(","error":null})";
}

std::string Leader() { return testing::Fixture("ovs-3.1.0/leader.txt"); }

// A web config at `path` with user prom and `password`, bcrypt with 2^`log_rounds` rounds,
// written atomically (as a Secret update is).
void WriteWebConfig(const std::string& path, const std::string& password, int log_rounds) {
  ASSERT_EQ(system(("/usr/bin/python3 -W ignore -c 'import crypt; print(\"basic_auth_users:\\n  "
                    "prom: \" + crypt.crypt(\"" +
                    password + "\", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=" +
                    std::to_string(1 << log_rounds) + ")))' > " + path + ".new && mv " + path +
                    ".new " + path)
                       .c_str()),
            0);
}

std::string Base64(std::string_view in) {
  static const char* kB64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t at = 0; at < in.size(); at += 3) {
    unsigned v = static_cast<unsigned char>(in[at]) << 16;
    if (at + 1 < in.size()) v |= static_cast<unsigned char>(in[at + 1]) << 8;
    if (at + 2 < in.size()) v |= static_cast<unsigned char>(in[at + 2]);
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += at + 1 < in.size() ? kB64[(v >> 6) & 63] : '=';
    out += at + 2 < in.size() ? kB64[v & 63] : '=';
  }
  return out;
}

TEST(AbuseIntegrationTest, HostileRepliesNeitherCrashNorHideTheOthers) {
  RaftCluster c(1);
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  FakeUnixServer deep([&](int fd, const std::string& request) {
    FakeUnixServer::WriteAll(fd, R"({"id":)" + IdOf(request) + R"(,"result":)" + nested + "}");
  });
  std::string status = testing::Fixture("ovs-3.1.0/leader.txt");
  status.insert(status.find("Name: ") + 6, "\xFF\xFE");
  FakeUnixServer garbled([&](int fd, const std::string& request) {
    FakeUnixServer::WriteAll(fd, StatusReply(request, status));
  });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--ovsdb.database=Deep=" + deep.path(),
                     "--ovsdb.database=Garbled=" + garbled.path(), "--ovsdb.min-interval=0"});
  for (int i = 0; i < 3; ++i) {
    const auto r = e.Get();
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(ValidUtf8(r.body), r.body) << "the page must be valid UTF-8";
    const testing::Exposition x(r.body);
    EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1);
    EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "Deep"}}), 0);
    EXPECT_EQ(
        x.Value("ovn_raft_exporter_errors_total", {{"db", "Deep"}, {"reason", "protocol_error"}}),
        i + 1);
    EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "Garbled"}}), 1);
  }
  const auto s = e.Get("/status");
  ASSERT_EQ(s.status, 200);
  EXPECT_EQ(ValidUtf8(s.body), s.body);
  EXPECT_NE(s.body.find("\xEF\xBF\xBD"), std::string::npos);  // the replaced bytes
  // The scraper's timeout header, absurdly large, is clamped, not overflowed.
  const int fd = ConnectFrom("127.0.0.1", e.port());
  ASSERT_GE(fd, 0);
  const auto reply =
      Exchange(fd,
               "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Prometheus-Scrape-Timeout-Seconds: 1e300\r\n"
               "Connection: close\r\n\r\n");
  close(fd);
  EXPECT_EQ(reply.rfind("HTTP/1.1 200", 0), 0u) << reply.substr(0, 200);
}

// Any client may send X-Prometheus-Scrape-Timeout-Seconds: 0.1. A round read with that
// client's deadline would fail every concurrent scrape sharing it while ovsdb-server answers
// slowly: the header bounds that client's wait only.
TEST(AbuseIntegrationTest, OneClientsShortDeadlineDoesNotSpoilTheSharedRead) {
  FakeUnixServer slow([&](int fd, const std::string& request) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    FakeUnixServer::WriteAll(fd, StatusReply(request, Leader()));
  });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + slow.path(), "--ovsdb.min-interval=0"});
  int up = 0, scrapes = 0;
  for (int round = 0; round < 8; ++round) {
    std::thread impatient([&] {
      const int fd = ConnectFrom("127.0.0.1", e.port());
      Exchange(fd,
               "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Prometheus-Scrape-Timeout-Seconds: 0.1\r\n"
               "Connection: close\r\n\r\n");
      close(fd);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // its round is in flight
    std::vector<std::thread> others;
    std::atomic<int> round_up{0};
    for (int i = 0; i < 4; ++i) {
      others.emplace_back([&] {
        const auto r = e.Get();
        if (r.status == 200 &&
            testing::Exposition(r.body).Value("ovn_raft_up", {{"db", "OVN_Northbound"}}) == 1) {
          ++round_up;
        }
      });
    }
    impatient.join();
    for (auto& t : others) t.join();
    up += round_up;
    scrapes += 4;
  }
  std::printf("[ abuse ] %d of %d scrapes beside an impatient client saw up 1\n", up, scrapes);
  EXPECT_EQ(up, scrapes);
}

// A close the server starts must not reset the connection and drop what was not yet sent
// (civetweb's linger_timeout_ms 0 sets SO_LINGER {1, 0}). With Connection: close (HTTP/1.0),
// every fetch of a large page must arrive whole.
TEST(AbuseIntegrationTest, PagesClosedByTheServerArriveWhole) {
  std::string status = testing::Fixture("ovs-3.1.0/leader.txt");
  char line[128];
  for (int i = 1; i < 240; ++i) {  // a large page: 240 members' series
    std::snprintf(line, sizeof(line),
                  "    %04x (%04x at tcp:10.0.%d.%d:6643) next_index=5 match_index=4 last msg 210 "
                  "ms ago\n",
                  i, i, i >> 8, i & 255);
    status += line;
  }
  FakeUnixServer big([&](int fd, const std::string& request) {
    FakeUnixServer::WriteAll(fd, StatusReply(request, status));
  });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + big.path()});  // 1 s cache: shared
  const std::size_t page = e.Get().body.size();
  ASSERT_GT(page, 100000u);
  int whole = 0, fetches = 0;
  for (int round = 0; round < 3; ++round) {
    std::vector<std::thread> clients;
    std::atomic<int> ok{0};
    for (int i = 0; i < 20; ++i) {
      clients.emplace_back([&] {
        const int fd = ConnectFrom("127.0.0.1", e.port());
        const std::string reply = Exchange(fd, "GET /metrics HTTP/1.0\r\n\r\n");
        close(fd);
        const auto body = reply.find("\r\n\r\n");
        const auto length = reply.find("Content-Length: ");
        if (body != std::string::npos && length != std::string::npos && length < body &&
            reply.size() - body - 4 == std::stoul(reply.substr(length + 16))) {
          ++ok;
        }
      });
    }
    for (auto& t : clients) t.join();
    whole += ok;
    fetches += 20;
  }
  std::printf("[ abuse ] %d of %d HTTP/1.0 fetches of a %zu-byte page arrived whole\n", whole,
              fetches, page);
  EXPECT_EQ(whole, fetches);
}

// A flood of tiny messages before the reply must cost linear time, not one erase of the whole
// buffer per message (quadratic). 400,000 notifications, then the reply: it must be read within
// the read timeout.
TEST(AbuseIntegrationTest, AFloodOfTinyMessagesBeforeTheReply) {
  std::string flood;
  for (int i = 0; i < 400000; ++i) flood += R"({"id":null,"method":"n","params":[]})";
  FakeUnixServer noisy([&](int fd, const std::string& request) {
    FakeUnixServer::WriteAll(fd, flood + StatusReply(request, Leader()));
  });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + noisy.path(), "--ovsdb.timeout=5s"});
  const auto start = std::chrono::steady_clock::now();
  const auto r = e.Get();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ abuse ] %zu bytes of tiny messages before the reply: scrape in %.2f s\n",
              flood.size(), seconds);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(testing::Exposition(r.body).Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1);
}

// SIGTERM with scrapes in flight: mg_stop must not stop their writes while the handlers run.
// They finish within the grace period, then the exporter exits 0.
TEST(AbuseIntegrationTest, SigtermLetsTheScrapesInFlightFinish) {
  FakeUnixServer slow([&](int fd, const std::string& request) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    FakeUnixServer::WriteAll(fd, StatusReply(request, Leader()));
  });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + slow.path(), "--ovsdb.min-interval=0"});
  std::atomic<int> whole{0};
  std::vector<std::thread> scrapes;
  for (int i = 0; i < 50; ++i) {
    scrapes.emplace_back([&] {
      const auto r = e.Get();
      if (r.status == 200 &&
          r.body.find("ovn_raft_up{db=\"OVN_Northbound\"} 1") != std::string::npos) {
        ++whole;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // all in flight
  const auto start = std::chrono::steady_clock::now();
  const int status = e.Terminate(10000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (auto& t : scrapes) t.join();
  std::printf("[ abuse ] SIGTERM with 50 scrapes in flight: %d whole pages, exit %d in %.2f s\n",
              whole.load(), status, seconds);
  EXPECT_EQ(whole, 50);
  EXPECT_EQ(status, 0);
  EXPECT_LT(seconds, 5.0);
}

// Gzip when asked (Prometheus asks on every scrape), a whole page that inflates back.
TEST(AbuseIntegrationTest, GzipWhenAsked) {
  RaftCluster c(1);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb")});
  const int fd = ConnectFrom("127.0.0.1", e.port());
  const std::string reply = Exchange(
      fd, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n");
  close(fd);
  const auto head_end = reply.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  const std::string head = reply.substr(0, head_end);
  EXPECT_NE(head.find("Content-Encoding: gzip"), std::string::npos) << head;
  EXPECT_NE(head.find("Vary: Accept-Encoding"), std::string::npos) << head;
  const std::string packed = reply.substr(head_end + 4);
  const std::string page = testing::Gunzip(packed);
  ASSERT_FALSE(page.empty());
  EXPECT_EQ(testing::Exposition(page).Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 1);
  std::printf("[ abuse ] /metrics: %zu bytes, %zu gzipped\n", page.size(), packed.size());
}

// Clients that look busy must not hold every worker: 256 keep-alive connections sending a
// request every 1.5 s, or 300 bodies trickled a byte per 1.5 s (civetweb reads each body to its
// end after the handler). A real scrape must be answered all along.
struct BusyAttack {
  const char* name;
  std::string first;  // sent on connecting
  bool again;         // true: the request again every 1.5 s; false: one more body byte
};

TEST(AbuseIntegrationTest, ClientsThatLookBusyDoNotHoldEveryWorker) {
  RaftCluster c(1);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb")});
  for (const BusyAttack& attack :
       {BusyAttack{"256 keep-alive connections, a request each per 1.5 s",
                   "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", true},
        BusyAttack{"300 bodies of 100 MB trickled a byte per 1.5 s",
                   "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n",
                   false}}) {
    std::atomic<bool> stop{false};
    std::vector<std::thread> attackers;
    const int count = attack.again ? 256 : 300;
    for (int i = 0; i < count; ++i) {
      attackers.emplace_back([&] {
        const int fd = ConnectFrom("127.0.0.1", e.port());
        if (fd < 0) return;
        timeval tv{0, 200000};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        bool ok = send(fd, attack.first.data(), attack.first.size(), MSG_NOSIGNAL) > 0;
        while (ok && !stop) {
          char buf[4096];
          if (recv(fd, buf, sizeof(buf), 0) == 0) break;  // closed by the server
          for (int t = 0; t < 15 && !stop; ++t)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
          const std::string next = attack.again ? attack.first : "x";
          ok = send(fd, next.data(), next.size(), MSG_NOSIGNAL) > 0;
        }
        close(fd);
      });
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));
    int answered = 0;
    double worst = 0;
    for (int i = 0; i < 8; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const auto r = testing::HttpGet(e.Url(), "", 1500);
      worst = std::max(
          worst, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      answered += r.status == 200;
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
    }
    stop = true;
    for (auto& t : attackers) t.join();
    std::printf("[ abuse ] %s: %d of 8 scrapes answered, the slowest in %.3f s\n", attack.name,
                answered, worst);
    EXPECT_EQ(answered, 8) << attack.name;
  }
}

TEST(AbuseIntegrationTest, SlowClientsDoNotStarveAScrapeAndLeaveNothingBehind) {
  RaftCluster c(1);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.max-connections=4", "--web.request-timeout=500ms"});
  ASSERT_EQ(e.Get().status, 200);
  const auto baseline = StateOf(e.pid());
  // Three times as many connections as workers, each sending half a request and no more.
  std::vector<int> slow;
  for (int i = 0; i < 12; ++i) {
    const int fd = ConnectFrom("127.0.0.1", e.port());
    ASSERT_GE(fd, 0);
    const std::string half = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
    ASSERT_GT(send(fd, half.data(), half.size(), MSG_NOSIGNAL), 0);
    slow.push_back(fd);
  }
  const auto r = e.Get();
  EXPECT_EQ(r.status, 200) << "a scrape behind 12 slow connections";
  EXPECT_EQ(e.Get("/healthz").status, 200);
  for (int fd : slow) close(fd);
  EXPECT_TRUE(testing::Eventually([&] {
    const auto now = StateOf(e.pid());
    return now.threads == baseline.threads && now.fds <= baseline.fds;
  })) << "threads and descriptors back at their baseline";
}

TEST(AbuseIntegrationTest, AllowedSourcesRefuseOthersAtOnce) {
  RaftCluster c(1);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.allowed-sources=127.0.0.1/32"});
  const std::string get = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  const int allowed = ConnectFrom("127.0.0.1", e.port());
  ASSERT_GE(allowed, 0);
  EXPECT_EQ(Exchange(allowed, get).rfind("HTTP/1.1 200", 0), 0u);
  close(allowed);
  const int other = ConnectFrom("127.0.0.2", e.port());
  if (other >= 0) {  // accepted by the kernel, then closed by civetweb with no answer
    EXPECT_EQ(Exchange(other, get).find("200 OK"), std::string::npos);
    close(other);
  }
}

// A line per connection from a refused source would let anyone fill the log: at most a burst
// per 10 s, and one line saying how many were left out.
TEST(AbuseIntegrationTest, RefusedSourcesCannotFloodTheLog) {
  RaftCluster c(1);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.allowed-sources=127.0.0.1/32"});
  ASSERT_EQ(e.Get().status, 200);
  const auto lines = [&] {
    std::ifstream in(e.log_path());
    int n = 0;
    for (std::string line; std::getline(in, line);)
      n += line.find("http server") != std::string::npos;
    return n;
  };
  const int before = lines();
  int refused = 0;
  for (int i = 0; i < 2000; ++i) {
    const int fd = ConnectFrom("127.0.0.2", e.port());
    if (fd < 0) continue;
    ++refused;
    Exchange(fd, "GET / HTTP/1.0\r\n\r\n");
    close(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const int logged = lines() - before;
  std::printf("[ abuse ] %d refused connections wrote %d log lines\n", refused, logged);
  EXPECT_GT(refused, 100);
  EXPECT_LE(logged, 12);
  EXPECT_EQ(e.Get().status, 200);
}

// The web config is re-read when it changes (a rotated Secret), as exporter-toolkit
// does; a broken file keeps the last good users.
TEST(AbuseIntegrationTest, WebConfigReloadsOnChangeAndKeepsTheLastGoodOne) {
  RaftCluster c(1);
  char dir[] = "/tmp/ovn-raft-reload.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string web = std::string(dir) + "/web.yml";
  const auto write = [&](const std::string& password) { WriteWebConfig(web, password, 5); };
  write("first");
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.config.file=" + web});
  const auto status = [&](const std::string& password) {
    return testing::HttpGet(e.Url(), "prom:" + password).status;
  };
  EXPECT_EQ(status("first"), 200);
  write("second");
  EXPECT_TRUE(testing::Eventually([&] { return status("first") == 401; }, 5));
  EXPECT_EQ(status("second"), 200);
  ASSERT_EQ(system(("printf 'basic_auth_users:\\n  prom: $2\\n' > " + web).c_str()), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(status("second"), 200);  // the broken file is not taken
  std::ifstream log(e.log_path());
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("web config reloaded"), std::string::npos) << text;
  EXPECT_NE(text.find("web config reload failed, keeping the last good one"), std::string::npos)
      << text;
  EXPECT_EQ(system(("rm -rf " + std::string(dir)).c_str()), 0);
}

// After a fresh start (no password verified yet), clients guessing passwords from one source
// must not take every check slot and leave the right password from another source only 429s:
// one source runs one check at a time.
TEST(AbuseIntegrationTest, APasswordFloodFromOneSourceDoesNotLockOutAnother) {
  RaftCluster c(1);
  char dir[] = "/tmp/ovn-raft-fair.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string web = std::string(dir) + "/web.yml";
  WriteWebConfig(web, "secret", 10);  // bcrypt cost 10, as htpasswd -nBC 10 makes it
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.config.file=" + web});
  std::atomic<bool> stop{false};
  std::vector<std::thread> flood;
  for (int i = 0; i < 50; ++i) {
    flood.emplace_back([&, i] {
      // "prom:wrongN" differs per thread: no cache can answer it.
      const std::string b64 = Base64("prom:wrong" + std::to_string(i));
      while (!stop) {
        const int fd = ConnectFrom("127.0.0.2", e.port());
        if (fd < 0) continue;
        Exchange(fd,
                 "GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Basic " + b64 + "\r\n\r\n");
        close(fd);
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int ok = 0;
  for (int i = 0; i < 17; ++i) ok += testing::HttpGet(e.Url(), "prom:secret").status == 200;
  stop = true;
  for (auto& t : flood) t.join();
  std::printf(
      "[ abuse ] 50 clients guessing from 127.0.0.2: %d of 17 right-password scrapes from "
      "127.0.0.1 answered\n",
      ok);
  EXPECT_EQ(ok, 17);
  EXPECT_EQ(system(("rm -rf " + std::string(dir)).c_str()), 0);
}

// Many sources guessing at once (an attacker with many pods) must not take every check slot
// after a fresh start, which one check per source alone does not prevent. A source that
// guessed wrong never goes before one that did not, which waits its turn briefly.
TEST(AbuseIntegrationTest, PasswordFloodsFromManySourcesDoNotLockOutAScraper) {
  RaftCluster c(1);
  char dir[] = "/tmp/ovn-raft-fair.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string web = std::string(dir) + "/web.yml";
  // Ten users, so that each right password below is checked, not answered from the cache.
  ASSERT_EQ(
      system(("/usr/bin/python3 -W ignore -c 'import crypt; h = crypt.crypt(\"secret\", "
              "crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)); print(\"basic_auth_users:\"); "
              "[print(f\"  prom{i}: {h}\") for i in range(10)]' > " +
              web)
                 .c_str()),
      0);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.config.file=" + web});
  std::atomic<bool> stop{false};
  std::atomic<int> guesses{0};
  std::vector<std::thread> flood;
  for (int i = 0; i < 40; ++i) {
    flood.emplace_back([&, i] {
      const std::string source = "127.0.0." + std::to_string(10 + i);
      const std::string b64 = Base64("prom:wrong" + std::to_string(i));
      while (!stop) {
        const int fd = ConnectFrom(source, e.port());
        if (fd < 0) continue;
        Exchange(fd,
                 "GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Basic " + b64 + "\r\n\r\n");
        close(fd);
        ++guesses;
      }
    });
  }
  // Every source's first guess looks like anyone's and waits its turn; from its second on, the
  // source is known. A scraper after a fresh start tries every 200 ms: it waits for the first
  // guesses only. Then ten fresh right passwords, each of which needs a check of its own.
  const auto start = std::chrono::steady_clock::now();
  double first_ok = -1;
  while (first_ok < 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
    if (testing::HttpGet(e.Url(), "prom0:secret").status == 200) {
      first_ok = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
  int ok = 0;
  for (int i = 0; i < 10; ++i) {
    ok += testing::HttpGet(e.Url(), "prom" + std::to_string(i) + ":secret").status == 200;
  }
  const int before_stop = guesses.load();
  stop = true;
  for (auto& t : flood) t.join();
  std::printf(
      "[ abuse ] 40 sources guessing (%d guesses): the right password got in after %.1f s "
      "(-1: never in 20 s), then %d of 10 right passwords checked at once\n",
      before_stop, first_ok, ok);
  EXPECT_GE(first_ok, 0);
  EXPECT_EQ(ok, 10);
  EXPECT_GT(before_stop, 100);
  EXPECT_EQ(system(("rm -rf " + std::string(dir)).c_str()), 0);
}

// One source opening connections as fast as its threads allow, against an ovsdb-server that
// does not answer, must not hold every worker for the read's whole timeout while a scraper from
// another address waits behind its queue. One source holds at most a quarter of the workers;
// past that it gets 429 at once.
TEST(AbuseIntegrationTest, OneSourceCannotHoldEveryWorker) {
  FakeUnixServer hung([&](int, const std::string&) { hung.Hang(); });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + hung.path(), "--ovsdb.timeout=2s",
                     "--ovsdb.min-interval=0", "--web.max-connections=16"});
  std::atomic<bool> stop{false};
  std::atomic<int> flood_requests{0}, flood_429{0};
  std::vector<std::thread> flood;
  for (int i = 0; i < 64; ++i) {
    flood.emplace_back([&] {
      while (!stop) {
        const int fd = ConnectFrom("127.0.0.2", e.port());
        if (fd < 0) continue;
        const std::string reply = Exchange(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        close(fd);
        ++flood_requests;
        if (reply.rfind("HTTP/1.1 429", 0) == 0) ++flood_429;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(3));
  double slowest = 0;
  int ok = 0;
  for (int i = 0; i < 4; ++i) {
    const auto start = std::chrono::steady_clock::now();
    ok += testing::HttpGet(e.Url(), "", 20000).status == 200;
    slowest = std::max(
        slowest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  stop = true;
  for (auto& t : flood) t.join();
  std::printf(
      "[ abuse ] 64 connections at once from one source, ovsdb hung (2 s timeout), 16 workers: "
      "%d of 4 scrapes from another address answered, slowest %.1f s; the flood got %d of %d "
      "requests refused with 429\n",
      ok, slowest, flood_429.load(), flood_requests.load());
  EXPECT_EQ(ok, 4);
  EXPECT_LT(slowest, 4.0);  // the read's own 2 s, not the flood's queue
  EXPECT_GT(flood_429.load(), 0);
  const testing::Exposition x(testing::HttpGet(e.Url(), "", 20000).body);
  EXPECT_GT(*x.Value("ovn_raft_exporter_http_rejections_total", {{"reason", "source_busy"}}), 0);
}

std::string EnvironmentOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ");
  std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& ch : env) ch = ch == '\0' ? '\n' : ch;
  return env;
}

// The daemon never runs itself again to change its environment (glibc drops such settings for
// a secure exec, and the loop never ended): what it was started with is what it runs with.
// How it starts under setcap, setuid, the loader and a read-only /proc: web_edge_integration.
TEST(AbuseIntegrationTest, TheDaemonKeepsTheEnvironmentItWasGiven) {
  unsetenv("GLIBC_TUNABLES");
  RaftCluster c(1);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb")});
  EXPECT_EQ(e.Get().status, 200);
  EXPECT_EQ(EnvironmentOf(e.pid()).find("GLIBC_TUNABLES="), std::string::npos);
}

TEST(AbuseIntegrationTest, PasswordFloodIsThrottledAndTheRightUserStillScrapes) {
  RaftCluster c(1);
  char dir[] = "/tmp/ovn-raft-auth.XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string web = std::string(dir) + "/web.yml";
  WriteWebConfig(web, "secret", 10);  // bcrypt cost 10, as htpasswd -nBC 10 makes it
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + c.Ctl(1, "nb") + "," + c.Sock(1, "nb"),
                     "--web.config.file=" + web});
  ASSERT_EQ(testing::HttpGet(e.Url(), "prom:secret").status, 200);
  std::atomic<bool> stop{false};
  std::atomic<int> throttled{0};
  std::vector<std::thread> flood;
  for (int i = 0; i < 20; ++i) {
    flood.emplace_back([&, i] {
      while (!stop) {
        if (testing::HttpGet(e.Url(), "prom:wrong" + std::to_string(i)).status == 429) ++throttled;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(testing::HttpGet(e.Url(), "prom:secret").status, 200);
  stop = true;
  for (auto& t : flood) t.join();
  EXPECT_GT(throttled.load(), 0);
  const testing::Exposition x(testing::HttpGet(e.Url(), "prom:secret").body);
  EXPECT_GT(*x.Value("ovn_raft_exporter_http_rejections_total", {{"reason", "auth_throttled"}}), 0);
  EXPECT_GT(*x.Value("ovn_raft_exporter_http_rejections_total", {{"reason", "auth_failed"}}), 0);
  std::remove(web.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace ovn_raft
