#include "ovsdb/run_context.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ovn_raft {

RunContext DetectRunContext(
    const std::function<std::optional<std::string>(const std::string&)>& env,
    const std::function<bool(const std::string&)>& exists, const std::string& cgroup) {
  const auto set = [&env](const char* name) {
    const auto v = env(name);
    return v && !v->empty();
  };
  if (set("INVOCATION_ID") || set("JOURNAL_STREAM")) return RunContext::kSystemd;
  if (set("KUBERNETES_SERVICE_HOST") || exists("/.dockerenv") || exists("/run/.containerenv")) {
    return RunContext::kContainer;
  }
  for (const char* marker : {"docker", "kubepods", "containerd", "libpod"}) {
    if (cgroup.find(marker) != std::string::npos) return RunContext::kContainer;
  }
  return RunContext::kShell;
}

RunContext ReadRunContext() {
  static const RunContext context = [] {
    std::ifstream in("/proc/self/cgroup");
    std::ostringstream cgroup;
    cgroup << in.rdbuf();
    return DetectRunContext(
        [](const std::string& name) -> std::optional<std::string> {
          const char* v = std::getenv(name.c_str());
          return v ? std::optional<std::string>(v) : std::nullopt;
        },
        [](const std::string& path) { return access(path.c_str(), F_OK) == 0; }, cgroup.str());
  }();
  return context;
}

}  // namespace ovn_raft
