#include "report/report_command.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
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
#include "http_client/redacted_url.h"
#include "report/advised_command.h"
#include "report/echoed_secrets.h"
#include "report/kick_evidence.h"
#include "report/log_progress.h"
#include "report/member_attention.h"
#include "report/member_binding.h"
#include "report/password_file.h"
#include "report/served_without_raft.h"
#include "report/terminal_text.h"
#include "report/trusted_reports.h"

namespace ovn_raft {
namespace {

// The largest /status read. A real one is tens of KiB (a few hundred with hundreds of members);
// the bound keeps a hostile or endless body from filling memory: a document of that size made
// of the smallest JSON values parses to about twenty times its size.
constexpr std::size_t kMaxStatusBytes = 2u << 20;

// How long an unheard member is given before the report says to restart it: a member whose disk
// stalls and returns catches up by itself within seconds; one whose write failed never does.
constexpr int kUnheardRestartMinutes = 5;

// How often a leader's exporter is read again to watch its log move: past the exporter's own
// reuse of a reading (--ovsdb.min-interval, 1s by default).
constexpr std::chrono::milliseconds kProgressInterval{1100};

// The report's exit statuses, as --help and the manual page list them.
constexpr int kExitHealthy = 0;
constexpr int kExitNeedsAttention = 1;
constexpr int kExitBadFlags = 2;
constexpr int kExitUntrusted = 3;

// GET URL/status: the body, or why not. `options` carries the TLS files and the credentials.
Result<std::string, std::string> FetchStatus(const std::string& base, HttpGetOptions options) {
  options.fresh_connection = false;
  options.max_body_bytes = kMaxStatusBytes;
  const auto r = HttpGet(base + "/status", options);
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

// Prints the analysis of one cluster, whose reporters are among `members` (trusted reports);
// `majority_cluster`: whether it is the cluster most URLs read.
// The cluster's shape: who reports, whether their views agree, who leads, who is alive.
void PrintSummary(const ClusterConsensus& c) {
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
}

// The quorum verdict, naming the members that are not alive when the cluster is not healthy.
void PrintVerdict(const ClusterConsensus& c) {
  const QuorumVerdict verdict = VerdictOf(c);
  std::string not_alive;
  if (verdict != QuorumVerdict::kHealthy) {
    for (const auto& id : NotAlive(c)) not_alive += (not_alive.empty() ? "" : ", ") + id;
    if (!not_alive.empty()) {
      not_alive = (verdict == QuorumVerdict::kLost ? "; lost with " : "; at risk from ") +
                  not_alive + " (not alive)";
    }
  }
  std::printf("    verdict: %s: %zu alive, quorum %d, %s%s\n", QuorumVerdictName(verdict),
              c.alive.size(), c.quorum,
              verdict == QuorumVerdict::kLost
                  ? "no writes, elections or membership changes until members return"
                  : ("tolerates " + std::to_string(c.failure_tolerance()) + " more failure" +
                     (c.failure_tolerance() == 1 ? "" : "s"))
                        .c_str(),
              not_alive.c_str());
}

// "over 5 readings in 4.4 s": what a log finding rests on.
std::string Readings(const LogFinding& f) {
  char text[96];
  if (f.seconds > 0) {
    std::snprintf(text, sizeof(text), "over %zu readings in %.1f s", f.readings, f.seconds);
  } else {
    std::snprintf(text, sizeof(text), "over %zu readings", f.readings);
  }
  return text;
}

// A member whose log does not sync, in the words that fit it: the leader's own disk, or a
// member the leader waits for. An unheard member already has its line.
void PrintLogFinding(const ClusterConsensus& c, const LogFinding& f) {
  const char* id = f.id.c_str();
  const auto lag = static_cast<unsigned long long>(f.lag);
  const auto match = static_cast<unsigned long long>(f.match);
  const auto peer = static_cast<unsigned long long>(f.peer_lag);
  const std::string over = Readings(f);
  if (f.kind == LogFinding::Kind::kNotCatchingUp && f.leads) {
    std::printf(
        "    LEADER NOT SYNCING: %s leads, but its own log stayed written up to entry %llu, %llu "
        "behind its end, %s (not_catching_up): its own disk completes no write (a hung or "
        "failing disk, a stalled fsync); the cluster commits on its followers' word alone, and "
        "its term ends when its main loop stalls; fix its disk, or restart it so that a member "
        "with a working disk leads (see the runbook, OVNRaftMemberUnheard)\n",
        id, match, lag, over.c_str());
  } else if (f.kind == LogFinding::Kind::kNotCatchingUp) {
    if (c.unheard.count(f.id)) return;
    std::printf(
        "    NOT CATCHING UP: the leader says %s's log stayed written up to entry %llu, %llu "
        "behind its end, %s (not_catching_up): a full, read-only or stalled disk, or a stuck "
        "process (see the runbook, OVNRaftMemberUnheard)\n",
        id, match, lag, over.c_str());
  } else if (f.leads) {
    std::printf(
        "    SLOW LEADER: %s leads, but its cluster commits entries its own log does not hold "
        "yet, a median %llu %s: its followers write and answer sooner than its own disk syncs "
        "(fsync latency), and clients' commits slow down with it; look at its disk first, then "
        "a starved CPU; restarting it moves the leadership (see the runbook, "
        "OVNRaftLeaderSlow)\n",
        id, lag, over.c_str());
  } else {
    std::printf(
        "    SLOW: %s trails the leader's log by a median %llu entries %s, against %llu for its "
        "fastest peer: its disk, its CPU or its path to the leader is slower than theirs (see "
        "the runbook, OVNRaftMemberSlow)\n",
        id, lag, over.c_str(), peer);
  }
}

// Members that answer but need attention, members that do not report, members the leader
// does not hear, members whose log does not sync.
void PrintMemberTroubles(const ClusterConsensus& c, const std::vector<MemberReport>& members,
                         const std::vector<LogFinding>& log) {
  for (const auto& a : MembersNeedingAttention(c, members)) {
    std::string states;
    for (const auto& st : a.states) states += (states.empty() ? "" : ", ") + st;
    std::printf("    attention: %s%s: %s\n", a.id.c_str(),
                a.address.empty() ? "" : (" at " + a.address).c_str(), states.c_str());
  }
  for (const auto& [id, n] : c.silent) {
    std::printf("    not reporting: %s (named by %d)%s\n", id.c_str(), n,
                c.stale_suspects.count(id) ? " STALE SUSPECT"
                : c.alive.count(id)        ? " alive"
                                           : "");
  }
  for (const auto& [id, ago] : c.unheard) {
    // A stalled disk that returns heals by itself within seconds; a failed write does not.
    std::printf(
        "    UNHEARD: %s calls itself a cluster member, but the leader last heard from it %.1f s "
        "ago: usually a full or read-only disk (I/O errors in its log), a stalled disk, a "
        "one-way network cut or a stuck process; fix the cause, and if %s is still unheard "
        "%d minutes after, restart it (see the runbook, OVNRaftMemberUnheard)\n",
        id.c_str(), static_cast<double>(ago) / 1000.0, id.c_str(), kUnheardRestartMinutes);
  }
  for (const auto& f : log) PrintLogFinding(c, f);
}

// Where members are: hosts claimed twice, members seen at two addresses, unexpected and
// missing hosts.
void PrintPlacement(const ClusterConsensus& c) {
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
}

void PrintViewDifferences(const ClusterConsensus& c) {
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
}

// The stale suspects and, for each, either the one command that removes it or why none is
// advised.
void PrintSuspects(const std::string& db, const std::string& ctl, const ClusterConsensus& c,
                   const TrustedDatabase& trusted, const std::vector<std::string>& unreachable) {
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
    // The one line that changes a cluster: printed only when every piece of evidence is bound
    // to the member it speaks for, the cluster's own leader does not hear the member, and every
    // part of the line is what it should be.
    if (const auto why = WhyNoKick(trusted, unreachable, c.cluster_id, id)) {
      std::printf(
          "    to remove %s: no command advised: %s (see the runbook, OVNRaftStaleMember)\n",
          id.c_str(), why->c_str());
      continue;
    }
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

// What the report read, beyond the trusted reports, for one database.
struct DatabaseEvidence {
  std::vector<std::string> unreachable;  // URLs not read at all (shown form)
  // Members whose log does not sync, by cluster ID (their leader's).
  std::map<std::string, std::vector<LogFinding>> log;
};

void PrintConsensus(const std::string& db, const std::string& ctl, const ClusterConsensus& c,
                    const std::vector<MemberReport>& members, const TrustedDatabase& trusted,
                    const DatabaseEvidence& evidence) {
  PrintSummary(c);
  PrintVerdict(c);
  static const std::vector<LogFinding> kNone;
  const auto log = evidence.log.find(c.cluster_id);
  PrintMemberTroubles(c, members, log == evidence.log.end() ? kNone : log->second);
  PrintPlacement(c);
  PrintViewDifferences(c);
  PrintSuspects(db, ctl, c, trusted, evidence.unreachable);
}

const char kEnvPrefix[] = "OVN_RAFT_REPORT_";

struct ReportSettings {
  ExpectedCluster expected;
  std::chrono::milliseconds timeout{0};
  std::string ca_file, cert_file, key_file;  // TLS; "" for none
  std::string username, password_file;       // basic auth; "" for none
  bool basic_auth_over_http = false;         // send it over plain http too
  std::vector<MemberBinding> members;        // --member
  std::chrono::milliseconds progress_window{0};
};

// A file flag: any path, checked when the report starts.
std::optional<std::string> SetPath(std::string& field, const std::string& v) {
  if (v.empty()) return "expected a file path";
  field = v;
  return std::nullopt;
}

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
    t.push_back(
        {.spec = {.name = "web.tls.ca-file",
                  .help = "CA certificates (PEM) that verify the exporters' TLS certificates; "
                          "else the system's.",
                  .default_text = "unset"},
         .set = [](ReportSettings& r, const std::string& v) { return SetPath(r.ca_file, v); }});
    t.push_back(
        {.spec = {.name = "web.tls.cert-file",
                  .help = "Client certificate (PEM) for exporters that require one "
                          "(client_auth_type); with --web.tls.key-file.",
                  .default_text = "unset"},
         .set = [](ReportSettings& r, const std::string& v) { return SetPath(r.cert_file, v); }});
    t.push_back(
        {.spec = {.name = "web.tls.key-file",
                  .help = "Key (PEM) of the client certificate.",
                  .default_text = "unset"},
         .set = [](ReportSettings& r, const std::string& v) { return SetPath(r.key_file, v); }});
    t.push_back({.spec = {.name = "web.basic-auth.username",
                          .help = "User for the exporters' basic auth; with "
                                  "--web.basic-auth.password-file.",
                          .default_text = "unset"},
                 .set = [](ReportSettings& r, const std::string& v) -> std::optional<std::string> {
                   if (v.empty() || v.find(':') != std::string::npos) {
                     return "expected a user name without ':'";
                   }
                   r.username = v;
                   return std::nullopt;
                 }});
    t.push_back({.spec = {.name = "web.basic-auth.password-file",
                          .help = "File holding the basic-auth password (as Prometheus' "
                                  "password_file: white space around it ignored); never printed.",
                          .default_text = "unset"},
                 .set = [](ReportSettings& r, const std::string& v) {
                   return SetPath(r.password_file, v);
                 }});
    t.push_back({.spec = {.name = "web.basic-auth.allow-http",
                          .help = "Send the basic-auth credentials to http:// URLs too, where "
                                  "anyone on the path reads them; without it the report "
                                  "refuses to start when a URL is plain http.",
                          .boolean = true},
                 .defaults = {"false"},
                 .set = [](ReportSettings& r, const std::string& v) -> std::optional<std::string> {
                   r.basic_auth_over_http = v == "true";
                   return std::nullopt;
                 }});
    t.push_back(
        {.spec = {.name = "member",
                  .help = "URL=MEMBER: the exporter at URL is that member's own (MEMBER: its "
                          "server ID in one database, or its Raft address or host in all). A "
                          "URL whose host is its member's Raft address host needs none; a "
                          "kick is advised only on the word of URLs bound either way. The URL "
                          "is read too. Repeatable.",
                  .repeatable = true,
                  .default_text = "none"},
         .set = [](ReportSettings& r, const std::string& v) -> std::optional<std::string> {
           auto b = ParseMemberBinding(v);
           if (!b) return b.error();
           r.members.push_back(std::move(b.value()));
           return std::nullopt;
         }});
    t.push_back(
        {.spec = {.name = "cluster.progress-window",
                  .help = "How long to watch a leader whose log shows members behind its end "
                          "(reading its exporter again about every second), to tell a log "
                          "that does not sync or syncs slowly, the leader's own included; 0 "
                          "reads once."},
         .defaults = {"5s"},
         .set = [](ReportSettings& r, const std::string& v) -> std::optional<std::string> {
           const auto d = ParseDuration(v);
           if (!d) return "expected a duration, got \"" + v + "\"";
           r.progress_window = *d;
           return std::nullopt;
         }});
    return t;
  }();
  return table;
}

// The exit statuses, one table for --help and the manual page.
const std::vector<ManEntry>& ExitStatuses() {
  static const std::vector<ManEntry> statuses = {
      {std::to_string(kExitHealthy),
       "every exporter answered, every URL is trusted, every cluster is healthy"},
      {std::to_string(kExitNeedsAttention),
       "a cluster needs attention, an exporter or database could not be read, or a relay "
       "database is not connected to its source"},
      {std::to_string(kExitBadFlags), "bad flags, or a TLS or password file that cannot be used"},
      {std::to_string(kExitUntrusted),
       "a URL is untrusted (an UNTRUSTED: line says why): not counted"},
  };
  return statuses;
}

std::string Usage() {
  return "usage: ovn-raft-report [FLAGS] EXPORTER_URL...\n\n"
         "Fetches every member's /status and prints the cluster-wide analysis. Each URL speaks\n"
         "for the one member its exporter reads: a URL whose /status contradicts itself (no\n"
         "server or cluster ID, several members of one database), claims a member another URL\n"
         "claims, reads another cluster than most URLs, or another member than --member binds\n"
         "it to is untrusted. A cluster/kick is advised only on the word of URLs shown to be\n"
         "their members' own (the URL's host is the member's Raft address host, or --member),\n"
         "with none unreachable or untrusted. Credentials are never printed, nor sent over\n"
         "plain http unless --web.basic-auth.allow-http says so.\n" +
         EntriesUsage("Exit status", ExitStatuses()) +
         "\nFlags (each also read from the environment variable shown):\n" +
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
                      "Each URL speaks for the one member its exporter reads: what it says of "
                      "other members is evidence, never a vote, and a cluster/kick is advised "
                      "only when the cluster's own leader, read through a URL shown to be its "
                      "own exporter (its host is the leader's Raft address host, or --member "
                      "binds it), does not hear the member, and no URL is unreachable or "
                      "untrusted. A password in a URL, or echoed by a /status, is shown as "
                      "xxxxx.",
                      "A leader whose log shows members behind its end is read again for "
                      "--cluster.progress-window: a member whose log does not sync or syncs "
                      "slowly, the leader's own included, needs attention."},
      .version = kBuildVersion,
      .exit_statuses = ExitStatuses(),
      .sections = {}};
  page.sections.push_back({"See also", {"ovn-raft-exporter(1)"}});
  return RenderManPage(page, ReportFlags(), kEnvPrefix);
}

namespace {

// What the report reads with: the HTTP options and what it must never print.
struct Reader {
  HttpGetOptions options;
  std::vector<std::string> secrets;  // echoed_secrets.h
  std::vector<MemberBinding> members;
};

// One URL's /status, decoded, every string made safe to print; or why not (safe too).
Result<UrlStatus, std::string> Read(const std::string& url, const Reader& reader) {
  using R = Result<UrlStatus, std::string>;
  const std::string shown = RedactedUrl(url);
  const auto body = FetchStatus(url, reader.options);
  auto reports = body ? DecodeStatusJson(body.value(), shown) : std::string{};
  const std::string why = !body                     ? body.error()
                          : !reports                ? reports.error()
                          : reports.value().empty() ? "no database"
                                                    : "";
  if (!why.empty()) return R::Failure(TerminalText(WithoutSecrets(why, reader.secrets)));
  // Everything a /status says is shown escaped and without what it may echo of the
  // credentials: from here on no string can act on the terminal or give a password away.
  UrlStatus s{.url = TerminalText(shown),
              .reports = std::move(reports.value()),
              .host = UrlHost(url),
              .bindings = {}};
  for (auto& r : s.reports) {
    RemoveSecrets(r, reader.secrets);
    MakeTerminalSafe(r);
  }
  for (const auto& b : reader.members) {
    if (SameUrl(b.url, url)) s.bindings.push_back(b);
  }
  return s;
}

// Every exporter's /status, decoded, one per URL (a URL given twice is read once); the URLs
// that could not be read (said on stdout) in `unreachable`, as shown. `raw`: each status's URL
// as given, for a second look. URLs are shown without their userinfo.
void FetchAll(const std::vector<std::string>& urls, const Reader& reader,
              std::vector<UrlStatus>& statuses, std::map<std::string, std::string>& raw,
              std::vector<std::string>& unreachable) {
  std::set<std::string> seen;
  for (const auto& url : urls) {
    if (!seen.insert(url).second) continue;
    auto s = Read(url, reader);
    if (!s) {
      const std::string shown = TerminalText(RedactedUrl(url));
      std::printf("%s: unreachable (%s)\n", shown.c_str(), s.error().c_str());
      unreachable.push_back(shown);
      continue;
    }
    raw.emplace(s.value().url, url);
    statuses.push_back(std::move(s.value()));
  }
}

// Reads again, about every second for `window`, the exporter of each leader whose first
// reading shows members behind its log's end, and returns what its readings show, per
// database and cluster ID.
std::map<std::string, std::map<std::string, std::vector<LogFinding>>> WatchLeaders(
    const std::map<std::string, TrustedDatabase>& databases,
    const std::map<std::string, std::string>& raw, const Reader& reader,
    std::chrono::milliseconds window) {
  // (raw URL, database) -> the leader's readings, the report's own first.
  std::map<std::pair<std::string, std::string>, std::vector<MemberReport>> readings;
  for (const auto& [db, trusted] : databases) {
    for (const auto& m : trusted.members) {
      const auto url = raw.find(m.source);
      if (url != raw.end() && AnyLag(m)) readings[{url->second, db}].push_back(m);
    }
  }
  std::set<std::string> urls;
  for (const auto& [key, r] : readings) urls.insert(key.first);
  const auto end = std::chrono::steady_clock::now() + window;
  while (!urls.empty() && window.count() > 0 &&
         std::chrono::steady_clock::now() + kProgressInterval <= end) {
    std::this_thread::sleep_for(kProgressInterval);
    for (const auto& url : urls) {
      auto s = Read(url, reader);
      if (!s) continue;
      for (auto& r : s.value().reports) {
        const auto it = readings.find({url, r.db});
        if (it != readings.end()) it->second.push_back(std::move(r));
      }
    }
  }
  std::map<std::string, std::map<std::string, std::vector<LogFinding>>> out;
  for (const auto& [key, r] : readings) {
    auto findings = LogProgress(r);
    auto& into = out[key.second][r.front().cluster_id];
    into.insert(into.end(), findings.begin(), findings.end());
  }
  return out;
}

// One line per member: what its exporter read ("=" for a database served without Raft, "?" for
// one that could not be read).
void PrintMembers(const std::vector<MemberReport>& members) {
  // The columns are a Raft member's: a database served without Raft alone has none of them.
  bool any_raft = false;
  for (const auto& m : members) any_raft = any_raft || !ServedWithoutRaft(m);
  if (any_raft) {
    std::printf("  %-6s %-24s %-14s %-9s %5s %-7s %7s %-9s %s\n", "member", "address", "status",
                "role", "term", "leader", "members", "connected", "release");
  }
  for (const auto& m : members) {
    if (ServedWithoutRaft(m)) {
      std::printf("  %-6s %s: %s\n", "=", m.source.c_str(), DescribeWithoutRaft(m).line.c_str());
      continue;
    }
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
bool ReportDatabase(const std::string& db, const TrustedDatabase& trusted,
                    const ExpectedCluster& expected, const DatabaseEvidence& evidence) {
  std::printf("\n%s\n", db.c_str());
  PrintMembers(trusted.members);
  // A standalone or relay database is a member of no cluster: the analysis below is of the
  // Raft members alone, and what the others need is judged on their own.
  std::vector<MemberReport> members;
  std::vector<std::string> without_raft_problems;
  for (const auto& m : trusted.members) {
    if (!ServedWithoutRaft(m)) {
      members.push_back(m);
    } else if (auto problem = DescribeWithoutRaft(m).problem) {
      without_raft_problems.push_back(std::move(*problem));
    }
  }
  for (const auto& u : trusted.untrusted) {
    std::printf("  UNTRUSTED: %s: %s; its entries are not counted%s%s\n", u.url.c_str(),
                u.reason.c_str(), u.claimed.empty() ? "" : " (it claims ",
                u.claimed.empty() ? "" : (Join(u.claimed) + ")").c_str());
  }
  // Normal while an upgrade rolls through the members; not a reason to call the cluster
  // unhealthy, but worth a line once it is.
  if (const std::string mixed = MixedReleases(members); !mixed.empty()) {
    std::printf("  mixed Open vSwitch releases: %s\n", mixed.c_str());
  }
  // Nothing of a cluster to check where no URL reads a Raft member (a standalone NB or SB).
  if (members.empty() && trusted.untrusted.empty()) {
    for (const auto& p : without_raft_problems) std::printf("  needs attention: %s\n", p.c_str());
    return without_raft_problems.empty();
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
  for (const auto& c : clusters) {
    PrintConsensus(db, ctl, c, members, trusted, evidence);
  }
  auto problems = DatabaseProblems(members, clusters);
  for (const auto& [cluster_id, findings] : evidence.log) {
    for (const auto& f : findings) {
      const bool stuck = f.kind == LogFinding::Kind::kNotCatchingUp;
      problems.push_back((f.leads ? "the leader " : "member ") + f.id + "'s log " +
                         (stuck ? "does not sync (not_catching_up)" : "syncs slowly") +
                         (clusters.size() > 1 ? " in cluster " + cluster_id : ""));
    }
  }
  problems.insert(problems.end(), without_raft_problems.begin(), without_raft_problems.end());
  if (clusters.empty() && trusted.untrusted.empty()) {
    bool any_up = false;
    for (const auto& m : members) any_up = any_up || m.up;
    if (any_up) problems.push_back("no member reports a cluster ID");
  }
  for (const auto& p : problems) std::printf("  needs attention: %s\n", p.c_str());
  return problems.empty();
}

bool PlainHttp(const std::string& url) {
  static const std::string kHttp = "http://";
  if (url.size() < kHttp.size()) return false;
  for (std::size_t i = 0; i < kHttp.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(url[i])) != kHttp[i]) return false;
  }
  return true;
}

// The HTTP options from the TLS and basic-auth flags, or why they cannot be used: the
// credentials are never sent in the clear unless the operator said so.
Result<HttpGetOptions, std::string> ClientOptions(const ReportSettings& s,
                                                  const std::vector<std::string>& urls) {
  using R = Result<HttpGetOptions, std::string>;
  HttpGetOptions o;
  o.timeout_ms = static_cast<long>(s.timeout.count());
  o.ca_file = s.ca_file;
  o.cert_file = s.cert_file;
  o.key_file = s.key_file;
  if (s.cert_file.empty() != s.key_file.empty()) {
    return R::Failure("--web.tls.cert-file and --web.tls.key-file go together");
  }
  if (s.username.empty() != s.password_file.empty()) {
    return R::Failure("--web.basic-auth.username and --web.basic-auth.password-file go together");
  }
  if (!s.password_file.empty()) {
    auto password = ReadPasswordFile(s.password_file);
    if (!password) return R::Failure("--web.basic-auth.password-file: " + password.error());
    o.user_password = s.username + ":" + password.value();
  }
  for (const auto& url : urls) {
    // A URL's own user:password is basic auth too.
    const bool credentials = !o.user_password.empty() || !UrlUserinfo(url).empty();
    if (credentials && PlainHttp(url) && !s.basic_auth_over_http) {
      return R::Failure("refusing to send the basic-auth password over plain http to " +
                        RedactedUrl(url) +
                        ": use an https:// URL, or --web.basic-auth.allow-http to send it "
                        "anyway");
    }
  }
  return o;
}

}  // namespace

int ReportCommand(const std::vector<std::string>& args, const EnvLookup& env) {
  const auto flags = ParseSettings(Table(), args, env, kEnvPrefix, true);
  if (flags.help) {
    std::cout << Usage();
    return kExitHealthy;
  }
  if (flags.version) {
    std::cout << VersionLine("ovn-raft-report") << "\n";
    return kExitHealthy;
  }
  for (const auto& w : flags.warnings) std::cerr << "ovn-raft-report: " << w << "\n";
  std::optional<std::string> error = flags.error;
  // The URLs: the positional ones, then those only --member names.
  std::vector<std::string> urls = flags.positional;
  if (flags.settings) {
    for (const auto& b : flags.settings->members) {
      const auto given = [&](const std::string& u) { return SameUrl(u, b.url); };
      if (std::none_of(urls.begin(), urls.end(), given)) urls.push_back(b.url);
    }
  }
  if (!error && urls.empty()) error = "no exporter URL given";
  Reader reader;
  if (!error) {
    auto options = ClientOptions(*flags.settings, urls);
    if (options) {
      reader.options = std::move(options.value());
    } else {
      error = options.error();
    }
  }
  if (error) {
    // Flags and their errors never hold a credential: the password is only in its file, and
    // URLs are shown redacted.
    std::cerr << "ovn-raft-report: " << TerminalText(*error) << "\n\n" << Usage();
    return kExitBadFlags;
  }
  reader.secrets = BasicAuthSecrets(reader.options.user_password);
  for (const auto& url : urls) {
    for (auto& secret : BasicAuthSecrets(UrlUserinfo(url))) reader.secrets.push_back(secret);
  }
  reader.members = flags.settings->members;
  std::vector<UrlStatus> statuses;
  std::map<std::string, std::string> raw;
  std::vector<std::string> unreachable;
  FetchAll(urls, reader, statuses, raw, unreachable);
  bool healthy = unreachable.empty();
  bool untrusted = false;
  const auto databases = SortByTrust(statuses);
  auto log = WatchLeaders(databases, raw, reader, flags.settings->progress_window);
  for (const auto& [db, trusted] : databases) {
    const DatabaseEvidence evidence{.unreachable = unreachable, .log = std::move(log[db])};
    healthy = ReportDatabase(db, trusted, flags.settings->expected, evidence) && healthy;
    untrusted = untrusted || !trusted.untrusted.empty();
  }
  if (untrusted) {
    std::printf("\nuntrusted URLs above: their entries were not counted (exit %d)\n",
                kExitUntrusted);
    return kExitUntrusted;
  }
  return healthy ? kExitHealthy : kExitNeedsAttention;
}

}  // namespace ovn_raft
