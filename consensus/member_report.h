#pragma once

// One member's facts as its exporter serves them on /status, reduced to what the cluster-wide
// report and the consensus analysis need. Decoding is pure; fetching is in report_command.cc.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "consensus/expected_cluster.h"
#include "parsers/database_model.h"

namespace ovn_raft {

struct MemberReport {
  std::string source;  // the exporter it came from
  std::string db;
  std::string ctl;  // its unixctl socket, as the exporter reads it
  bool up = false;
  std::string error;  // when !up
  // What the database is, when its exporter says (older exporters do not): a standalone or
  // relay database has no Raft status, so `up` is false for it even when it was read.
  std::optional<DatabaseModel> model;
  std::string cluster_id, server_id, address, status, role, leader;
  std::string ovs_version;  // its ovsdb-server's Open vSwitch release; "" when unknown
  std::optional<std::uint64_t> term;
  std::optional<bool> connected;            // _Server
  std::map<std::string, std::string> view;  // member ID -> address, this member's Servers:
  // What this member hears of the others, the evidence of who is alive: the time since it
  // last heard from each member (printed by the leader), its election timer, and the peers
  // it holds an established Raft connection with.
  std::map<std::string, std::uint64_t> heard_ms_ago;
  std::optional<std::uint64_t> election_timer_ms;
  std::set<std::string> established;
  // How far the leader knows each member's log to be written (match_index; its own entry is
  // its own disk's progress) and its log's next index: what tells a log that does not sync.
  std::map<std::string, std::uint64_t> match_index;
  std::optional<std::uint64_t> log_next_index;
  std::optional<std::uint64_t> entries_not_committed;  // the log's end less its commit index
  std::optional<double> taken_at;  // when its exporter read it, by its exporter's clock
  // How long its ovsdb-server has run as its exporter saw it, when the document says: a member
  // restarted after the leader last heard from it is one the leader has not heard *yet*.
  std::optional<double> up_for_s;
  // What its exporter was told to expect of every cluster; empty when nothing (or an older
  // exporter that does not say).
  ExpectedCluster expected;
};

// Whether `m` is a database its exporter serves without Raft (standalone, or a relay that
// follows another server's database): a member of no cluster, so neither a vote in the
// analysis nor a member down.
bool ServedWithoutRaft(const MemberReport& m);

// Bounds on what one /status may list: an exporter reads a few databases, and a cluster's
// membership is refused by the exporter well below this (--ovsdb.max-members).
constexpr std::size_t kMaxStatusDatabases = 16;
constexpr std::size_t kMaxStatusMembers = 1024;

// Decodes the JSON of one exporter's /status into one report per database; the error says why
// the document is not one.
Result<std::vector<MemberReport>, std::string> DecodeStatusJson(const std::string& json,
                                                                const std::string& source);

// The expected cluster to check `members` against: `given` (the report's own flags) when it
// has a size, else what their exporters were given, as the rules combine it (the largest size,
// every host). Its size is 0 when none is known anywhere: the size checks are off.
ExpectedCluster ExpectedOf(const ExpectedCluster& given, const std::vector<MemberReport>& members);

// "3.1.0 (2), 3.5.0 (1)" when the members that say their release do not all run the same one;
// "" otherwise (one release, or none known).
std::string MixedReleases(const std::vector<MemberReport>& members);

}  // namespace ovn_raft
