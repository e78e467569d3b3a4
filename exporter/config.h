#pragma once

// The exporter's settings, from flags and environment variables (cli/flags.h). Pure:
// ParseConfig takes argv and an environment lookup, so it is tested without touching the
// process.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/log.h"
#include "exporter/listen_address.h"
#include "metrics/expectations.h"
#include "reader/database_target.h"

namespace ovn_raft {

// Prometheus' default-port list has 9100-9999 fully allocated; Kube-OVN uses 10660-10665.
constexpr char kDefaultListenAddress[] = ":10476";

struct Config {
  std::vector<ListenAddress> listen_addresses;  // at least one once parsed; :10476 by default
  std::string telemetry_path = "/metrics";
  std::string web_config_file;  // basic_auth_users, exporter-toolkit style
  int web_max_connections = 256;
  std::chrono::milliseconds web_request_timeout{2000};
  std::vector<std::string> web_allowed_sources;  // IPv4 CIDRs
  std::vector<DatabaseTarget> databases;
  std::chrono::milliseconds timeout{2000};
  std::chrono::milliseconds min_interval{1000};
  std::size_t max_reply_bytes = 8u << 20;
  std::size_t max_members = 256;            // per view; bounds the series of a scrape
  int expected_members = 0;                 // 0: not set (the rules then use kube-state-metrics)
  std::vector<std::string> expected_hosts;  // --cluster.expected-hosts, normalised
  LogLevel log_level = LogLevel::kInfo;
  LogFormat log_format = LogFormat::kLogfmt;

  // --cluster.expected-members, or else as many members as --cluster.expected-hosts names.
  Expectations expectations() const {
    return {expected_members > 0 ? expected_members : static_cast<int>(expected_hosts.size()),
            expected_hosts};
  }
};

struct ConfigResult {
  std::optional<Config> config;       // absent on error or when help/version was printed
  std::string error;                  // set on invalid flags
  std::vector<std::string> warnings;  // deprecated spellings used
  bool help = false;
  bool version = false;
};

// Flags win over environment variables, which win over defaults. Each flag --a.b-c has the
// variable OVN_RAFT_EXPORTER_A_B_C; --ovsdb.database's variable holds ';'-separated entries.
ConfigResult ParseConfig(const std::vector<std::string>& args, const EnvLookup& env);

// The text of --help.
std::string ConfigUsage();

}  // namespace ovn_raft
