#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace ovn_raft::testing {

// Polls `condition` until it holds or `seconds` pass: Raft needs election timeouts to react.
inline bool Eventually(const std::function<bool()>& condition, int seconds = 20) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return condition();
}

}  // namespace ovn_raft::testing
