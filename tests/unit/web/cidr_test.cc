#include "web/cidr.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ovn_raft {
namespace {

// Host bits are cleared, as Go's net.ParseCIDR does; civetweb would compare the masked client
// with the entry as written and match nobody.
TEST(CidrTest, HostBitsAreCleared) {
  const auto got = ParseCidrList(
      "127.0.0.5/8, 10.1.2.3/20, 192.168.1.7, 10.0.0.1/0, "
      "fd00::1234/8, [2001:db8::ff]/120, ::1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, (std::vector<std::string>{"127.0.0.0/8", "10.1.0.0/20", "192.168.1.7/32",
                                            "0.0.0.0/0", "fd00::/8", "2001:db8::/120", "::1/128"}));
}

// An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d.
TEST(CidrTest, IPv4EntriesInTheirMappedForm) {
  EXPECT_EQ(Ipv4MappedCidr("127.0.0.0/30"), "::ffff:127.0.0.0/126");
  EXPECT_EQ(Ipv4MappedCidr("10.0.0.0/8"), "::ffff:10.0.0.0/104");
  EXPECT_EQ(Ipv4MappedCidr("192.168.1.7/32"), "::ffff:192.168.1.7/128");
}

TEST(CidrTest, AnAddressInTheListAsCivetwebsAccessListDecides) {
  const auto list = ParseCidrList("10.0.0.0/8, 192.168.1.5, fd00::/8, 127.0.0.0/30");
  ASSERT_TRUE(list.has_value());
  EXPECT_TRUE(InCidrList(*list, "10.200.3.4"));
  EXPECT_TRUE(InCidrList(*list, "192.168.1.5"));
  EXPECT_FALSE(InCidrList(*list, "192.168.1.6"));
  EXPECT_TRUE(InCidrList(*list, "127.0.0.3"));
  EXPECT_FALSE(InCidrList(*list, "127.0.0.4"));
  EXPECT_TRUE(InCidrList(*list, "fd12::1"));
  EXPECT_FALSE(InCidrList(*list, "fe80::1"));
  EXPECT_TRUE(InCidrList(*list, "::ffff:10.1.2.3"));  // an IPv4 client of [::]:PORT
  EXPECT_FALSE(InCidrList(*list, "::ffff:11.1.2.3"));
  EXPECT_FALSE(InCidrList(*list, "not an address"));
  EXPECT_TRUE(InCidrList({}, "203.0.113.1"));  // no list: everyone
}

}  // namespace
}  // namespace ovn_raft
