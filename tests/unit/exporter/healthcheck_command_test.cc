// The healthcheck's URL comes from the serving exporter's own flags and environment, so an
// address given by flag is the one asked.

#include "exporter/healthcheck_command.h"

#include <gtest/gtest.h>

#include <map>

namespace ovn_raft {
namespace {

std::string Url(std::vector<std::string> args, std::map<std::string, std::string> env = {},
                bool tls = false) {
  const auto parsed =
      ParseConfig(args, [env](const std::string& name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
      });
  EXPECT_TRUE(parsed.settings.has_value()) << parsed.error.value_or("");
  const auto url = HealthcheckUrl(*parsed.settings, tls);
  return url ? url.value() : "error: " + url.error();
}

TEST(HealthcheckUrlTest, TheAddressGivenByFlagOrVariable) {
  EXPECT_EQ(Url({}), "http://127.0.0.1:10476/healthz");
  EXPECT_EQ(Url({"--web.listen-address=10.0.0.1:9000"}), "http://10.0.0.1:9000/healthz");
  EXPECT_EQ(Url({}, {{"OVN_RAFT_EXPORTER_WEB_LISTEN_ADDRESS", "192.0.2.7:9001;127.0.0.1:9002"}}),
            "http://192.0.2.7:9001/healthz");
  // The flag wins over the variable, as in the exporter.
  EXPECT_EQ(Url({"--web.listen-address", "10.0.0.2:9003"},
                {{"OVN_RAFT_EXPORTER_WEB_LISTEN_ADDRESS", "192.0.2.7:9001"}}),
            "http://10.0.0.2:9003/healthz");
}

TEST(HealthcheckUrlTest, WildcardsOnLoopbackIpv6BracketedTlsHttps) {
  EXPECT_EQ(Url({"--web.listen-address=0.0.0.0:9000"}), "http://127.0.0.1:9000/healthz");
  EXPECT_EQ(Url({"--web.listen-address=[::]:9000"}), "http://127.0.0.1:9000/healthz");
  EXPECT_EQ(Url({"--web.listen-address=[fd00::5]:9000"}), "http://[fd00::5]:9000/healthz");
  EXPECT_EQ(Url({"--web.listen-address=[10.1.2.3]:9000"}), "http://10.1.2.3:9000/healthz");
  EXPECT_EQ(Url({}, {}, true), "https://127.0.0.1:10476/healthz");
}

TEST(HealthcheckUrlTest, SystemdSocketsNeedTheUrl) {
  EXPECT_NE(Url({"--web.systemd-socket"}).find("error: the exporter serves the sockets systemd"),
            std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
