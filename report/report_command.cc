#include "report/report_command.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/build_version.h"
#include "cli/duration.h"
#include "cli/expected_cluster_flags.h"
#include "cli/flag_table.h"
#include "cli/man_page.h"
#include "consensus/consensus.h"
#include "consensus/database_health.h"
#include "consensus/member_report.h"
#include "http_client/http_get.h"
#include "report/advised_command.h"
#include "report/terminal_text.h"

namespace ovn_raft {
namespace {

// The largest /status read. A real one is tens of KiB (a few hundred with hundreds of members);
// the bound keeps a hostile or endless body from filling memory: a document of that size made
// of the smallest JSON values parses to about twenty times its size.
constexpr std::size_t kMaxStatusBytes = 2u << 20;

// GET URL/status: the body, or why not.
Result<std::string, std::string> FetchStatus(const std::string& base, long timeout_ms) {
  const auto r = HttpGet(base + "/status", {.user_password = "",
                                            .timeout_ms = timeout_ms,
                                            .fresh_connection = false,
                                            .max_body_bytes = kMaxStatusBytes});
  if (r.status == 0) return Result<std::string, std::string>::Failure(r.error);
  if (r.status != 200)
    return Result<std::string, std::string>::Failure("HTTP " + std::to_string(r.status));
  return r.body;
}

std::string Or(const std::string& s, const char* fallback) { return s.empty() ? fallback : s; }

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out.empty() ? "-" : out;
}

// The unixctl socket of `db` in the members' containers: the one their exporters read, else
// the name ovn-ctl gives it.
std::string CtlPath(const std::string& db, const std::vector<MemberReport>& members) {
  for (const auto& m : members) {
    if (!m.ctl.empty()) return m.ctl;
  }
  static const std::map<std::string, std::string> kNames = {
      {"OVN_Northbound", "ovnnb_db"},
      {"OVN_Southbound", "ovnsb_db"},
      {"OVN_IC_Northbound", "ovn_ic_nb_db"},
      {"OVN_IC_Southbound", "ovn_ic_sb_db"},
  };
  const auto it = kNames.find(db);
  return "/var/run/ovn/" + (it == kNames.end() ? db : it->second) + ".ctl";
}

// Prints the analysis of one cluster.
void PrintConsensus(const std::string& db, const std::string& ctl, const ClusterConsensus& c) {
  std::printf("  cluster %s: %zu reporting; views %s; majority view: %s\n", c.cluster_id.c_str(),
              c.reporters.size(), c.all_agree ? "all agree" : "DISAGREE",
              c.has_majority ? ("yes (" + Join(c.majority_reporters) + ")").c_str() : "NONE");
  if (!c.minority_reporters.empty()) {
    std::printf("    minority: %s\n", Join(c.minority_reporters).c_str());
  }
  std::printf(
      "    members named: %zu%s; leader claims: %d; leaders known: %s\n", c.union_members.size(),
      c.expected_members ? (" (expected " + std::to_string(*c.expected_members) + ")").c_str() : "",
      c.leader_claims, Join(c.leader_ids).c_str());
  std::printf("    alive (a living member vouches for them): %s\n", Join(c.alive).c_str());
  const QuorumVerdict verdict = VerdictOf(c);
  std::printf("    verdict: %s: %zu alive, quorum %d, %s\n", QuorumVerdictName(verdict),
              c.alive.size(), c.quorum,
              verdict == QuorumVerdict::kLost
                  ? "no writes, elections or membership changes until members return"
                  : ("tolerates " + std::to_string(c.failure_tolerance()) + " more failure" +
                     (c.failure_tolerance() == 1 ? "" : "s"))
                        .c_str());
  for (const auto& [id, n] : c.silent) {
    std::printf("    not reporting: %s (named by %d)%s\n", id.c_str(), n,
                c.stale_suspects.count(id) ? " STALE SUSPECT"
                : c.alive.count(id)        ? " alive"
                                           : "");
  }
  for (const auto& [id, ago] : c.unheard) {
    std::printf(
        "    UNHEARD: %s calls itself a cluster member, but the leader last heard from it %.1f s "
        "ago: usually a full or read-only disk (I/O errors in its log), a one-way network cut "
        "or a stuck process; fix the cause, then restart %s (see the runbook, "
        "OVNRaftMemberUnheard)\n",
        id.c_str(), static_cast<double>(ago) / 1000.0, id.c_str());
  }
  for (const auto& [host, ids] : c.host_conflicts) {
    std::printf("    host %s claimed by %s\n", host.c_str(), Join(ids).c_str());
  }
  for (const auto& [id, addresses] : c.address_disagreements) {
    std::printf("    member %s seen at %s\n", id.c_str(), Join(addresses).c_str());
  }
  for (const auto& [member, n] : c.unexpected_members) {
    std::printf("    member %s at %s is on an unexpected host (named by %d)\n",
                member.first.c_str(), member.second.c_str(), n);
  }
  for (const auto& host : c.missing_hosts) {
    std::printf("    expected host %s: no member there in any view\n", host.c_str());
  }
  for (const auto& [reporter, d] : c.differences) {
    if (d.empty()) continue;
    std::printf("    %s's view differs from the majority:", reporter.c_str());
    if (!d.missing.empty()) std::printf(" lacks %s;", Join(d.missing).c_str());
    if (!d.extra.empty()) std::printf(" lists %s the majority does not;", Join(d.extra).c_str());
    for (const auto& [id, addresses] : d.moved) {
      std::printf(" places %s at %s (majority: %s);", id.c_str(), addresses.first.c_str(),
                  addresses.second.c_str());
    }
    std::printf("\n");
  }
  if (!c.ranked_suspects.empty()) {
    std::printf("    stale suspects, most suspect first:");
    for (const auto& id : c.ranked_suspects) {
      std::printf(" %s (score %d)", id.c_str(), c.suspect_scores.at(id));
    }
    std::printf("\n");
  }
  if (!c.undecided.empty()) {
    std::printf(
        "    cannot tell apart: %s score alike and no living member hears any of them, but "
        "the cluster has fewer extra members than that; no removal advised: see the runbook, "
        "OVNRaftStaleMember\n",
        Join(c.undecided).c_str());
  }
  for (const auto& id : c.ranked_suspects) {
    // The one line that changes a cluster: printed only when every part is what it should be.
    const auto kick = KickCommand(ctl, db, id);
    if (kick) {
      std::printf("    to remove %s, from a healthy member: %s\n", id.c_str(),
                  kick.value().c_str());
    } else {
      std::printf(
          "    to remove %s: no command advised: %s (see the runbook, OVNRaftStaleMember)\n",
          id.c_str(), kick.error().c_str());
    }
  }
}

const char kEnvPrefix[] = "OVN_RAFT_REPORT_";

struct ReportSettings {
  ExpectedCluster expected;
  std::chrono::milliseconds timeout{0};
};

const std::vector<Flag<ReportSettings>>& Table() {
  static const std::vector<Flag<ReportSettings>> table = [] {
    auto t = ExpectedClusterFlags(&ReportSettings::expected);
    t.push_back({.spec = {.name = "web.timeout", .help = "Deadline for each exporter's /status."},
                 .defaults = {"5s"},
                 .set = [](ReportSettings& r, const std::string& v) -> std::optional<std::string> {
                   const auto d = ParseDuration(v);
                   if (!d || d->count() == 0) return "expected a duration, got \"" + v + "\"";
                   r.timeout = *d;
                   return std::nullopt;
                 }});
    return t;
  }();
  return table;
}

std::string Usage() {
  return "usage: ovn-raft-report [FLAGS] EXPORTER_URL...\n\n"
         "Fetches every member's /status and prints the cluster-wide analysis; exits 1 when a\n"
         "cluster is unhealthy.\n\nFlags (each also read from the environment variable shown):\n" +
         FlagsUsage(Specs(Table()), kEnvPrefix);
}

}  // namespace

std::vector<FlagSpec> ReportFlags() { return Specs(Table()); }

std::string ReportManPage() {
  ManPage page{
      .program = "ovn-raft-report",
      .summary = "print whether the members of OVN's Raft clusters agree",
      .synopsis = {"[FLAGS] EXPORTER_URL..."},
      .description = {"Fetches /status from the ovn-raft-exporter of every member (each URL an "
                      "exporter's base, e.g. http://10.0.0.1:10476) and prints, per database, "
                      "what each member sees and whether they agree.",
                      "Exits 0 when every member answered and agrees, 1 otherwise, 2 on bad "
                      "flags."},
      .version = kBuildVersion,
      .sections = {{"See also", {"ovn-raft-exporter(1)"}}}};
  return RenderManPage(page, ReportFlags(), kEnvPrefix);
}

namespace {

using ReportsByDb = std::map<std::string, std::vector<MemberReport>>;

// Every exporter's /status, by database; false when one could not be read (said on stdout).
bool FetchAll(const std::vector<std::string>& urls, long timeout_ms, ReportsByDb& by_db) {
  bool all = true;
  for (const auto& url : urls) {
    const auto body = FetchStatus(url, timeout_ms);
    auto reports = body ? DecodeStatusJson(body.value(), url) : std::string{};
    const std::string why = !body                     ? body.error()
                            : !reports                ? reports.error()
                            : reports.value().empty() ? "no database"
                                                      : "";
    if (!why.empty()) {
      std::printf("%s: unreachable (%s)\n", TerminalText(url).c_str(), TerminalText(why).c_str());
      all = false;
      continue;
    }
    // Everything a /status says is shown escaped: from here on no string can act on the
    // terminal.
    for (auto& r : reports.value()) {
      MakeTerminalSafe(r);
      by_db[r.db].push_back(std::move(r));
    }
  }
  return all;
}

// One line per member: what its exporter read.
void PrintMembers(const std::vector<MemberReport>& members) {
  std::printf("  %-6s %-24s %-14s %-9s %5s %-7s %7s %-9s %s\n", "member", "address", "status",
              "role", "term", "leader", "members", "connected", "release");
  for (const auto& m : members) {
    if (!m.up) {
      std::printf("  %-6s %s: %s\n", "?", m.source.c_str(), Or(m.error, "down").c_str());
      continue;
    }
    std::printf("  %-6s %-24s %-14s %-9s %5s %-7s %7zu %-9s %s\n", m.server_id.c_str(),
                m.address.c_str(), m.status.c_str(), m.role.c_str(),
                m.term ? std::to_string(*m.term).c_str() : "-", Or(m.leader, "-").c_str(),
                m.view.size(), m.connected ? (*m.connected ? "yes" : "NO") : "-",
                Or(m.ovs_version, "-").c_str());
  }
}

// The report of one database; true when nothing needs attention.
bool ReportDatabase(const std::string& db, const std::vector<MemberReport>& members,
                    const ExpectedCluster& expected) {
  std::printf("\n%s\n", db.c_str());
  PrintMembers(members);
  // Normal while an upgrade rolls through the members; not a reason to call the cluster
  // unhealthy, but worth a line once it is.
  if (const std::string mixed = MixedReleases(members); !mixed.empty()) {
    std::printf("  mixed Open vSwitch releases: %s\n", mixed.c_str());
  }
  const ExpectedCluster size = ExpectedOf(expected, members);
  if (size.size() == 0) {
    std::printf(
        "  size checks off: no expected size given to this report (--cluster.expected-members, "
        "--cluster.expected-hosts) nor to any member's exporter\n");
  }
  const auto clusters = AnalyzeConsensus(members, size);
  if (clusters.size() > 1) {
    std::printf("  CLUSTER ID SPLIT: %zu cluster IDs among the members\n", clusters.size());
  }
  const std::string ctl = CtlPath(db, members);
  for (const auto& c : clusters) PrintConsensus(db, ctl, c);
  const auto problems = DatabaseProblems(members, clusters);
  for (const auto& p : problems) std::printf("  needs attention: %s\n", p.c_str());
  return problems.empty();
}

}  // namespace

int ReportCommand(const std::vector<std::string>& args, const EnvLookup& env) {
  const auto flags = ParseSettings(Table(), args, env, kEnvPrefix, true);
  if (flags.help) {
    std::cout << Usage();
    return 0;
  }
  if (flags.version) {
    std::cout << VersionLine("ovn-raft-report") << "\n";
    return 0;
  }
  for (const auto& w : flags.warnings) std::cerr << "ovn-raft-report: " << w << "\n";
  std::optional<std::string> error = flags.error;
  if (!error && flags.positional.empty()) error = "no exporter URL given";
  if (error) {
    std::cerr << "ovn-raft-report: " << *error << "\n\n" << Usage();
    return 2;
  }
  ReportsByDb by_db;
  bool healthy =
      FetchAll(flags.positional, static_cast<long>(flags.settings->timeout.count()), by_db);
  for (const auto& [db, members] : by_db) {
    healthy = ReportDatabase(db, members, flags.settings->expected) && healthy;
  }
  return healthy ? 0 : 1;
}

}  // namespace ovn_raft
