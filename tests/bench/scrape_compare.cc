// Figures, not a test: two exporters reading the same ovsdb-server, scraped in turns (A then
// B, then B then A, ...), so that both meet the same machine and the same server. Prints each
// round's p50 per exporter and the ratio of their medians (B / A), twice: with a connection per
// scrape, the same work for both whatever their connection policy, then with one connection
// kept alive per exporter, as a scraper that reuses its connection sees them (an exporter that
// closes every connection pays a TCP handshake per scrape there).
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

// p50 of `n` scrapes of `url`, in ms; failures counted.
double Round(ovn_raft::HttpClient& client, const std::string& url, long n,
             const ovn_raft::HttpGetOptions& options, long& failures) {
  std::vector<double> ms;
  for (long i = 0; i < n; ++i) {
    const auto start = Clock::now();
    if (client.Get(url, options).status != 200) ++failures;
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return Median(ms);
}

// Both exporters in turns, ROUNDS times; returns B / A of the medians of the rounds' p50.
double Compare(const std::string (&urls)[2], int rounds, long scrapes, bool fresh, long& failures) {
  ovn_raft::HttpGetOptions options;
  options.fresh_connection = fresh;
  ovn_raft::HttpClient clients[2];
  for (int k = 0; k < 2; ++k) {  // warm-up: connections to ovsdb-server, first allocations
    long ignored = 0;
    Round(clients[k], urls[k], 50, options, ignored);
  }
  std::printf("%s:\n",
              fresh ? "a connection per scrape" : "one connection kept alive per exporter");
  std::vector<double> p50[2];
  for (int r = 0; r < rounds; ++r) {
    for (int turn = 0; turn < 2; ++turn) {
      const int k = (r + turn) % 2;
      p50[k].push_back(Round(clients[k], urls[k], scrapes, options, failures));
    }
    std::printf("  round %2d: A p50 %.3f ms, B p50 %.3f ms\n", r + 1, p50[0].back(), p50[1].back());
  }
  for (int k = 0; k < 2; ++k) {
    std::printf("  %c: p50 of the rounds %.3f ms (%.3f-%.3f)\n", 'A' + k, Median(p50[k]),
                *std::min_element(p50[k].begin(), p50[k].end()),
                *std::max_element(p50[k].begin(), p50[k].end()));
  }
  const double ratio = Median(p50[1]) / Median(p50[0]);
  std::printf("  B / A: %.2f\n", ratio);
  return ratio;
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
  long failures = 0;
  const double fresh = Compare(urls, rounds, scrapes, true, failures);
  const double kept = Compare(urls, rounds, scrapes, false, failures);
  std::printf("B / A: %.2f with a connection per scrape, %.2f with keep-alive; failures %ld\n",
              fresh, kept, failures);
  return failures == 0 ? 0 : 1;
}
