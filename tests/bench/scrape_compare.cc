// Figures, not a test: two exporters reading the same ovsdb-server, scraped in turns (A then
// B, then B then A, ...), so that both meet the same machine and the same server. Prints each
// round's p50 per exporter and the ratio of their medians (B / A).
//
//   scrape_compare URL_A URL_B ROUNDS SCRAPES_PER_ROUND
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "http_client/http_get.h"

namespace {

using Clock = std::chrono::steady_clock;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// p50 of `n` uncached scrapes of `url`, in ms; failures counted.
double Round(ovn_raft::HttpClient& client, const std::string& url, long n, long& failures) {
  std::vector<double> ms;
  for (long i = 0; i < n; ++i) {
    const auto start = Clock::now();
    if (client.Get(url).status != 200) ++failures;
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return Median(ms);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: scrape_compare URL_A URL_B ROUNDS SCRAPES_PER_ROUND\n");
    return 2;
  }
  const std::string urls[2] = {argv[1], argv[2]};
  const int rounds = std::stoi(argv[3]);
  const long scrapes = std::stol(argv[4]);
  ovn_raft::HttpClient clients[2];  // one kept-alive connection each, as Prometheus scrapes
  for (int k = 0; k < 2; ++k) {     // warm-up: connections to ovsdb-server, first allocations
    long ignored = 0;
    Round(clients[k], urls[k], 50, ignored);
  }
  std::vector<double> p50[2];
  long failures = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int turn = 0; turn < 2; ++turn) {
      const int k = (r + turn) % 2;
      p50[k].push_back(Round(clients[k], urls[k], scrapes, failures));
    }
    std::printf("round %2d: A p50 %.3f ms, B p50 %.3f ms\n", r + 1, p50[0].back(), p50[1].back());
  }
  for (int k = 0; k < 2; ++k) {
    std::printf("%c: p50 of the rounds %.3f ms (%.3f-%.3f)\n", 'A' + k, Median(p50[k]),
                *std::min_element(p50[k].begin(), p50[k].end()),
                *std::max_element(p50[k].begin(), p50[k].end()));
  }
  std::printf("B / A: %.2f; failures %ld\n", Median(p50[1]) / Median(p50[0]), failures);
  return failures == 0 ? 0 : 1;
}
