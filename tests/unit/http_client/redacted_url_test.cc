#include "http_client/redacted_url.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

TEST(RedactedUrlTest, UserinfoIsNeverShown) {
  EXPECT_EQ(RedactedUrl("https://me:s3cret@10.0.0.1:10476"), "https://xxxxx@10.0.0.1:10476");
  EXPECT_EQ(RedactedUrl("http://token@host/status?x=1"), "http://xxxxx@host/status?x=1");
  // A password holding an '@' of its own: all of it goes.
  EXPECT_EQ(RedactedUrl("http://me:p@ss@[::1]:1/x"), "http://xxxxx@[::1]:1/x");
  // curl reads a URL without a scheme host first.
  EXPECT_EQ(RedactedUrl("me:s3cret@10.0.0.1:10476"), "xxxxx@10.0.0.1:10476");
}

TEST(RedactedUrlTest, AUrlWithoutUserinfoIsKept) {
  EXPECT_EQ(RedactedUrl("http://10.0.0.1:10476"), "http://10.0.0.1:10476");
  EXPECT_EQ(RedactedUrl("http://host/a@b?c@d#e@f"), "http://host/a@b?c@d#e@f");
  EXPECT_EQ(RedactedUrl(""), "");
  EXPECT_EQ(RedactedUrl("@"), "xxxxx@");
}

}  // namespace
}  // namespace ovn_raft
