// Figures for the README, not a test: /metrics latency over many scrapes (a connection each:
// the exporter serves one request per connection), the exec baseline of the Go exporters (two
// `ovs-appctl cluster/status` per scrape), and the exporter's resident memory as scrapes go by.
//
//   scrape_bench URL SCRAPES EXPORTER_PID [CTL_NB CTL_SB EXEC_RUNS]
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "http_client/http_get.h"

namespace {

using Clock = std::chrono::steady_clock;

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

long RssKiB(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

void Report(const char* what, const std::vector<double>& ms) {
  std::printf("%-28s n=%zu p50=%.3f ms p99=%.3f ms max=%.3f ms\n", what, ms.size(),
              Percentile(ms, 0.5), Percentile(ms, 0.99), *std::max_element(ms.begin(), ms.end()));
}

// What the Go exporters do per scrape: fork and exec ovs-appctl once per database.
double ExecOnce(const std::string& ctl, const char* db) {
  std::fflush(stdout);  // or the child would inherit, and print, what is buffered
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execlp("ovs-appctl", "ovs-appctl", "-t", ctl.c_str(), "cluster/status", db, nullptr);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: scrape_bench URL SCRAPES EXPORTER_PID [CTL_NB CTL_SB EXEC_RUNS]\n");
    return 2;
  }
  const std::string url = argv[1];
  const long scrapes = std::stol(argv[2]);
  const std::string pid = argv[3];

  ovn_raft::HttpClient client;  // one kept-alive connection, as Prometheus scrapes
  size_t bytes = 0;
  std::vector<double> ms;
  ms.reserve(static_cast<size_t>(scrapes));
  const long rss_start = RssKiB(pid);
  long failures = 0;
  for (long i = 1; i <= scrapes; ++i) {
    const auto start = Clock::now();
    const auto r = client.Get(url);
    if (r.status != 200) ++failures;
    bytes += r.body.size();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (i % (scrapes / 5 > 0 ? scrapes / 5 : 1) == 0) {
      std::printf("after %7ld scrapes: exporter RSS %ld KiB\n", i, RssKiB(pid));
    }
  }
  std::printf("exporter RSS at start %ld KiB; failures %ld; bytes per scrape %zu\n", rss_start,
              failures, bytes / static_cast<size_t>(scrapes));
  Report("exporter /metrics", ms);

  if (argc >= 7) {
    const int runs = std::stoi(argv[6]);
    std::vector<double> exec_ms;
    for (int i = 0; i < runs; ++i) {
      exec_ms.push_back(ExecOnce(argv[4], "OVN_Northbound") + ExecOnce(argv[5], "OVN_Southbound"));
    }
    Report("exec 2x ovs-appctl", exec_ms);
    std::printf("speed-up at p50: %.1fx, at p99: %.1fx\n",
                Percentile(exec_ms, 0.5) / Percentile(ms, 0.5),
                Percentile(exec_ms, 0.99) / Percentile(ms, 0.99));
  }
  return failures == 0 ? 0 : 1;
}
