#include "cli/flags.h"

#include <gtest/gtest.h>

#include <map>

namespace ovn_raft {
namespace {

const std::vector<FlagSpec> kSpecs = {
    {"a.one", "first", {"one"}},
    {"a.many", "repeatable", {}, true},
};

ParsedFlags Parse(const std::vector<std::string>& args, std::map<std::string, std::string> env = {},
                  bool positional = true) {
  return ParseFlags(
      kSpecs, args,
      [env](const std::string& name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
      },
      "P_", positional);
}

TEST(FlagsTest, PositionalArgumentsWhereAllowed) {
  const auto p = Parse({"http://a", "--a.one=1", "http://b"});
  EXPECT_EQ(p.positional, (std::vector<std::string>{"http://a", "http://b"}));
  ASSERT_EQ(p.values.size(), 1u);
  EXPECT_EQ(p.values[0].value, "1");
  EXPECT_NE(Parse({"stray"}, {}, false).error.value_or("").find("unexpected argument"),
            std::string::npos);
}

TEST(FlagsTest, RepeatableFromTheCommandLineOrSplitFromItsVariable) {
  const auto env = Parse({}, {{"P_A_MANY", "x;;y"}});
  ASSERT_EQ(env.values.size(), 2u);
  EXPECT_EQ(env.values[1].value, "y");
  EXPECT_EQ(env.values[1].where, "P_A_MANY");
  const auto flags = Parse({"--a.many", "x", "--a.many=y"}, {{"P_A_MANY", "z"}});
  ASSERT_EQ(flags.values.size(), 2u);  // the command line replaces the variable
  EXPECT_EQ(flags.values[0].where, "--a.many");
}

TEST(FlagsTest, OldNamesAndVariablesWarn) {
  const auto p = Parse({}, {{"P_ONE", "1"}});
  ASSERT_EQ(p.values.size(), 1u);
  EXPECT_EQ(p.values[0].name, "a.one");
  EXPECT_EQ(p.warnings, (std::vector<std::string>{"P_ONE is deprecated, use P_A_ONE"}));
  const auto both = Parse({}, {{"P_ONE", "1"}, {"P_A_ONE", "2"}});
  ASSERT_EQ(both.values.size(), 1u);
  EXPECT_EQ(both.values[0].value, "2");
  EXPECT_TRUE(both.warnings.empty());
  EXPECT_EQ(EnvName("P_", "web.listen-address"), "P_WEB_LISTEN_ADDRESS");
}

}  // namespace
}  // namespace ovn_raft
