#include "web/web_config_watcher.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "support/bcrypt.h"
#include "support/files.h"
#include "support/temp_dir.h"
#include "web/basic_auth.h"
#include "web/web_config.h"

namespace ovn_raft {
namespace {

using testing::Bcrypt;

// Written whole under another name and renamed, as a Secret update is.
void WriteUsers(const std::string& path, const std::string& users) {
  testing::WriteFile(path, "basic_auth_users:\n" + users);
}

class WebConfigWatcherTest : public ::testing::Test {
 protected:
  testing::TempDir dir_{"ovn-raft-watcher"};
  const std::string path_ = dir_ / "web.yml";
};

// The daemon takes the stamp, loads, then starts the watcher: a change made between the load
// and the watcher's start must still be seen.
TEST_F(WebConfigWatcherTest, AChangeWhileTheFirstLoadRanIsSeen) {
  WriteUsers(path_, "  prom: " + Bcrypt("one") + "\n");
  const auto stamp = WebConfigWatcher::StampOf(path_);
  auto first = LoadWebConfig(path_);
  ASSERT_TRUE(first.ok());
  BasicAuth auth(first.value().basic_auth_users);
  WriteUsers(path_, "  prom: " + Bcrypt("two") + "\n");  // the change in between
  WebConfigWatcher watcher(path_, auth, stamp, false);
  watcher.Poll();
  EXPECT_EQ(auth.Check("Basic cHJvbTp0d28="), AuthResult::kAllowed);  // prom:two
  EXPECT_EQ(auth.Check("Basic cHJvbTpvbmU="), AuthResult::kDenied);   // prom:one
}

// SIGHUP: reload now, even when the file looks unchanged.
TEST_F(WebConfigWatcherTest, ReloadReadsTheFileWhateverItsStamp) {
  WriteUsers(path_, "  prom: " + Bcrypt("one") + "\n");
  BasicAuth auth({{"prom", Bcrypt("two")}});
  WebConfigWatcher watcher(path_, auth, WebConfigWatcher::StampOf(path_), false);
  watcher.Poll();  // unchanged since the stamp: not read
  EXPECT_EQ(auth.Check("Basic cHJvbTp0d28="), AuthResult::kAllowed);
  watcher.Reload();
  EXPECT_EQ(auth.Check("Basic cHJvbTpvbmU="), AuthResult::kAllowed);
  EXPECT_EQ(auth.Check("Basic cHJvbTp0d28="), AuthResult::kDenied);
}

// A reload with a cost above 12 keeps the users it had (and says why in the log); a reload's
// rate_limit is applied.
TEST_F(WebConfigWatcherTest, AReloadKeepsTheLastGoodUsersAndAppliesTheRateLimit) {
  WriteUsers(path_, "  prom: " + Bcrypt("one") + "\n");
  auto first = LoadWebConfig(path_);
  ASSERT_TRUE(first.ok());
  BasicAuth auth(first.value().basic_auth_users);
  RateLimiter limiter(first.value().rate_limit);
  WebConfigWatcher watcher(path_, auth, WebConfigWatcher::StampOf(path_), false, &limiter);
  std::string dear = Bcrypt("two");
  dear.replace(4, 2, "13");
  WriteUsers(path_, "  prom: " + dear + "\n");
  watcher.Reload();
  EXPECT_EQ(auth.Check("Basic cHJvbTpvbmU="), AuthResult::kAllowed);  // prom:one
  WriteUsers(path_, "  prom: " + Bcrypt("two") + "\nrate_limit:\n  interval: 1h\n  burst: 2\n");
  watcher.Reload();
  EXPECT_EQ(auth.Check("Basic cHJvbTp0d28="), AuthResult::kAllowed);  // prom:two
  const auto now = RateLimiter::Clock::now();
  EXPECT_TRUE(limiter.Allow(now));
  EXPECT_TRUE(limiter.Allow(now));
  EXPECT_FALSE(limiter.Allow(now));
}

}  // namespace
}  // namespace ovn_raft
