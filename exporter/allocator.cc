#include "exporter/allocator.h"

#include <malloc.h>

namespace ovn_raft {

void ConfigureAllocator() {
  // glibc gives threads that meet in malloc arenas of their own, each keeping its peak. The
  // threads that allocate much are few (web/web_server.h, RunWork) and seldom meet:
  // one arena keeps memory near one busy moment's, whatever the number of workers
  // (docs/dev/performance-memory.md).
  mallopt(M_ARENA_MAX, 1);
  // A hostile or huge reply (up to --ovsdb.max-reply-size, on every connection of a round at
  // once) is held in blocks of megabytes. glibc raises its mmap threshold each time such a
  // block is freed, and the next ones would then come from the heap and stay: fixed, blocks
  // that large are mapped and handed back as soon as they are freed.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // Fixing that threshold also fixes the trim threshold at glibc's small default, which one
  // scrape's free top of heap passes: every scrape would give its pages back and fault them
  // in again. This one holds a scrape's peak.
  mallopt(M_TRIM_THRESHOLD, 512 << 10);
}

}  // namespace ovn_raft
