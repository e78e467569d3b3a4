// The whole /metrics page of the real binary, against committed expectations, as node_exporter
// proves its collectors: fake ovsdb-server sockets replay captured cluster/status replies and
// _Server rows, the exporter serves them over HTTP, and the page (less the series that change
// from run to run) must equal tests/golden/NAME.prom. After an intended change,
//   OVN_RAFT_UPDATE_GOLDEN=1 ctest -R golden
// rewrites the files; review their diff like code.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/exporter_process.h"
#include "support/fake_ovsdb_server.h"
#include "support/fixtures.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::FakeUnixServer;

// One database as a fake ovsdb-server shows it: on the unixctl socket its cluster/status text
// (or garbage bytes to every request, or, with `status_error`, an error reply to cluster/status),
// its memory/show, storage status and release, and, when `row` is set, its _Server.Database row
// on the other socket.
struct FakeDatabase {
  std::string name;
  std::string status;  // a fixture's text
  std::optional<std::string> row;
  bool garbage = false;
  std::string memory = testing::Fixture("ovs-3.1.0/memory-show/leader.txt");
  std::string storage = "status: ok";
  std::optional<std::string> status_error = std::nullopt;

  std::string UnixctlReply(const std::string& request) const {
    if (garbage) return std::string("\x01\xfe not json at all");
    const std::string method = testing::RequestMethod(request);
    if (method == "memory/show") return testing::ReplyText(request, memory);
    if (method == "ovsdb-server/get-db-storage-status") return testing::ReplyText(request, storage);
    if (method == "version")
      return testing::ReplyText(request, "ovsdb-server (Open vSwitch) 3.1.0\n");
    // As 3.1.0 answers: the counter came in 3.3.
    if (method == "coverage/read-counter") return testing::ReplyError(request, "No such counter");
    if (status_error) return testing::ReplyError(request, *status_error);
    return testing::ReplyText(request, status);
  }
};

class FakeOvsdb {
 public:
  explicit FakeOvsdb(const FakeDatabase& db) {
    ctl_ = std::make_unique<FakeUnixServer>([db](int fd, const std::string& request) {
      FakeUnixServer::WriteAll(fd, db.UnixctlReply(request));
    });
    if (db.row) {
      sock_ = std::make_unique<FakeUnixServer>([db](int fd, const std::string& request) {
        FakeUnixServer::WriteAll(fd, testing::ReplyJson(request, "[{\"rows\":[" + *db.row + "]}]"));
      });
    }
    flag_ = "--ovsdb.database=" + db.name + "=" + ctl_->path() + (sock_ ? "," + sock_->path() : "");
  }
  const std::string& flag() const { return flag_; }

 private:
  std::unique_ptr<FakeUnixServer> ctl_, sock_;
  std::string flag_;
};

std::string Row(const std::string& name, bool connected, bool leader, const std::string& cid,
                const std::string& sid, int index) {
  return R"({"name":")" + name + R"(","model":"clustered","connected":)" +
         (connected ? "true" : "false") + R"(,"leader":)" + (leader ? "true" : "false") +
         R"(,"cid":["uuid",")" + cid + R"("],"sid":["uuid",")" + sid + R"("],"index":)" +
         std::to_string(index) + "}";
}

// What changes from run to run: the process, the build, times of the read, the wall clock and
// its conversions of "N ms ago". Their HELP and TYPE lines stay.
bool Volatile(const std::string& line) {
  static const std::regex kVolatile(
      R"(^(process_[a-z_]+|ovn_raft_exporter_build_info|ovn_raft_exporter_read_duration_seconds|ovn_raft_exporter_time_seconds|ovn_raft_ovsdb_server_response_seconds|[a-z_]+_timestamp_seconds)[{ ])");
  return std::regex_search(line, kVolatile);
}

std::string Stable(const std::string& page) {
  std::istringstream in(page);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!Volatile(line)) out += line + "\n";
  }
  return out;
}

std::filesystem::path GoldenDir() {
  return std::filesystem::path(testing::SourceDir()) / "tests/golden";
}

void ExpectGolden(const std::string& name, const std::vector<FakeDatabase>& dbs,
                  std::vector<std::string> flags = {}) {
  std::vector<std::unique_ptr<FakeOvsdb>> fakes;
  for (const auto& db : dbs) {
    fakes.push_back(std::make_unique<FakeOvsdb>(db));
    flags.push_back(fakes.back()->flag());
  }
  flags.push_back("--ovsdb.timeout=1s");
  ExporterProcess exporter(flags);
  const auto r = exporter.Get();
  ASSERT_EQ(r.status, 200) << r.error;
  const std::string got = Stable(r.body);
  const auto path = GoldenDir() / (name + ".prom");
  if (const char* update = std::getenv("OVN_RAFT_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(path, std::ios::binary) << got;
    return;
  }
  const std::string want = testing::ReadFile(path);
  if (got == want) return;
  const auto actual = std::filesystem::temp_directory_path() / (name + ".prom.actual");
  std::ofstream(actual, std::ios::binary) << got;
  const std::string diff = "diff -u " + path.string() + " " + actual.string();
  std::fflush(stdout);
  (void)std::system(diff.c_str());
  ADD_FAILURE() << name << ".prom differs (above: diff -u expected actual); if intended, rerun "
                << "with OVN_RAFT_UPDATE_GOLDEN=1 and review the change";
}

const char kCid[] = "0011204d-1872-47a6-974c-5c34f60e0cd5";

std::string Fixture(const std::string& file) { return testing::Fixture("ovs-3.1.0/" + file); }

TEST(MetricsGoldenTest, Leader) {
  ExpectGolden(
      "leader",
      {{"OVN_Northbound", Fixture("leader.txt"),
        Row("OVN_Northbound", true, true, kCid, "63559766-e4f9-4f00-a9d6-5b4f41b9af04", 5)},
       {"OVN_Southbound", Fixture("leader-sb.txt"), std::nullopt}},
      {"--cluster.expected-hosts=127.0.0.1,127.0.0.2,127.0.0.3"});
}

TEST(MetricsGoldenTest, Follower) {
  ExpectGolden(
      "follower",
      {{"OVN_Northbound", Fixture("follower.txt"),
        Row("OVN_Northbound", true, false, kCid, "68ff0e4c-0000-4000-8000-000000000000", 5)}});
}

TEST(MetricsGoldenTest, DisconnectedCandidate) {
  ExpectGolden(
      "candidate",
      {{"OVN_Northbound", Fixture("disconnected-candidate.txt"),
        Row("OVN_Northbound", false, false, kCid, "63559766-e4f9-4f00-a9d6-5b4f41b9af04", 5)}});
}

TEST(MetricsGoldenTest, Joining) {
  ExpectGolden("joining", {{"OVN_Northbound", Fixture("joining.txt"), std::nullopt}});
}

TEST(MetricsGoldenTest, StaleMemberAtTheSameAddress) {
  ExpectGolden("stale-member",
               {{"OVN_Northbound", Fixture("fresh-restart-leader.txt"), std::nullopt}},
               {"--cluster.expected-members=3"});
}

TEST(MetricsGoldenTest, FiveMembers) {
  ExpectGolden("five-members", {{"OVN_Northbound", Fixture("five-leader.txt"), std::nullopt}});
}

// A leader in failure mode after its disk filled, as 3.1.0 printed it.
TEST(MetricsGoldenTest, FailedLeader) {
  ExpectGolden("failed-leader", {{"OVN_Northbound", Fixture("failed-leader.txt"), std::nullopt,
                                  false, Fixture("memory-show/failed-leader.txt")}});
}

// A member whose storage holds an error ("inconsistent data": a Raft entry it could not apply).
TEST(MetricsGoldenTest, StorageError) {
  ExpectGolden("storage-error", {{"OVN_Northbound", Fixture("follower.txt"), std::nullopt, false,
                                  Fixture("memory-show/leader.txt"), "status: inconsistent data"}});
}

// A database without Raft, as ovsdb-server 3.1.0 shows it: its _Server row (no cid, sid or
// index), memory/show as a server that serves it alone printed it with one client, and
// cluster/status refused (a server with no clustered database has no such command).
FakeDatabase WithoutRaft(const std::string& name, const std::string& model, bool connected) {
  FakeDatabase db;
  db.name = name;
  db.row = R"({"name":")" + name + R"(","model":")" + model + R"(","connected":)" +
           (connected ? "true" : "false") + R"(,"leader":)" +
           (model == "standalone" ? "true" : "false") + R"(,"cid":["set",[]],"sid":["set",[]],)" +
           R"("index":["set",[]]})";
  db.memory = "atoms:14 cells:20 monitors:1 n-weak-refs:0 sessions:1\n";
  db.status_error =
      "\"cluster/status\" is not a valid command (use \"list-commands\" to see a list of valid "
      "commands)";
  return db;
}

// A standalone database is served as what it is: up, its model and its server's facts, no Raft
// series, no error counted.
TEST(MetricsGoldenTest, Standalone) {
  ExpectGolden("standalone", {WithoutRaft("OVN_Northbound", "standalone", true)});
}

// A relay: the same, and whether it is connected to its relay source (the second relay's source
// is gone).
TEST(MetricsGoldenTest, Relay) {
  FakeDatabase lost = WithoutRaft("OVN_Northbound", "relay", false);
  ExpectGolden("relay", {WithoutRaft("OVN_Southbound", "relay", true), lost});
}

TEST(MetricsGoldenTest, FailedDatabasesHideNothingElse) {
  ExpectGolden("failed-database",
               {{"OVN_Northbound", Fixture("leader.txt"), std::nullopt},
                {"Garbled", "", std::nullopt, true}},
               {"--ovsdb.database=Missing=/nonexistent/ovnsb_db.ctl"});
}

}  // namespace
}  // namespace ovn_raft
