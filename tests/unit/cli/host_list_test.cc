#include "cli/host_list.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ovn_raft {
namespace {

// Spaces, brackets, upper case and repeats as operators write them; a CIDR is not a host.
TEST(HostListTest, NormalizesSortsAndRefusesPrefixes) {
  EXPECT_EQ(ParseHostList(" [FD00::1], fd00::2  node-3.example.com,,"),
            (std::vector<std::string>{"fd00::1", "fd00::2", "node-3.example.com"}));
  EXPECT_EQ(ParseHostList("10.0.0.1 10.0.0.1"), (std::vector<std::string>{"10.0.0.1"}));
  EXPECT_EQ(ParseHostList(""), std::vector<std::string>{});
  EXPECT_FALSE(ParseHostList("10.0.0.1/24").has_value());
}

}  // namespace
}  // namespace ovn_raft
