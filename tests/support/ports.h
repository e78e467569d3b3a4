#pragma once

// Ports for tests that run side by side (ctest -j, several suites and scripts at once).
//
// Every test process owns one block of kPortBlockSize consecutive TCP ports: block N is
// kFirstPort + N * kPortBlockSize, N < kPortBlocks (20000-31999, below the kernel's ephemeral
// range 32768-60999, so no outgoing connection can hold one). A process owns block N while it
// holds an exclusive flock(2) on kPortLockDir/N.lock; the kernel drops it when the last holder
// exits, even when killed, and children that inherit the descriptor (a detached ovsdb-server)
// keep it while they live. No two owners, no bind-close-reuse race, no clean-up.
//
// TakePorts(n) hands out the next n consecutive ports of the block. A process whose environment
// names a block (OVN_RAFT_PORT_BLOCK=N, set by a script that owns it) takes from that one, so a
// script and the programs it starts share one counter (kPortLockDir/N.next, under flock).
// Scripts: `. scripts/lib.sh; claim_ports; port=$(free_port 2)`; Python: tests/support/ports.py.
// Same protocol in all three.

namespace ovn_raft::testing {

inline constexpr int kFirstPort = 20000;
inline constexpr int kPortBlockSize = 200;
inline constexpr int kPortBlocks = 60;
inline constexpr const char* kPortLockDir = "/tmp/ovn-raft-ports";

// The first of `count` consecutive ports of this process's block; claims a block on first
// use. Throws std::runtime_error when every block is owned or this one is used up.
int TakePorts(int count = 1);

}  // namespace ovn_raft::testing
