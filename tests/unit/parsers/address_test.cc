#include "parsers/address.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

TEST(AddressTest, Ipv4) {
  const Address a = ParseAddress("tcp:10.0.0.1:6643");
  EXPECT_EQ(a.raw, "tcp:10.0.0.1:6643");
  EXPECT_EQ(a.scheme, "tcp");
  EXPECT_EQ(a.host, "10.0.0.1");
  EXPECT_EQ(a.port, 6643);
}

TEST(AddressTest, BracketedIpv6) {
  const Address a = ParseAddress("ssl:[fd00:10::11]:6644");
  EXPECT_EQ(a.scheme, "ssl");
  EXPECT_EQ(a.host, "fd00:10::11");
  EXPECT_EQ(a.port, 6644);
}

TEST(AddressTest, DnsName) {
  const Address a = ParseAddress("tcp:ovn-central-0.ovn.svc:6641");
  EXPECT_EQ(a.host, "ovn-central-0.ovn.svc");
  EXPECT_EQ(a.port, 6641);
}

TEST(AddressTest, UnixSocketHasNoPort) {
  const Address a = ParseAddress("unix:/var/run/ovn/ovnnb_db.sock");
  EXPECT_EQ(a.scheme, "unix");
  EXPECT_EQ(a.host, "/var/run/ovn/ovnnb_db.sock");
  EXPECT_FALSE(a.port.has_value());
}

TEST(AddressTest, MalformedKeepsRawAndDropsBadPort) {
  EXPECT_EQ(ParseAddress("nonsense").host, "nonsense");
  EXPECT_FALSE(ParseAddress("tcp:1.2.3.4:99999").port.has_value());
  EXPECT_FALSE(ParseAddress("tcp:1.2.3.4:").port.has_value());
  const Address unclosed = ParseAddress("tcp:[fe80::1");
  EXPECT_EQ(unclosed.raw, "tcp:[fe80::1");
  EXPECT_FALSE(unclosed.port.has_value());
}

}  // namespace
}  // namespace ovn_raft
