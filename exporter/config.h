#pragma once

// The exporter's settings, from flags and environment variables (cli/flag_table.h). Pure:
// ParseConfig takes argv and an environment lookup, so it is tested without touching the
// process.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/log.h"
#include "cli/flag_table.h"
#include "consensus/expected_cluster.h"
#include "reader/database_target.h"
#include "web/listen_address.h"

namespace ovn_raft {

// Prometheus' default-port list has 9100-9999 fully allocated; Kube-OVN uses 10660-10665.
constexpr char kDefaultListenAddress[] = ":10476";

// Every value comes from the flag table in config.cc, defaults included: a Config is made by
// ParseConfig, never filled by hand.
struct Config {
  std::vector<ListenAddress> listen_addresses;  // at least one
  bool systemd_socket = false;  // serve the sockets systemd passes instead of listen_addresses
  std::string telemetry_path;
  std::string web_config_file;  // basic_auth_users and TLS, exporter-toolkit style; "": none
  int web_max_connections = 0;
  std::chrono::milliseconds web_request_timeout{0};
  std::vector<std::string> web_allowed_sources;  // IPv4/IPv6 CIDRs; empty: everyone
  std::vector<DatabaseTarget>
      databases;  // unique names; empty: found at start (socket_discovery.h)
  std::chrono::milliseconds timeout{0};
  std::chrono::milliseconds min_interval{0};
  std::chrono::milliseconds facts_interval{
      0};  // memory/show and storage status, at most this often
  std::size_t max_reply_bytes = 0;
  std::size_t max_members = 0;  // per view; bounds the series of a scrape
  ExpectedCluster expected;
  LogLevel log_level = LogLevel::kInfo;
  LogFormat log_format = LogFormat::kLogfmt;
};

// settings: the Config; error: invalid flags, naming the flag or variable to fix.
using ConfigResult = ParsedSettings<Config>;

// Flags win over environment variables, which win over defaults. Each flag --a.b-c has the
// variable OVN_RAFT_EXPORTER_A_B_C; a repeatable flag's variable holds ';'-separated entries.
ConfigResult ParseConfig(const std::vector<std::string>& args, const EnvLookup& env);

// The flags, with their defaults as --help and the README show them.
std::vector<FlagSpec> ConfigFlags();

// The text of --help.
std::string ConfigUsage();

// The manual page, from the same flag table (the hidden --help-man prints it).
std::string ConfigManPage();

}  // namespace ovn_raft
