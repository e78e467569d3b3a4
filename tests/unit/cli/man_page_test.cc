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

}  // namespace
}  // namespace ovn_raft
