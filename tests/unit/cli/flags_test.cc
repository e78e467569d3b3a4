#include "cli/flags.h"

#include <gtest/gtest.h>

#include <map>

namespace ovn_raft {
namespace {

const std::vector<FlagSpec> kSpecs = {
    {"a.one", "first", {"one"}},
    {"a.many", "repeatable", {}, true},
    {.name = "a.switch", .help = "a switch", .boolean = true},
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

// A switch takes no value after it, as kingpin's bool flags: the next argument stays positional.
TEST(FlagsTest, SwitchesAreTrueAloneAndFalseNegated) {
  const auto alone = Parse({"--a.switch", "http://a"});
  ASSERT_EQ(alone.values.size(), 1u);
  EXPECT_EQ(alone.values[0].value, "true");
  EXPECT_EQ(alone.positional, (std::vector<std::string>{"http://a"}));
  const auto negated = Parse({"--no-a.switch"}, {{"P_A_SWITCH", "true"}});
  ASSERT_EQ(negated.values.size(), 1u);
  EXPECT_EQ(negated.values[0].value, "false");
  EXPECT_EQ(Parse({"--a.switch=0"}).values.at(0).value, "false");
  EXPECT_EQ(Parse({}, {{"P_A_SWITCH", "1"}}).values.at(0).value, "true");
  EXPECT_NE(Parse({"--a.switch=yes"}).error.value_or("").find("true or false, got \"yes\""),
            std::string::npos);
  EXPECT_NE(
      Parse({}, {{"P_A_SWITCH", "on"}}).error.value_or("").find("P_A_SWITCH is true or false"),
      std::string::npos);
  EXPECT_NE(Parse({"--no-a.one"}).error.value_or("").find("unknown flag --no-a.one"),
            std::string::npos);
  const std::string usage = FlagsUsage(kSpecs, "P_");
  EXPECT_NE(usage.find("  --a.switch  [P_A_SWITCH]"), std::string::npos) << usage;
  EXPECT_NE(usage.find("  --a.one=VALUE  [P_A_ONE]"), std::string::npos) << usage;
}

}  // namespace
}  // namespace ovn_raft
