// The manual page is valid roff made from the flag table: every flag with its variable,
// default and old spellings, and text that roff would misread escaped.

#include "cli/man_page.h"

#include <gtest/gtest.h>

namespace ovn_raft {
namespace {

TEST(ManPageTest, FlagsVariablesDefaultsAndEscapes) {
  const std::vector<FlagSpec> specs = {
      {.name = "ovsdb.timeout",
       .help = "Deadline, e.g. 2s.",
       .deprecated = {"timeout"},
       .default_text = "2s"},
      {.name = "web.listen-address",
       .help = ".starts with a dot \\ and a backslash",
       .repeatable = true},
  };
  const std::string page = RenderManPage({.program = "prog",
                                          .summary = "does things",
                                          .synopsis = {"[FLAGS]"},
                                          .description = {"One.", "Two."},
                                          .version = "1.2.3",
                                          .sections = {{"See also", {"other(1)"}}}},
                                         specs, "PROG_");
  EXPECT_EQ(page.rfind(".TH PROG 1 \"\" \"prog 1.2.3\" \"User Commands\"\n", 0), 0u) << page;
  EXPECT_NE(page.find(".SH NAME\nprog \\- does things\n"), std::string::npos) << page;
  EXPECT_NE(page.find(".TP\n\\fB\\-\\-ovsdb.timeout\\fR=\\fIVALUE\\fR\nDeadline, e.g. 2s.\n.br\n"
                      "Environment: \\fBPROG_OVSDB_TIMEOUT\\fR. Default: 2s. Formerly "
                      "\\fB\\-\\-timeout\\fR, still accepted.\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("\\&.starts with a dot \\e and a backslash\n.br\nEnvironment: "
                      "\\fBPROG_WEB_LISTEN_ADDRESS\\fR (entries separated by ';')."),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("One.\n.PP\nTwo.\n"), std::string::npos) << page;
  EXPECT_NE(page.find(".SH SEE ALSO\nother(1)\n"), std::string::npos) << page;
  EXPECT_NE(page.find("\\fB\\-\\-version\\fR"), std::string::npos);
}

TEST(ManPageTest, ExitStatusEnvironmentSignalsAndSwitches) {
  const std::vector<FlagSpec> specs = {{.name = "a.switch", .help = "On.", .boolean = true}};
  const std::string page = RenderManPage({.program = "prog",
                                          .summary = "s",
                                          .synopsis = {},
                                          .description = {},
                                          .version = "1",
                                          .exit_statuses = {{"0", "Fine."}, {"2", "Bad flags."}},
                                          .environment = {{"OVN_DBDIR", "Where files are."}},
                                          .signals = {{"SIGHUP", "Reloads."}}},
                                         specs, "PROG_");
  EXPECT_NE(page.find(".TP\n\\fB\\-\\-a.switch\\fR\nOn.\n"), std::string::npos) << page;
  const auto exit =
      page.find(".SH \"EXIT STATUS\"\n.TP\n\\fB0\\fR\nFine.\n.TP\n\\fB2\\fR\nBad flags.\n");
  const auto env = page.find(".TP\n\\fBOVN_DBDIR\\fR\nWhere files are.\n");
  const auto sig = page.find(".SH SIGNALS\n.TP\n\\fBSIGHUP\\fR\nReloads.\n");
  ASSERT_NE(exit, std::string::npos) << page;
  ASSERT_NE(env, std::string::npos) << page;
  ASSERT_NE(sig, std::string::npos) << page;
  EXPECT_LT(exit, page.find(".SH ENVIRONMENT"));
  EXPECT_LT(page.find(".SH ENVIRONMENT"), env);
  EXPECT_LT(env, sig);
  // --help prints the same entries.
  EXPECT_EQ(EntriesUsage("Signals", {{"SIGHUP", "Reloads."}}),
            "\nSignals:\n  SIGHUP\n      Reloads.\n");
  EXPECT_EQ(RenderManPage(
                {.program = "p", .summary = "", .synopsis = {}, .description = {}, .version = ""},
                {}, "P_")
                .find("EXIT STATUS"),
            std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
