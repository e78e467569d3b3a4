#include "report_command.h"

#include <curl/curl.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config.h"
#include "consensus.h"
#include "member_report.h"

namespace ovn_raft {
namespace {

size_t Append(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

// GET URL/status; "" with `error` set on failure.
std::string FetchStatus(const std::string& base, std::string* error) {
  std::string body;
  CURL* curl = curl_easy_init();
  const std::string url = base + "/status";
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 5000L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  if (rc != CURLE_OK) *error = curl_easy_strerror(rc);
  if (rc == CURLE_OK && status != 200) *error = "HTTP " + std::to_string(status);
  return error->empty() ? body : "";
}

std::string Or(const std::string& s, const char* fallback) { return s.empty() ? fallback : s; }

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out.empty() ? "-" : out;
}

// Prints the analysis of one cluster; returns whether it is healthy.
bool PrintConsensus(const std::string& db, const ClusterConsensus& c) {
  const char* ctl = db == "OVN_Southbound" ? "ovnsb_db" : "ovnnb_db";
  std::printf("  cluster %s: %zu reporting; views %s; majority view: %s\n", c.cluster_id.c_str(),
              c.reporters.size(), c.all_agree ? "all agree" : "DISAGREE",
              c.has_majority ? ("yes (" + Join(c.majority_reporters) + ")").c_str() : "NONE");
  if (!c.minority_reporters.empty()) {
    std::printf("    minority: %s\n", Join(c.minority_reporters).c_str());
  }
  std::printf(
      "    members named: %zu%s; leaders: %d, followed: %s\n", c.union_members.size(),
      c.expected_members ? (" (expected " + std::to_string(*c.expected_members) + ")").c_str() : "",
      c.leaders, Join(c.leader_ids).c_str());
  for (const auto& [id, n] : c.silent) {
    std::printf("    not reporting: %s (named by %d)%s\n", id.c_str(), n,
                c.stale_suspects.count(id) ? " STALE SUSPECT" : "");
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
  for (const auto& id : c.ranked_suspects) {
    std::printf(
        "    to remove %s, from a healthy member: ovs-appctl -t /var/run/ovn/%s.ctl "
        "cluster/kick %s %s\n",
        id.c_str(), ctl, db.c_str(), id.c_str());
  }
  return c.all_agree && c.silent.empty() && c.host_conflicts.empty() &&
         c.unexpected_members.empty() && c.missing_hosts.empty() && c.leaders == 1 &&
         c.leader_ids.size() == 1 &&
         (!c.expected_members || static_cast<int>(c.union_members.size()) == *c.expected_members);
}

}  // namespace

int ReportCommand(int argc, char** argv) {
  ExpectedCluster expected;
  const char* usage =
      "usage: ovn-raft-report [--expected-members=N] [--expected-hosts=LIST] EXPORTER_URL...\n";
  for (; argc >= 1 && std::string(argv[0]).rfind("--", 0) == 0; ++argv, --argc) {
    const std::string arg = argv[0];
    if (arg.rfind("--expected-members=", 0) == 0) {
      expected.members = std::atoi(arg.c_str() + 19);
    } else if (arg.rfind("--expected-hosts=", 0) == 0) {
      const auto hosts = ParseHostList(arg.substr(17));
      if (!hosts) {
        std::cerr << "--expected-hosts: expected IPs or DNS names, got \"" << arg.substr(17)
                  << "\"\n";
        return 2;
      }
      expected.hosts.insert(hosts->begin(), hosts->end());
      if (!expected.members) expected.members = static_cast<int>(hosts->size());
    } else {
      std::cerr << usage;
      return 2;
    }
  }
  if (argc < 1) {
    std::cerr << usage;
    return 2;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  bool healthy = true;
  std::map<std::string, std::vector<MemberReport>> by_db;
  for (int i = 0; i < argc; ++i) {
    std::string error;
    const std::string json = FetchStatus(argv[i], &error);
    const auto reports = DecodeStatusJson(json, argv[i]);
    if (reports.empty()) {
      std::printf("%s: unreachable (%s)\n", argv[i], Or(error, "bad /status").c_str());
      healthy = false;
    }
    for (const auto& r : reports) by_db[r.db].push_back(r);
  }
  curl_global_cleanup();

  for (const auto& [db, members] : by_db) {
    std::printf("\n%s\n", db.c_str());
    std::printf("  %-6s %-24s %-14s %-9s %5s %-7s %7s %-9s\n", "member", "address", "status",
                "role", "term", "leader", "members", "connected");
    for (const auto& m : members) {
      if (!m.up) {
        std::printf("  %-6s %s: %s\n", "?", m.source.c_str(), Or(m.error, "down").c_str());
        healthy = false;
        continue;
      }
      std::printf("  %-6s %-24s %-14s %-9s %5s %-7s %7zu %-9s\n", m.server_id.c_str(),
                  m.address.c_str(), m.status.c_str(), m.role.c_str(),
                  m.term ? std::to_string(*m.term).c_str() : "-", Or(m.leader, "-").c_str(),
                  m.view.size(), m.connected ? (*m.connected ? "yes" : "NO") : "-");
    }
    const auto clusters = AnalyzeConsensus(members, expected);
    if (clusters.size() > 1) {
      std::printf("  CLUSTER ID SPLIT: %zu cluster IDs among the members\n", clusters.size());
      healthy = false;
    }
    for (const auto& c : clusters) healthy = PrintConsensus(db, c) && healthy;
  }
  return healthy ? 0 : 1;
}

}  // namespace ovn_raft
