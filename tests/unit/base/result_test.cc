#include "base/result.h"

#include <gtest/gtest.h>

#include <string>

namespace ovn_raft {
namespace {

struct Oops {
  std::string message;
};

TEST(ResultTest, HoldsAValueOrAnError) {
  const Result<int, Oops> ok = 42;
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok.value(), 42);
  const Result<int, Oops> failed = Oops{"no"};
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().message, "no");
}

// With the same type for both, the error is spelled out.
TEST(ResultTest, SameTypeNeedsFailure) {
  const Result<std::string, std::string> body = std::string("{}");
  ASSERT_TRUE(body);
  EXPECT_EQ(body.value(), "{}");
  const auto failed = Result<std::string, std::string>::Failure("HTTP 502");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error(), "HTTP 502");
}

}  // namespace
}  // namespace ovn_raft
