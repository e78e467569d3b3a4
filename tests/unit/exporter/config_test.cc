#include "exporter/config.h"

#include <gtest/gtest.h>

#include <map>

namespace ovn_raft {
namespace {

ConfigResult Parse(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  return ParseConfig(args, [env](const std::string& name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
}

TEST(ConfigTest, DefaultsWorkInAKubeOvnPod) {
  const auto r = Parse({});
  ASSERT_TRUE(r.settings.has_value()) << r.error.value_or("");
  const Config& c = *r.settings;
  ASSERT_EQ(c.listen_addresses.size(), 1u);
  EXPECT_EQ(c.listen_addresses[0].spec, ":10476");
  EXPECT_EQ(c.telemetry_path, "/metrics");
  EXPECT_EQ(c.timeout, std::chrono::seconds(2));
  EXPECT_EQ(c.min_interval, std::chrono::seconds(1));
  EXPECT_TRUE(c.databases.empty());  // found at start: socket_discovery_test.cc
  EXPECT_EQ(c.web_max_connections, 64);
  EXPECT_EQ(c.web_request_timeout, std::chrono::seconds(2));
  EXPECT_EQ(c.max_reply_bytes, 8u << 20);
  EXPECT_EQ(c.max_members, 256u);
  EXPECT_EQ(c.expected.size(), 0);
  EXPECT_EQ(c.log_level, LogLevel::kInfo);
}

TEST(ConfigTest, FlagsInBothForms) {
  const auto r =
      Parse({"--web.listen-address=127.0.0.1:9999", "--web.telemetry-path", "/m",
             "--ovsdb.timeout=500ms", "--ovsdb.min-interval=0", "--log.level=debug",
             "--log.format=json", "--ovsdb.database=OVN_IC_Northbound=/run/ic.ctl,/run/ic.sock",
             "--cluster.expected-members=3"});
  ASSERT_TRUE(r.settings.has_value()) << r.error.value_or("");
  EXPECT_EQ(r.settings->listen_addresses.at(0).spec, "127.0.0.1:9999");
  EXPECT_EQ(r.settings->telemetry_path, "/m");
  EXPECT_EQ(r.settings->timeout, std::chrono::milliseconds(500));
  EXPECT_EQ(r.settings->min_interval, std::chrono::milliseconds(0));
  EXPECT_EQ(r.settings->log_level, LogLevel::kDebug);
  EXPECT_EQ(r.settings->log_format, LogFormat::kJson);
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.settings->expected.members, 3);
  ASSERT_EQ(r.settings->databases.size(), 1u);  // given once, it replaces the defaults
  EXPECT_EQ(r.settings->databases[0].name, "OVN_IC_Northbound");
  EXPECT_EQ(r.settings->databases[0].sock_path, "/run/ic.sock");
}

// A third path, the database file, is optional: without it nothing about the file is read.
TEST(ConfigTest, DatabaseFileIsAnOptionalThirdPath) {
  const auto r = Parse({"--ovsdb.database=A=/a.ctl,/a.sock,/var/lib/ovn/a.db",
                        "--ovsdb.database=B=/b.ctl,/b.sock", "--ovsdb.database=C=/c.ctl"});
  ASSERT_TRUE(r.settings.has_value()) << r.error.value_or("");
  ASSERT_EQ(r.settings->databases.size(), 3u);
  EXPECT_EQ(r.settings->databases[0].sock_path, "/a.sock");
  EXPECT_EQ(r.settings->databases[0].file_path, "/var/lib/ovn/a.db");
  EXPECT_EQ(r.settings->databases[1].sock_path, "/b.sock");
  EXPECT_EQ(r.settings->databases[1].file_path, "");
  EXPECT_EQ(r.settings->databases[2].file_path, "");
  for (const std::string bad : {"A=/a.ctl,/a.sock,", "A=/a.ctl,,/a.db", "A=/a.ctl,/s,/f,/x"}) {
    const auto e = Parse({"--ovsdb.database=" + bad});
    EXPECT_FALSE(e.settings.has_value()) << bad;
    EXPECT_NE(e.error.value_or("").find("NAME=CTL[,SOCK[,FILE]]"), std::string::npos) << bad;
  }
}

TEST(ConfigTest, EnvironmentFillsWhatFlagsLeaveUnset) {
  const auto r = Parse({"--ovsdb.timeout=3s"},
                       {{"OVN_RAFT_EXPORTER_OVSDB_TIMEOUT", "1s"},
                        {"OVN_RAFT_EXPORTER_WEB_LISTEN_ADDRESS", ":1234"},
                        {"OVN_RAFT_EXPORTER_OVSDB_DATABASE", "A=/a.ctl;B=/b.ctl,/b.sock"}});
  ASSERT_TRUE(r.settings.has_value()) << r.error.value_or("");
  EXPECT_EQ(r.settings->timeout, std::chrono::seconds(3));
  EXPECT_EQ(r.settings->listen_addresses.at(0).spec, ":1234");
  ASSERT_EQ(r.settings->databases.size(), 2u);
  EXPECT_EQ(r.settings->databases[0].sock_path, "");
  EXPECT_EQ(r.settings->databases[1].sock_path, "/b.sock");
}

TEST(ConfigTest, ExpectedHostsInKubeOvnsNodeIpsFormat) {
  // NODE_IPS as Kube-OVN writes it.
  const auto r =
      Parse({}, {{"OVN_RAFT_EXPORTER_CLUSTER_EXPECTED_HOSTS", "10.0.0.3,10.0.0.1,10.0.0.2"}});
  ASSERT_TRUE(r.settings) << r.error.value_or("");
  EXPECT_EQ(r.settings->expected.hosts,
            (std::vector<std::string>{"10.0.0.1", "10.0.0.2", "10.0.0.3"}));
  EXPECT_EQ(r.settings->expected.size(), 3);  // implied by the hosts
  // --cluster.expected-members wins over the count of hosts.
  const auto both = Parse({"--cluster.expected-hosts=a,b", "--cluster.expected-members=3"});
  ASSERT_TRUE(both.settings);
  EXPECT_EQ(both.settings->expected.size(), 3);
  EXPECT_EQ(both.settings->expected.hosts.size(), 2u);
}

TEST(ConfigTest, ListenAddressesAndSourcesOfEitherFamily) {
  const auto r = Parse({"--web.listen-address=[fd00::5]:10476",
                        "--web.allowed-sources=10.0.0.0/8, fd00::/8, [::1], 192.168.1.5"});
  ASSERT_TRUE(r.settings) << r.error.value_or("");
  EXPECT_EQ(r.settings->listen_addresses.at(0).spec, "[fd00::5]:10476");
  EXPECT_EQ(r.settings->web_allowed_sources,
            (std::vector<std::string>{"10.0.0.0/8", "fd00::/8", "::1/128", "192.168.1.5/32"}));
  EXPECT_TRUE(Parse({"--web.listen-address=[10.0.0.1]:10476"}).settings);
  // Repeatable, as the Go exporters' flag: a loopback and the pod address, or both families.
  const auto both = Parse({"--web.listen-address=127.0.0.1:10476",
                           "--web.listen-address=[fd00::5]:10476", "--web.listen-address=[::1]:9"});
  ASSERT_TRUE(both.settings) << both.error.value_or("");
  ASSERT_EQ(both.settings->listen_addresses.size(), 3u);
  EXPECT_TRUE(both.settings->listen_addresses[1].ipv6);
  EXPECT_TRUE(Parse({"--web.listen-address=0.0.0.0:1", "--web.listen-address=[::1]:1"}).settings);
  // Two that would take the same port are refused before civetweb fails on it.
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {":1", "127.0.0.1:1"}, {"[::]:1", "127.0.0.1:1"}, {"[::1]:1", "[::1]:1"}}) {
    const auto r2 = Parse({"--web.listen-address=" + a, "--web.listen-address=" + b});
    EXPECT_NE(r2.error.value_or("").find("both would take port 1"), std::string::npos)
        << a << " " << b;
  }
}

// The environment's list is refused alike; an empty variable is an unset one, as for every flag.
TEST(ConfigTest, AnAllowedSourcesListOfOnlyCommasIsRefused) {
  const auto r = Parse({}, {{"OVN_RAFT_EXPORTER_WEB_ALLOWED_SOURCES", ",, ,"}});
  EXPECT_NE(r.error.value_or("").find("names no network"), std::string::npos)
      << r.error.value_or("(accepted)");
  const auto unset = Parse({}, {{"OVN_RAFT_EXPORTER_WEB_ALLOWED_SOURCES", ""}});
  ASSERT_TRUE(unset.settings) << unset.error.value_or("");
  EXPECT_TRUE(unset.settings->web_allowed_sources.empty());
}

TEST(ConfigTest, ClearErrors) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--nope=1"}, "unknown flag --nope"},
      {{"--ovsdb.timeout=fast"}, "--ovsdb.timeout"},
      {{"--ovsdb.timeout=0"}, "more than 0"},
      {{"--web.listen-address=localhost"}, "HOST:PORT"},
      {{"--web.listen-address=:70000"}, "HOST:PORT"},
      {{"--web.listen-address=fd00::1:10476"}, "needs brackets: [fd00::1]:10476"},
      {{"--web.allowed-sources=10.0.0.0/33"}, "IPv4 or IPv6 CIDRs"},
      {{"--web.allowed-sources=fd00::/129"}, "IPv4 or IPv6 CIDRs"},
      {{"--web.allowed-sources=10.0.0"}, "IPv4 or IPv6 CIDRs"},
      // An empty list (an empty template variable) must not admit everyone.
      {{"--web.allowed-sources="}, "names no network"},
      {{"--web.allowed-sources=,, ,"}, "leave the flag out to admit every source"},
      {{"--ovsdb.database=justaname"}, "NAME=CTL"},
      {{"--ovsdb.database=A=/a", "--ovsdb.database=A=/b"}, "given twice"},
      {{"--log.level=loud"}, "debug, info"},
      {{"--log.format=text"}, "logfmt or json"},
      {{"--cluster.expected-members=three"}, "number of members"},
      {{"--cluster.expected-hosts=10.0.0.1;10.0.0.2"}, "IPs or DNS names"},
      {{"--web.telemetry-path=metrics"}, "start with /"},
      {{"--ovsdb.timeout"}, "needs a value"},
      {{"stray"}, "unexpected argument"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = Parse(args);
    EXPECT_FALSE(r.settings.has_value()) << args[0];
    EXPECT_NE(r.error.value_or("").find(message), std::string::npos)
        << args[0] << ": " << r.error.value_or("");
  }
  const auto env = Parse({}, {{"OVN_RAFT_EXPORTER_OVSDB_MIN_INTERVAL", "soon"}});
  EXPECT_NE(env.error.value_or("").find("OVN_RAFT_EXPORTER_OVSDB_MIN_INTERVAL"), std::string::npos);
}

TEST(ConfigTest, OnlyTheDottedSpellingsExist) {
  for (const std::string old :
       {"--database=A=/a.ctl", "--timeout=3s", "--min-interval=0", "--max-reply-size=4096",
        "--max-members=5", "--expected-members=5", "--expected-hosts=a,b"}) {
    const auto r = Parse({old});
    EXPECT_FALSE(r.settings.has_value()) << old;
    EXPECT_NE(r.error.value_or("").find("unknown flag " + old.substr(0, old.find('='))),
              std::string::npos)
        << old << ": " << r.error.value_or("");
  }
  // The old variables are not read: the defaults stand.
  const auto env =
      Parse({}, {{"OVN_RAFT_EXPORTER_TIMEOUT", "9s"}, {"OVN_RAFT_EXPORTER_EXPECTED_MEMBERS", "5"}});
  ASSERT_TRUE(env.settings) << env.error.value_or("");
  EXPECT_EQ(env.settings->timeout, std::chrono::seconds(2));
  EXPECT_EQ(env.settings->expected.size(), 0);
  EXPECT_TRUE(env.warnings.empty());
}

TEST(ConfigTest, HelpAndVersion) {
  EXPECT_TRUE(Parse({"--help"}).help);
  EXPECT_TRUE(Parse({"--version"}).version);
  const std::string usage = ConfigUsage();
  EXPECT_NE(usage.find("--web.listen-address"), std::string::npos);
  EXPECT_NE(usage.find("OVN_RAFT_EXPORTER_OVSDB_MIN_INTERVAL"), std::string::npos);
  EXPECT_EQ(usage.find("formerly"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
