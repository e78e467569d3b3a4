#include "exporter/allocator.h"

#include <malloc.h>
#include <sys/auxv.h>

#include <cstdlib>
#include <string_view>

namespace ovn_raft {

void ConfigureAllocator() {
  // civetweb serves each connection on one of many worker threads, and glibc gives threads
  // that meet in malloc arenas of their own, each keeping its peak. Few arenas keep memory
  // near one busy moment's, whatever the number of workers: two where the task pools do the
  // allocating, one where the workers do it themselves (the per-thread caches off), so that
  // every worker reuses the same arena (docs/dev/performance-memory.md).
  mallopt(M_ARENA_MAX, ThreadCachesOff() ? 1 : 2);
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

bool ThreadCachesOff(const char* tunables, bool secure) {
  if (secure || tunables == nullptr) return false;
  // The last setting of a name wins, as glibc reads the list. Where glibc may ignore the whole
  // list (an item without a value, which newer releases reject outright) or every tunable
  // (glibc.rtld.enable_secure), the caches count as on: the safe side.
  bool off = false;
  std::string_view rest(tunables);
  while (!rest.empty()) {
    const auto end = rest.find(':');
    const std::string_view item = rest.substr(0, end);
    const auto equals = item.find('=');
    if (equals == std::string_view::npos || item.find('=', equals + 1) != std::string_view::npos)
      return false;
    if (item == "glibc.rtld.enable_secure=1") return false;
    constexpr std::string_view kName = "glibc.malloc.tcache_count=";
    if (item.substr(0, kName.size()) == kName) off = item.substr(kName.size()) == "0";
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return off;
}

bool ThreadCachesOff() {
  return ThreadCachesOff(std::getenv("GLIBC_TUNABLES"), getauxval(AT_SECURE) != 0);
}

}  // namespace ovn_raft
