#pragma once

// A document's flag table (the exporter's in docs/flags.md, the report's in docs/report.md)
// against a program's flag table: every flag, its variable and its default, and no flag that
// does not exist.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/strings.h"
#include "cli/flag_table.h"
#include "support/test_paths.h"

namespace ovn_raft::testing {

struct Row {
  std::string variable, default_text;
};

inline std::string Unquoted(const std::string& cell) {
  std::string out;
  for (char c : cell) {
    if (c != '`') out += c;
  }
  return std::string(Trim(out));
}

// The rows of the table under `heading` of `document` (relative to the source tree) whose first
// cell is a flag: name -> (variable, default).
inline std::map<std::string, Row> ReadmeFlags(const std::string& document,
                                              const std::string& heading) {
  std::ifstream in(SourceDir() + "/" + document);
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

inline void ExpectSameFlags(const std::string& document, const std::string& heading,
                            const std::vector<FlagSpec>& flags, const std::string& prefix) {
  ASSERT_TRUE(std::ifstream(SourceDir() + "/" + document).good()) << "cannot read " << document;
  auto rows = ReadmeFlags(document, heading);
  ASSERT_FALSE(rows.empty()) << "no flag table under " << heading << " in " << document;
  for (const auto& f : flags) {
    const auto it = rows.find(f.name);
    if (it == rows.end()) {
      ADD_FAILURE() << "--" << f.name << " is not in " << document << " under " << heading;
      continue;
    }
    EXPECT_EQ(it->second.variable, EnvName(prefix, f.name)) << f.name;
    EXPECT_EQ(it->second.default_text, f.default_text) << f.name;
    EXPECT_FALSE(f.default_text.empty()) << f.name << ": say what it defaults to";
    rows.erase(it);
  }
  for (const auto& [name, row] : rows)
    ADD_FAILURE() << document << " documents --" << name << ", no such flag";
}

}  // namespace ovn_raft::testing
