#pragma once

// How the daemon asks glibc's malloc to behave, set once at start from inside the process (no
// environment, no second exec: it holds under file capabilities, setuid, a loader and a
// read-only /proc alike). What only the environment can change (the per-thread caches of freed
// blocks) is left to whoever starts the daemon: the image sets it (Dockerfile).

namespace ovn_raft {

void ConfigureAllocator();

// Whether glibc's per-thread caches of freed blocks are off in this process: GLIBC_TUNABLES
// (`tunables`, colon-separated NAME=VALUE) sets glibc.malloc.tcache_count=0 and glibc honours
// it (`secure`: a secure exec, under file capabilities or setuid, ignores it). Where they are
// off, the work the task pools keep on a few threads may run on the workers that ask.
bool ThreadCachesOff(const char* tunables, bool secure);
// The same for this process.
bool ThreadCachesOff();

}  // namespace ovn_raft
