#pragma once

// How the daemon asks glibc's malloc to behave, set once at start from inside the process (no
// environment, no second exec: it holds under file capabilities, setuid, a loader and a
// read-only /proc alike).

namespace ovn_raft {

void ConfigureAllocator();

}  // namespace ovn_raft
