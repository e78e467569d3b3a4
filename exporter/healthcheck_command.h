#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "exporter/config.h"

namespace ovn_raft {

// `ovn-raft-exporter healthcheck [URL]`: GETs URL and exits 0 on HTTP 200. For container
// HEALTHCHECKs, which have no curl. Without a URL it asks the exporter serving beside it: the
// flags of the process running this same program (PID 1 in a container) and its environment,
// read from /proc, give the address and whether TLS is on, so a flag-given address is honoured.
int HealthcheckCommand(int argc, char** argv);

// The /healthz URL of an exporter configured by `config` (`tls`: its web config turns TLS
// on): its first address, a wildcard one asked on loopback. An error for --web.systemd-socket,
// whose address only systemd knows. Pure.
Result<std::string, std::string> HealthcheckUrl(const Config& config, bool tls);

}  // namespace ovn_raft
