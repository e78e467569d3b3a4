// Which member a URL is shown to be the exporter of: its host, or the operator's --member.
#include "report/member_binding.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

MemberReport At(const std::string& id, const std::string& address) {
  MemberReport m;
  m.server_id = id;
  m.address = address;
  return m;
}

TEST(MemberBindingTest, TheUrlsHostIsFoundWhateverTheUrlHolds) {
  EXPECT_EQ(UrlHost("http://10.0.0.1:10476"), "10.0.0.1");
  EXPECT_EQ(UrlHost("https://u:p@Node-1.Example:443/x?y=1"), "node-1.example");
  EXPECT_EQ(UrlHost("http://[FD00::1]:10476/"), "fd00::1");
  EXPECT_EQ(UrlHost("http://a@b@10.0.0.2"), "10.0.0.2");
  EXPECT_EQ(UrlHost("10.0.0.1:10476"), "");
  EXPECT_TRUE(SameUrl("http://10.0.0.1:10476/", "http://10.0.0.1:10476"));
  EXPECT_FALSE(SameUrl("http://10.0.0.1:10476/x", "http://10.0.0.1:10476"));
}

TEST(MemberBindingTest, EachFormOfMemberIsParsed) {
  auto id = ParseMemberBinding("http://10.0.0.5:10476=63a7");
  ASSERT_TRUE(id);
  EXPECT_EQ(id.value().url, "http://10.0.0.5:10476");
  EXPECT_EQ(id.value().member, "63a7");
  EXPECT_TRUE(id.value().by_id);
  auto address = ParseMemberBinding("http://x/?a=b=ssl:[fd00::2]:6643");
  ASSERT_TRUE(address);
  EXPECT_EQ(address.value().url, "http://x/?a=b");
  EXPECT_EQ(address.value().member, "fd00::2");
  EXPECT_FALSE(address.value().by_id);
  auto host = ParseMemberBinding("https://exp-1:10476=OVN-Central-0");
  ASSERT_TRUE(host);
  EXPECT_EQ(host.value().member, "ovn-central-0");
  EXPECT_FALSE(host.value().by_id);
  for (const std::string bad : {"http://x", "=63a7", "http://x=", "x=63a7", "http://x=a b"}) {
    EXPECT_FALSE(ParseMemberBinding(bad)) << bad;
  }
}

TEST(MemberBindingTest, AUrlIsItsMembersOnlyWhenSomethingTiesThem) {
  const auto m = At("63a7", "tcp:10.0.0.3:6643");
  using Kind = Binding::Kind;
  EXPECT_EQ(BindingOf(m, "10.0.0.3", {}).kind, Kind::kShown);
  const auto far = BindingOf(m, "10.0.0.9", {});
  EXPECT_EQ(far.kind, Kind::kNotShown);
  EXPECT_EQ(far.how, "its URL's host 10.0.0.9 is not its Raft address host 10.0.0.3");
  EXPECT_EQ(BindingOf(m, "10.0.0.9", {ParseMemberBinding("http://u=63a7").value()}).kind,
            Kind::kShown);
  EXPECT_EQ(BindingOf(m, "10.0.0.9",
                      {ParseMemberBinding("http://u=63a7aaaa-0000-0000-0000-000000000000").value()})
                .kind,
            Kind::kShown);
  EXPECT_EQ(BindingOf(m, "svc", {ParseMemberBinding("http://u=10.0.0.3").value()}).kind,
            Kind::kShown);
  // Bound by --member to another host: the URL contradicts what the operator knows.
  const auto other = BindingOf(m, "10.0.0.3", {ParseMemberBinding("http://u=10.0.0.4").value()});
  EXPECT_EQ(other.kind, Kind::kContradicts);
  EXPECT_EQ(other.how,
            "it reads member 63a7 at host 10.0.0.3, but --member binds it to host 10.0.0.4");
  // Bound to another ID (of this database or another): this entry is not shown to be its own.
  EXPECT_EQ(BindingOf(m, "10.0.0.9", {ParseMemberBinding("http://u=218e").value()}).kind,
            Kind::kNotShown);
}

}  // namespace
}  // namespace ovn_raft
