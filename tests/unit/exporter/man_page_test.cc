#include <gtest/gtest.h>

#include <string>

#include "exporter/config.h"
#include "reader/socket_discovery.h"

namespace ovn_raft {
namespace {

// The exporter's page and --help: the same exit statuses, signals, variables and search order,
// the directories from the lists the discovery itself uses.
TEST(ExporterManPageTest, TheExportersPageAndHelpShareTheirTables) {
  const std::string page = ConfigManPage();
  const std::string help = ConfigUsage();
  for (const std::string want : {"SIGHUP", "SIGTERM", "OVN_RUNDIR", "OVN_DBDIR", "LISTEN_FDS",
                                 "INVOCATION_ID", "systemctl reload"}) {
    EXPECT_NE(page.find(want), std::string::npos) << want;
    EXPECT_NE(help.find(want), std::string::npos) << want;
  }
  EXPECT_NE(page.find(".SH \"EXIT STATUS\"\n.TP\n\\fB0\\fR\n"), std::string::npos);
  EXPECT_NE(help.find("Exit status:\n  0\n"), std::string::npos) << help;
  for (const auto& dir : UsualRunDirs()) {
    EXPECT_NE(help.find(dir), std::string::npos) << dir;
  }
  for (const auto& dir : UsualDbDirs()) {
    EXPECT_NE(help.find(dir), std::string::npos) << dir;
  }
  EXPECT_NE(page.find("each .ctl and .sock) are looked for once"), std::string::npos) << page;
  EXPECT_NE(page.find("\\fB\\-\\-web.systemd\\-socket\\fR\n"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
