#include "exporter/allocator.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

// The per-thread caches are off only when GLIBC_TUNABLES turns them off and glibc honours it:
// the last setting of the name wins, other tunables are ignored, a secure exec drops it.
TEST(AllocatorTest, ThreadCachesOffReadsTheTunablesAsGlibcDoes) {
  EXPECT_TRUE(ThreadCachesOff("glibc.malloc.tcache_count=0", false));
  EXPECT_TRUE(ThreadCachesOff("glibc.malloc.arena_max=2:glibc.malloc.tcache_count=0", false));
  EXPECT_FALSE(ThreadCachesOff("glibc.malloc.tcache_count=0", true));  // setcap, setuid
  EXPECT_FALSE(ThreadCachesOff(nullptr, false));
  EXPECT_FALSE(ThreadCachesOff("", false));
  EXPECT_FALSE(ThreadCachesOff("glibc.malloc.tcache_count=7", false));
  EXPECT_FALSE(ThreadCachesOff("glibc.malloc.tcache_count=00x", false));
  EXPECT_FALSE(ThreadCachesOff("glibc.malloc.tcache_count=0:glibc.malloc.tcache_count=8", false));
  EXPECT_TRUE(ThreadCachesOff("glibc.malloc.tcache_count=8:glibc.malloc.tcache_count=0", false));
  EXPECT_FALSE(ThreadCachesOff("xglibc.malloc.tcache_count=0", false));
  // Lists glibc may ignore whole count as caches on.
  EXPECT_FALSE(ThreadCachesOff("glibc.malloc.tcache_count=0:junk", false));
  EXPECT_FALSE(ThreadCachesOff("glibc.malloc.tcache_count=0=0", false));
  EXPECT_FALSE(ThreadCachesOff("glibc.rtld.enable_secure=1:glibc.malloc.tcache_count=0", false));
}

}  // namespace
}  // namespace ovn_raft
