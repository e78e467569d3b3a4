#pragma once

// At most a share of the workers per source (SourceKey), so that one client, however many
// connections it opens, leaves workers to the others: past its share a request is answered
// 429 at once instead of waiting on ovsdb-server or a password check. Thread-safe.

#include <map>
#include <mutex>
#include <string>

namespace ovn_raft {

class SourceLimiter {
 public:
  // A quarter of the workers, and never fewer than 4 (a kube-rbac-proxy in front makes every
  // request come from 127.0.0.1).
  static int ShareOf(int workers);

  explicit SourceLimiter(int max_per_source) : max_(max_per_source) {}

  // Held for the life of one request; `admitted()` false when the source was past its share.
  class Slot {
   public:
    Slot(SourceLimiter& limiter, std::string source);
    ~Slot();
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    bool admitted() const { return admitted_; }

   private:
    SourceLimiter& limiter_;
    std::string source_;
    bool admitted_;
  };

 private:
  const int max_;
  std::mutex mu_;
  std::map<std::string, int> in_flight_;  // only sources with requests running
};

}  // namespace ovn_raft
