// Databases that are not Raft members, on real servers: a standalone database (`ovsdb-tool
// create`) and a relay in front of a real cluster are read as what they are (up, their model,
// their server's facts), never as failures, and the log says what was found once.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "raft_cluster.h"
#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/exposition.h"
#include "support/ports.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace ovn_raft {
namespace {

using testing::Eventually;
using testing::ExporterProcess;
using testing::Exposition;
using testing::RaftCluster;
using testing::Shell;

// The release under test (OVS_BIN_DIR's, else the system's), as the cluster runs it.
std::string Ovs(const std::string& program) { return "${OVS_BIN_DIR:+$OVS_BIN_DIR/}" + program; }

// One ovsdb-server of a test's own, detached, serving `source` (a database file, or
// relay:DB:REMOTES) on DIR/NAME.ctl and DIR/NAME.sock; killed at the end.
class OvsdbServer {
 public:
  OvsdbServer(const std::string& dir, const std::string& name, const std::string& source)
      : pidfile_(dir + "/" + name + ".pid"),
        ctl_(dir + "/" + name + ".ctl"),
        sock_(dir + "/" + name + ".sock") {
    int exit = 0;
    const std::string out = Shell(
        Ovs("ovsdb-server") + " --detach --no-chdir --pidfile=" + pidfile_ + " --unixctl=" + ctl_ +
            " --remote=punix:" + sock_ + " --log-file=" + dir + "/" + name + ".log " + source,
        &exit);
    if (exit != 0) ADD_FAILURE() << "ovsdb-server " << source << ": " << out;
  }
  ~OvsdbServer() { Shell("kill $(cat " + pidfile_ + ") 2>/dev/null"); }
  OvsdbServer(const OvsdbServer&) = delete;
  OvsdbServer& operator=(const OvsdbServer&) = delete;

  std::string Flag(const std::string& db) const {
    return "--ovsdb.database=" + db + "=" + ctl_ + "," + sock_;
  }

 private:
  std::string pidfile_, ctl_, sock_;
};

Exposition Scrape(const ExporterProcess& e) {
  const auto r = e.Get();
  EXPECT_EQ(r.status, 200);
  return Exposition(r.body);
}

std::map<std::string, std::string> Db(const std::string& name) { return {{"db", name}}; }

// No reason of the errors counter has counted anything for the database.
void ExpectNoErrorCounted(const Exposition& x, const std::string& db) {
  const auto errors = x.All("ovn_raft_exporter_errors_total", Db(db));
  EXPECT_FALSE(errors.empty());
  for (const auto& e : errors) EXPECT_EQ(e.value, 0) << e.labels.at("reason");
}

// Served as a database without Raft: up, its model, its server's facts, no Raft series.
void ExpectServedWithoutRaft(const Exposition& x, const std::string& db, const std::string& model) {
  EXPECT_EQ(x.Value("ovn_raft_up", Db(db)), 1);
  EXPECT_EQ(x.Value("ovn_raft_database_model_info", {{"db", db}, {"model", model}}), 1);
  EXPECT_EQ(x.All("ovn_raft_database_model_info", Db(db)).size(), 1u);
  EXPECT_EQ(x.Value("ovn_raft_clustered", Db(db)), 0);
  EXPECT_EQ(x.All("ovn_raft_ovsdb_server_build_info", Db(db)).size(), 1u);
  // Served; its value is the server's count when it answered memory/show, which may come
  // before the exporter's own session to it exists.
  EXPECT_GE(x.Value("ovn_raft_ovsdb_sessions", Db(db)).value_or(-1), 0);
  EXPECT_EQ(x.Value("ovn_raft_storage_ok", Db(db)), 1);
  for (const char* raft : {"ovn_raft_role", "ovn_raft_status", "ovn_raft_members",
                           "ovn_raft_server_info", "ovn_raft_connected", "ovn_raft_term"}) {
    EXPECT_TRUE(x.All(raft, Db(db)).empty()) << raft;
  }
  ExpectNoErrorCounted(x, db);
}

std::string ReadLog(const ExporterProcess& e) {
  std::ifstream in(e.log_path());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::size_t Occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(DatabaseModelIntegrationTest, StandaloneDatabaseIsServedAsStandalone) {
  const testing::TempDir dir("ovn-raft-standalone");
  ASSERT_EQ(Shell(Ovs("ovsdb-tool") + " create " + dir / "nb.db" +
                  " /usr/share/ovn/ovn-nb.ovsschema && echo created"),
            "created\n");
  const OvsdbServer nb(dir.path(), "nb", dir / "nb.db");
  ExporterProcess e({nb.Flag("OVN_Northbound"), "--ovsdb.min-interval=0"});
  for (int i = 0; i < 3; ++i) ExpectServedWithoutRaft(Scrape(e), "OVN_Northbound", "standalone");
  EXPECT_TRUE(Scrape(e).All("ovn_raft_relay_connected").empty());
  EXPECT_EQ(e.Get("/readyz").status, 200);
  const auto status = e.Get("/status").body;
  EXPECT_NE(status.find("\"model\":\"standalone\""), std::string::npos) << status;
  ASSERT_EQ(e.Terminate(), 0);
  const std::string log = ReadLog(e);
  EXPECT_EQ(Occurrences(log,
                        "OVN_Northbound is a standalone database: serving its server's "
                        "facts, no Raft status"),
            1u)
      << log;
  EXPECT_EQ(log.find("database read failed"), std::string::npos) << log;
}

// A relay in front of a real three-member SB cluster: served as a relay, connected while its
// source runs, disconnected (after ovsdb-server's grace) when every source member is gone, and
// connected again when they come back. Up throughout: the relay itself answers.
TEST(DatabaseModelIntegrationTest, RelayIsServedAndFollowsItsSource) {
  RaftCluster c(3);
  // The members serve clients on a TCP port of this test's own, as ovn-central does (6642).
  const std::string port = std::to_string(testing::TakePorts(1));
  const auto listen = [&] {
    for (int m = 1; m <= 3; ++m) {
      const std::string addr = "127.0.0." + std::to_string(m);
      EXPECT_EQ(Shell(Ovs("ovs-appctl") + " -t " + c.Ctl(m, "sb") +
                      " ovsdb-server/add-remote ptcp:" + port + ":" + addr + " && echo ok"),
                "ok\n");
    }
  };
  listen();
  const testing::TempDir dir("ovn-raft-relay");
  const OvsdbServer relay(dir.path(), "relay",
                          "relay:OVN_Southbound:tcp:127.0.0.1:" + port + ",tcp:127.0.0.2:" + port +
                              ",tcp:127.0.0.3:" + port);
  ExporterProcess e({relay.Flag("OVN_Southbound"), "--ovsdb.min-interval=0"});
  const auto connected = [&](double want) {
    return Scrape(e).Value("ovn_raft_relay_connected", Db("OVN_Southbound")) == want;
  };
  ASSERT_TRUE(Eventually([&] { return connected(1); }));
  ExpectServedWithoutRaft(Scrape(e), "OVN_Southbound", "relay");

  for (int m = 1; m <= 3; ++m) c.Kill(m);
  // ovsdb-server says a relay is connected while it retries, for its grace period (relay.c).
  EXPECT_TRUE(Eventually([&] { return connected(0); }, 90));
  ExpectServedWithoutRaft(Scrape(e), "OVN_Southbound", "relay");

  for (int m = 1; m <= 3; ++m) c.Restart(m);
  listen();
  EXPECT_TRUE(Eventually([&] { return connected(1); }, 90));
  ExpectServedWithoutRaft(Scrape(e), "OVN_Southbound", "relay");

  ASSERT_EQ(e.Terminate(), 0);
  const std::string log = ReadLog(e);
  EXPECT_EQ(Occurrences(log, "OVN_Southbound is a relay database"), 1u) << log;
  EXPECT_EQ(log.find("database read failed"), std::string::npos) << log;
}

}  // namespace
}  // namespace ovn_raft
