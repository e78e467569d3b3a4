#include "report_command.h"

#include <curl/curl.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

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

}  // namespace

int ReportCommand(int argc, char** argv) {
  if (argc < 1) {
    std::cerr << "usage: ovn-raft-report EXPORTER_URL...\n";
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
    std::set<std::string> leaders, views, clusters;
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
      if (m.leader != "unknown") leaders.insert(m.leader);
      clusters.insert(m.cluster_id);
      std::string key;
      for (const auto& [id, address] : m.view) key += id + "=" + address + ";";
      views.insert(key);
    }
    const bool agree = views.size() == 1 && leaders.size() == 1 && clusters.size() == 1;
    std::printf("  leader: %s; views: %s; cluster IDs: %zu\n",
                leaders.size() == 1 ? leaders.begin()->c_str()
                : leaders.empty()   ? "NONE"
                                    : "SEVERAL",
                views.size() == 1 ? "all agree" : "DISAGREE", clusters.size());
    healthy = healthy && agree;
  }
  return healthy ? 0 : 1;
}

}  // namespace ovn_raft
