#pragma once

// What started this process, for advice that names the setting to change there: a systemd
// service (User= in its unit), a container (its securityContext or --user), or a shell. Pure:
// the environment, which paths exist and /proc/self/cgroup are given, so it is tested without
// the process' own; ReadRunContext() gathers them.

#include <functional>
#include <optional>
#include <string>

namespace ovn_raft {

enum class RunContext { kShell, kSystemd, kContainer };

// systemd sets INVOCATION_ID (and JOURNAL_STREAM when the output goes to the journal) for the
// processes of a service, wherever it runs; a container is told by its runtime's marker file
// (/.dockerenv, /run/.containerenv), Kubernetes' KUBERNETES_SERVICE_HOST or a container
// cgroup (docker, kubepods, containerd, libpod).
RunContext DetectRunContext(
    const std::function<std::optional<std::string>(const std::string&)>& env,
    const std::function<bool(const std::string&)>& exists, const std::string& cgroup);

// This process', read once.
RunContext ReadRunContext();

}  // namespace ovn_raft
