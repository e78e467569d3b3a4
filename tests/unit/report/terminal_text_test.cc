#include "report/terminal_text.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "report/advised_command.h"

namespace ovn_raft {
namespace {

TEST(TerminalTextTest, EveryControlCharacterIsWrittenOut) {
  EXPECT_EQ(TerminalText("tcp:10.0.0.1:6643"), "tcp:10.0.0.1:6643");
  EXPECT_EQ(TerminalText("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(TerminalText("a\x1b]0;x\x07"), "a\\x1b]0;x\\x07");
  EXPECT_EQ(TerminalText("a\r\n\tb\x7f"), "a\\x0d\\x0a\\x09b\\x7f");
  EXPECT_EQ(TerminalText("\xC2\x9B"
                         "2J"),
            "\\u009b2J");  // C1 CSI
  EXPECT_EQ(TerminalText("\xE2\x80\xAE"
                         "abc"),
            "\\u202eabc");                          // right-to-left override
  EXPECT_EQ(TerminalText("\\x1b"), "\\\\x1b");      // reads back unambiguously
  EXPECT_EQ(TerminalText("\xFF"), "\xEF\xBF\xBD");  // not UTF-8
}

TEST(TerminalTextTest, AReportIsMadeSafeWhole) {
  MemberReport r;
  r.server_id = "a\x1b";
  r.view["b\x07"] = "tcp:\x1b[2J";
  r.established.insert("c\r");
  r.heard_ms_ago["d\x9b"] = 1;
  r.expected.hosts = {"10.0.0.1", "10.0.0.2\x1b[2J"};
  MakeTerminalSafe(r);
  EXPECT_EQ(r.server_id, "a\\x1b");
  EXPECT_EQ(r.view.at("b\\x07"), "tcp:\\x1b[2J");
  EXPECT_EQ(r.established.count("c\\x0d"), 1u);
  EXPECT_EQ(r.heard_ms_ago.size(), 1u);
  EXPECT_EQ(r.expected.hosts, (std::vector<std::string>{"10.0.0.1", "10.0.0.2\\x1b[2J"}));
}

TEST(AdvisedCommandTest, PrintedOnlyWhenEveryPartIsWhatItShouldBe) {
  EXPECT_EQ(KickCommand("/var/run/ovn/ovnnb_db.ctl", "OVN_Northbound", "68ff").value(),
            "ovs-appctl -t /var/run/ovn/ovnnb_db.ctl cluster/kick OVN_Northbound 68ff");
  EXPECT_EQ(
      KickCommand("/run/ovn/ovnsb_db.ctl", "OVN_Southbound", "63559766-e4f9-4f00-a9d6-5b4f41b9af04")
          .value(),
      "ovs-appctl -t /run/ovn/ovnsb_db.ctl cluster/kick OVN_Southbound "
      "63559766-e4f9-4f00-a9d6-5b4f41b9af04");
  // Shell text in the path: one single-quoted word.
  EXPECT_EQ(KickCommand("/run/a b; curl x | sh #'", "OVN_Northbound", "68ff").value(),
            "ovs-appctl -t '/run/a b; curl x | sh #'\\''' cluster/kick OVN_Northbound 68ff");
  for (const auto& [ctl, db, id] : std::vector<std::array<std::string, 3>>{
           {"/run/x.ctl", "OVN_Northbound", "68ff $(touch x)"},
           {"/run/x.ctl", "OVN_Northbound", "68fg"},
           {"/run/x.ctl", "OVN_Northbound", ""},
           {"/run/x.ctl", "OVN_Northbound;reboot", "68ff"},
           {"/run/x.ctl", "Other", "68ff"},
           {"relative.ctl", "OVN_Northbound", "68ff"},
           {"-t/x", "OVN_Northbound", "68ff"},
           {"/run/x\\x1b.ctl", "OVN_Northbound", "68ff"},
           {"/run/x\n.ctl", "OVN_Northbound", "68ff"},
           {"/run/caf\xC3\xA9.ctl", "OVN_Northbound", "68ff"},
       }) {
    const auto kick = KickCommand(ctl, db, id);
    EXPECT_FALSE(kick.ok()) << ctl << " " << db << " " << id;
    if (!kick.ok()) {
      EXPECT_FALSE(kick.error().empty());
    }
  }
}

}  // namespace
}  // namespace ovn_raft
