#include "ovsdb/socket_access.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

SocketAccess Nobody(std::uint32_t uid, std::uint64_t caps = 0) {
  SocketAccess a;
  a.owner_uid = 65534;
  a.owner_gid = 65534;
  a.mode = 0750;
  a.uid = uid;
  a.gid = uid;
  a.cap_effective = caps;
  a.context = RunContext::kContainer;
  return a;
}

TEST(SocketAccessTest, RootWithoutCapabilitiesBesideKubeOvnsNobody) {
  const std::string advice = PermissionAdvice(Nobody(0));
  EXPECT_NE(advice.find("the socket is srwxr-x--- 65534:65534"), std::string::npos) << advice;
  EXPECT_NE(advice.find("runs as 0:0 without capabilities"), std::string::npos) << advice;
  EXPECT_NE(advice.find("root without CAP_DAC_OVERRIDE"), std::string::npos) << advice;
  EXPECT_NE(advice.find("runAsUser: 65534, runAsGroup: 65534"), std::string::npos) << advice;
  EXPECT_NE(advice.find("Kube-OVN v1.13+"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("supplementalGroups"), std::string::npos) << advice;  // not group-writable
}

TEST(SocketAccessTest, GroupWritableSocketsAlsoTakeTheGroup) {
  SocketAccess a = Nobody(1000);
  a.mode = 0770;
  a.groups = {10, 20};
  const std::string advice = PermissionAdvice(a);
  EXPECT_NE(advice.find("srwxrwx---"), std::string::npos) << advice;
  EXPECT_NE(advice.find("(groups 10 20)"), std::string::npos) << advice;
  EXPECT_NE(advice.find("supplementalGroups: [65534]"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("root without"), std::string::npos) << advice;
}

TEST(SocketAccessTest, RootOwnedSocketsPointAtTheRunAsRootComponent) {
  SocketAccess a = Nobody(65534, 1ull << 1);
  a.owner_uid = 0;
  a.owner_gid = 0;
  const std::string advice = PermissionAdvice(a);
  EXPECT_NE(advice.find("with CAP_DAC_OVERRIDE"), std::string::npos) << advice;
  EXPECT_NE(advice.find("runAsUser: 0"), std::string::npos) << advice;
  EXPECT_NE(advice.find("kube-ovn/run-as-root"), std::string::npos) << advice;
}

TEST(SocketAccessTest, ContainersOutsideKubernetesTakeUser) {
  const std::string advice = PermissionAdvice(Nobody(0));
  EXPECT_NE(advice.find("docker or podman run --user 65534:65534"), std::string::npos) << advice;
}

// Under systemd the setting is the unit's User=, named as the system names the owner.
TEST(SocketAccessTest, UnderSystemdTheUnitsUser) {
  SocketAccess a = Nobody(0);
  a.context = RunContext::kSystemd;
  a.owner_uid = 980;
  a.owner_gid = 979;
  a.owner_user = "openvswitch";
  a.owner_group = "hugetlbfs";
  a.mode = 0770;
  const std::string advice = PermissionAdvice(a);
  EXPECT_NE(advice.find("set User=openvswitch and Group=hugetlbfs in a drop-in (systemctl edit "
                        "ovn-raft-exporter, under [Service])"),
            std::string::npos)
      << advice;
  EXPECT_NE(advice.find("SupplementaryGroups=hugetlbfs"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("securityContext"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("Kube-OVN"), std::string::npos) << advice;
  a.owner_user.clear();  // an owner without a name is named by number
  EXPECT_NE(PermissionAdvice(a).find("User=980 "), std::string::npos);
}

TEST(SocketAccessTest, FromAShellTheOwner) {
  SocketAccess a = Nobody(1000);
  a.context = RunContext::kShell;
  a.owner_user = "nobody";
  const std::string advice = PermissionAdvice(a);
  EXPECT_NE(advice.find("run it as the sockets' owner, user nobody (uid 65534), e.g. with sudo "
                        "-u nobody"),
            std::string::npos)
      << advice;
  EXPECT_EQ(advice.find("securityContext"), std::string::npos) << advice;
  EXPECT_EQ(advice.find("User="), std::string::npos) << advice;
}

TEST(SocketAccessTest, UnknownOwner) {
  SocketAccess a;
  a.uid = 0;
  EXPECT_NE(PermissionAdvice(a).find("owner is unknown"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
