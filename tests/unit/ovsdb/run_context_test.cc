// Where the exporter runs, told from the environment, marker files and the cgroup.

#include "ovsdb/run_context.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace ovn_raft {
namespace {

RunContext Detect(std::map<std::string, std::string> env, std::set<std::string> files = {},
                  const std::string& cgroup = "0::/\n") {
  return DetectRunContext(
      [env](const std::string& name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
      },
      [files](const std::string& path) { return files.count(path) > 0; }, cgroup);
}

TEST(RunContextTest, SystemdServicesFirst) {
  EXPECT_EQ(Detect({{"INVOCATION_ID", "6f1c0e"}}), RunContext::kSystemd);
  EXPECT_EQ(Detect({{"JOURNAL_STREAM", "8:12345"}}), RunContext::kSystemd);
  // systemd as a container's init still runs the exporter as a unit: its User= applies.
  EXPECT_EQ(Detect({{"INVOCATION_ID", "6f1c0e"}}, {"/run/.containerenv"}), RunContext::kSystemd);
}

TEST(RunContextTest, Containers) {
  EXPECT_EQ(Detect({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}}), RunContext::kContainer);
  EXPECT_EQ(Detect({}, {"/.dockerenv"}), RunContext::kContainer);
  EXPECT_EQ(Detect({}, {"/run/.containerenv"}), RunContext::kContainer);
  EXPECT_EQ(Detect({}, {}, "0::/kubepods.slice/kubepods-burstable.slice/cri-containerd-ab.scope\n"),
            RunContext::kContainer);
  EXPECT_EQ(Detect({}, {}, "12:pids:/docker/0123abcd\n"), RunContext::kContainer);
}

TEST(RunContextTest, OtherwiseAShell) {
  EXPECT_EQ(Detect({}), RunContext::kShell);
  EXPECT_EQ(Detect({{"INVOCATION_ID", ""}}, {}, "0::/user.slice/user-1000.slice/session-2.scope\n"),
            RunContext::kShell);
}

}  // namespace
}  // namespace ovn_raft
