#pragma once

namespace ovn_raft {

// `ovn-raft-exporter healthcheck [URL]`: GETs URL (default: /healthz on the configured listen
// address) and exits 0 on HTTP 200. For container HEALTHCHECKs, which have no curl.
int HealthcheckCommand(int argc, char** argv);

}  // namespace ovn_raft
