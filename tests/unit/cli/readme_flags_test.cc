// The README's flag tables say what the programs' flag tables declare: every flag, its
// variable and its default, and no flag that does not exist.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/strings.h"
#include "exporter/config.h"
#include "support/test_paths.h"
#ifdef OVN_RAFT_HAVE_REPORT
#include "report/report_command.h"
#endif

namespace ovn_raft {
namespace {

struct Row {
  std::string variable, default_text;
};

std::string Unquoted(const std::string& cell) {
  std::string out;
  for (char c : cell) {
    if (c != '`') out += c;
  }
  return std::string(Trim(out));
}

// The rows of the table under `heading` whose first cell is a flag: name -> (variable, default).
std::map<std::string, Row> ReadmeFlags(const std::string& heading) {
  std::ifstream in(testing::SourceDir() + "/README.md");
  std::map<std::string, Row> rows;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == heading;
    if (!in_section || line.rfind("| `--", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream cols(line.substr(1));
    for (std::string cell; std::getline(cols, cell, '|');) cells.push_back(Unquoted(cell));
    if (cells.size() < 4) continue;
    std::string name = cells[0].substr(2);
    name = name.substr(0, name.find('='));
    rows[name] = {cells[1].substr(0, cells[1].find(' ')), cells[2]};
  }
  return rows;
}

void ExpectSameFlags(const std::string& heading, const std::vector<FlagSpec>& flags,
                     const std::string& prefix) {
  auto rows = ReadmeFlags(heading);
  ASSERT_FALSE(rows.empty()) << "no flag table under " << heading;
  for (const auto& f : flags) {
    const auto it = rows.find(f.name);
    if (it == rows.end()) {
      ADD_FAILURE() << "--" << f.name << " is not in the README under " << heading;
      continue;
    }
    EXPECT_EQ(it->second.variable, EnvName(prefix, f.name)) << f.name;
    EXPECT_EQ(it->second.default_text, f.default_text) << f.name;
    EXPECT_FALSE(f.default_text.empty()) << f.name << ": say what it defaults to";
    rows.erase(it);
  }
  for (const auto& [name, row] : rows)
    ADD_FAILURE() << "README documents --" << name << ", no such flag";
}

TEST(ReadmeFlags, TheExportersTableIsItsFlagTable) {
  ExpectSameFlags("## Flags", ConfigFlags(), "OVN_RAFT_EXPORTER_");
}

#ifdef OVN_RAFT_HAVE_REPORT
TEST(ReadmeFlags, TheReportsTableIsItsFlagTable) {
  ExpectSameFlags("## ovn-raft-report: the cluster at a glance", ReportFlags(), "OVN_RAFT_REPORT_");
}
#endif

// --help says each default once, from the table.
TEST(ReadmeFlags, HelpShowsTheDefaults) {
  const std::string help = ConfigUsage();
  EXPECT_NE(help.find("(default 2s)"), std::string::npos);
  EXPECT_NE(help.find("(default :10476)"), std::string::npos);
  EXPECT_NE(help.find("(default NB and SB, found at start)"), std::string::npos);
  EXPECT_EQ(help.find("default: unset)"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
