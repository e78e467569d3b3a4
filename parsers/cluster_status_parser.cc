#include "parsers/cluster_status_parser.h"

#include <string>

#include "base/strings.h"
#include "base/utf8.h"
#include "parsers/address.h"
#include "parsers/connections_parser.h"
#include "parsers/server_entry_parser.h"

namespace ovn_raft {
namespace {

// "abcd (abcdef01-....)": a short ID and the full UUID it abbreviates.
bool ParseIdPair(std::string_view value, std::optional<std::string>* short_id,
                 std::optional<std::string>* uuid) {
  const auto open = value.find(" (");
  if (open == std::string_view::npos || open == 0 || value.back() != ')') return false;
  *short_id = std::string(value.substr(0, open));
  *uuid = std::string(value.substr(open + 2, value.size() - open - 3));
  return true;
}

// "N ms ago" (Last Election won) and "N ms ago, reason: R" (Last Election started). More than
// a century ago cannot be: a parse warning, not a timestamp before 1926 or in the future.
std::optional<std::uint64_t> ParseMsAgo(std::string_view value) {
  constexpr std::uint64_t kCenturyMs = 100ull * 366 * 24 * 3600 * 1000;
  if (!ConsumeSuffix(value, " ms ago")) return std::nullopt;
  const auto ms = ParseUint(value);
  if (ms && *ms > kCenturyMs) return std::nullopt;
  return ms;
}

std::optional<MemberStatus> StatusFromText(std::string_view text) {
  if (text == "cluster member") return MemberStatus::kClusterMember;
  if (text == "joining cluster") return MemberStatus::kJoining;
  if (text == "leaving cluster") return MemberStatus::kLeaving;
  if (text == "left cluster") return MemberStatus::kLeft;
  if (text == "failed") return MemberStatus::kFailed;
  if (text.rfind("disconnected from the cluster", 0) == 0) return MemberStatus::kDisconnected;
  return std::nullopt;
}

std::optional<Role> RoleFromText(std::string_view text) {
  if (text == "leader") return Role::kLeader;
  if (text == "candidate") return Role::kCandidate;
  if (text == "follower") return Role::kFollower;
  return std::nullopt;
}

class Parser {
 public:
  ClusterStatus Run(std::string_view text) {
    int number = 0;
    while (!text.empty()) {
      const auto newline = text.find('\n');
      std::string_view line = text.substr(0, newline);
      text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
      ++number;
      Line(number, line);
    }
    return std::move(out_);
  }

 private:
  void Warn(int number, std::string_view line, std::string reason) {
    // A huge garbage line would make the warning list huge; keep the start of it.
    if (!Room(out_.warnings)) return;
    out_.warnings.push_back({number, std::string(Utf8Prefix(line, 200)), std::move(reason)});
  }

  template <typename List>
  bool Room(const List& list) {
    if (list.size() < kMaxListEntries) return true;
    ++out_.entries_dropped;
    return false;
  }

  void Line(int number, std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string_view line = Trim(raw);
    if (line.empty()) return;
    const bool indented = raw.front() == ' ' || raw.front() == '\t';
    if (in_servers_ && indented) return ServerLine(number, line);
    in_servers_ = false;
    const bool first = !seen_any_;
    seen_any_ = true;

    std::string_view rest = line;
    if (ConsumePrefix(rest, "Last Election started ")) return ElectionStarted(number, line, rest);
    if (ConsumePrefix(rest, "Adding server ")) return Change(number, line, rest, false);
    if (ConsumePrefix(rest, "Removing server ")) return Change(number, line, rest, true);
    if (line == "Servers:") {
      in_servers_ = true;
      out_.servers.emplace();
      return;
    }
    if (ConsumePrefix(rest, "Connections:")) {
      out_.connections = ParseConnections(rest, kMaxListEntries, &out_.entries_dropped);
      if (!out_.connections) Warn(number, line, "bad connection list");
      return;
    }
    if (ConsumePrefix(rest, "Remotes for joining:")) {
      auto& remotes = out_.remotes_for_joining.emplace();
      for (rest = Trim(rest); !rest.empty(); rest = Trim(rest)) {
        const auto space = rest.find(' ');
        if (Room(remotes)) remotes.emplace_back(rest.substr(0, space));
        rest.remove_prefix(space == std::string_view::npos ? rest.size() : space);
      }
      return;
    }
    const auto colon = line.find(": ");
    if (colon == std::string_view::npos) {
      // The first line is the server's nickname; any other bare line is unknown.
      if (first) {
        out_.nickname = std::string(line);
      } else {
        Warn(number, line, "unknown line");
      }
      return;
    }
    if (!KeyValue(line.substr(0, colon), Trim(line.substr(colon + 2)))) {
      Warn(number, line, "unrecognised or malformed line");
    }
  }

  bool KeyValue(std::string_view key, std::string_view value) {
    if (key == "Name") {
      out_.name = std::string(value);
    } else if (key == "Cluster ID") {
      if (value == "not yet known") return true;
      if (!ParseIdPair(value, &out_.cluster_id, &out_.cluster_uuid)) return false;
      out_.cluster_id_known = true;
    } else if (key == "Server ID") {
      return ParseIdPair(value, &out_.server_id, &out_.server_uuid);
    } else if (key == "Address") {
      out_.address = ParseAddress(value);
    } else if (key == "Status") {
      out_.status_text = std::string(value);
      out_.status = StatusFromText(value);
      return out_.status.has_value();
    } else if (key == "Role") {
      return (out_.role = RoleFromText(value)).has_value();
    } else if (key == "Term") {
      return (out_.term = ParseUint(value)).has_value();
    } else if (key == "Leader") {
      out_.leader = std::string(value);
    } else if (key == "Vote") {
      out_.vote = std::string(value);
    } else if (key == "Last Election won") {
      return (out_.last_election_won_ms_ago = ParseMsAgo(value)).has_value();
    } else if (key == "Election timer") {
      return ElectionTimer(value);
    } else if (key == "Log") {
      return Log(value);
    } else if (key == "Entries not yet committed") {
      return (out_.entries_not_committed = ParseUint(value)).has_value();
    } else if (key == "Entries not yet applied") {
      return (out_.entries_not_applied = ParseUint(value)).has_value();
    } else if (key == "Disconnections") {
      return (out_.disconnections = ParseUint(value)).has_value();
    } else {
      return false;
    }
    return true;
  }

  // "N" or, on a leader changing it, "N (changing to M)".
  bool ElectionTimer(std::string_view value) {
    const auto space = value.find(' ');
    out_.election_timer_ms = ParseUint(value.substr(0, space));
    if (!out_.election_timer_ms) return false;
    if (space == std::string_view::npos) return true;
    std::string_view target = value.substr(space + 1);
    if (!ConsumePrefix(target, "(changing to ") || !ConsumeSuffix(target, ")")) return false;
    return (out_.election_timer_target_ms = ParseUint(target)).has_value();
  }

  // "[FIRST, NEXT]"
  bool Log(std::string_view value) {
    if (!ConsumePrefix(value, "[") || !ConsumeSuffix(value, "]")) return false;
    const auto comma = value.find(',');
    if (comma == std::string_view::npos) return false;
    out_.log_first_index = ParseUint(Trim(value.substr(0, comma)));
    out_.log_next_index = ParseUint(Trim(value.substr(comma + 1)));
    if (out_.log_first_index && out_.log_next_index) return true;
    out_.log_first_index.reset();
    out_.log_next_index.reset();
    return false;
  }

  // "N ms ago, reason: timeout|leadership_transfer"
  void ElectionStarted(int number, std::string_view line, std::string_view rest) {
    const auto comma = rest.find(", reason: ");
    const auto ago = ParseMsAgo(rest.substr(0, comma));
    if (!ago) return Warn(number, line, "bad election start");
    out_.last_election_started_ms_ago = ago;
    if (comma == std::string_view::npos) return;
    const std::string_view reason = rest.substr(comma + 10);
    if (reason == "timeout") {
      out_.last_election_reason = ElectionReason::kTimeout;
    } else if (reason == "leadership_transfer") {
      out_.last_election_reason = ElectionReason::kLeadershipTransfer;
    } else {
      Warn(number, line, "unknown election reason");
    }
  }

  // "NICK (SID at ADDR) (PHASE)" after "Adding server " / "Removing server ".
  void Change(int number, std::string_view line, std::string_view rest, bool removing) {
    auto head = ParseMemberHead(rest);
    if (!head) return Warn(number, line, "bad membership change");
    MembershipChange change;
    change.nickname = std::move(head->nickname);
    change.server_id = std::move(head->server_id);
    change.address = std::move(head->address);
    std::string_view tail = Trim(head->rest);
    if (ConsumePrefix(tail, "(") && ConsumeSuffix(tail, ")")) change.phase_text = std::string(tail);
    if (removing) {
      out_.removing_server = std::move(change);
    } else {
      if (Room(out_.adding_servers)) out_.adding_servers.push_back(std::move(change));
    }
  }

  void ServerLine(int number, std::string_view line) {
    auto parsed = ParseServerEntry(line);
    if (!parsed) return Warn(number, line, parsed.error());
    if (parsed.value().warning) Warn(number, line, *parsed.value().warning);
    if (out_.servers->size() >= kMaxListEntries) {
      ++out_.servers_dropped;
      return;
    }
    out_.servers->push_back(std::move(parsed.value().entry));
  }

  ClusterStatus out_;
  bool in_servers_ = false;
  bool seen_any_ = false;
};

}  // namespace

ClusterStatus ParseClusterStatus(std::string_view text) { return Parser().Run(text); }

}  // namespace ovn_raft
