#pragma once

// The exporter's settings, from flags and environment variables. Pure: ParseConfig takes argv
// and an environment lookup, so it is tested without touching the process.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "expectations.h"

namespace ovn_raft {

// One clustered database to watch: its unixctl socket and (optionally) its database socket.
struct DatabaseTarget {
  std::string name;  // e.g. OVN_Northbound; the `db` label
  std::string ctl_path;
  std::string sock_path;  // empty: _Server is not read
};

enum class LogLevel { kDebug, kInfo, kWarn, kError };

struct Config {
  std::string listen_address = ":10476";
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
  std::vector<std::string> expected_hosts;  // --expected-hosts, normalised
  LogLevel log_level = LogLevel::kInfo;

  // --expected-members, or else as many members as --expected-hosts names.
  Expectations expectations() const {
    return {expected_members > 0 ? expected_members : static_cast<int>(expected_hosts.size()),
            expected_hosts};
  }
};

struct ConfigResult {
  std::optional<Config> config;  // absent on error or when help/version was printed
  std::string error;             // set on invalid flags
  bool help = false;
  bool version = false;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// Flags win over environment variables, which win over defaults. Each flag --a.b-c has the
// variable OVN_RAFT_EXPORTER_A_B_C; --database's variable holds ';'-separated entries.
ConfigResult ParseConfig(const std::vector<std::string>& args, const EnvLookup& env);

// The text of --help.
std::string ConfigUsage();

// The Kube-OVN / ovn-kubernetes defaults: NB and SB under /var/run/ovn.
std::vector<DatabaseTarget> DefaultDatabases();

// "NAME=CTL[,SOCK]"
std::optional<DatabaseTarget> ParseDatabaseFlag(const std::string& value);

// "10.0.0.0/8, 192.168.1.5": IPv4 CIDRs (a bare address is /32); nullopt when one is not.
std::optional<std::vector<std::string>> ParseCidrList(const std::string& value);

// Kube-OVN's NODE_IPS format: IPs or DNS names separated by commas and/or spaces, IPv6 with or
// without brackets. Returns them lower-cased, brackets removed, sorted and unique; nullopt when
// an entry is not a host.
std::optional<std::vector<std::string>> ParseHostList(const std::string& value);

}  // namespace ovn_raft
