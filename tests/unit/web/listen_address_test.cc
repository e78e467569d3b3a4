#include "web/listen_address.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

ListenAddress Ok(const std::string& value) {
  const auto parsed = ParseListenAddress(value);
  EXPECT_TRUE(parsed) << value << ": " << parsed.error();
  return parsed ? parsed.value() : ListenAddress{};
}

std::string Error(const std::string& value) {
  const auto parsed = ParseListenAddress(value);
  EXPECT_FALSE(parsed) << value;
  return parsed ? "" : parsed.error();
}

TEST(ListenAddressTest, EveryForm) {
  EXPECT_EQ(Ok(":10476").CivetwebPorts(), "10476");
  EXPECT_EQ(Ok("0.0.0.0:10476").CivetwebPorts(), "10476");
  EXPECT_EQ(Ok("10.0.0.1:10476").CivetwebPorts(), "10.0.0.1:10476");
  // What a manifest's "[$(POD_IP)]:10476" gives on an IPv4 and on an IPv6 node.
  EXPECT_EQ(Ok("[10.0.0.1]:10476").CivetwebPorts(), "10.0.0.1:10476");
  EXPECT_FALSE(Ok("[10.0.0.1]:10476").ipv6);
  EXPECT_EQ(Ok("[fd00::1]:10476").CivetwebPorts(), "[fd00::1]:10476");
  EXPECT_TRUE(Ok("[fd00::1]:10476").ipv6);
  EXPECT_EQ(Ok("[::1]:1").CivetwebPorts(), "[::1]:1");
  EXPECT_EQ(Ok("[::]:10476").CivetwebPorts(), "+10476");  // both families, as Go's [::]
}

TEST(ListenAddressTest, Refused) {
  // What "$(POD_IP):10476" gave on an IPv6 node: the exporter exited with "invalid port spec".
  EXPECT_NE(Error("fd00::1:10476").find("an IPv6 address needs brackets: [fd00::1]:10476"),
            std::string::npos);
  EXPECT_NE(Error("10476").find("expected HOST:PORT"), std::string::npos);
  EXPECT_NE(Error(":70000").find("expected HOST:PORT"), std::string::npos);
  EXPECT_NE(Error("[fd00::zz]:1").find("expected HOST:PORT"), std::string::npos);
  EXPECT_NE(Error("10.0.0.300:1").find("expected an IP address"), std::string::npos);
  EXPECT_NE(Error("localhost:1").find("expected an IP address"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
