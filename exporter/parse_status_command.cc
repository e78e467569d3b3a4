#include "exporter/parse_status_command.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "parsers/cluster_status_parser.h"
#include "parsers/status_json.h"

namespace ovn_raft {

int ParseStatusCommand(int argc, char** argv) {
  if (argc > 1) {
    std::cerr << "usage: ovn-raft-exporter parse-status [FILE|-]\n";
    return 2;
  }
  const std::string path = argc == 1 ? argv[0] : "-";
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "parse-status: cannot read " << path << "\n";
      return 2;
    }
    text << in.rdbuf();
  }
  const ClusterStatus status = ParseClusterStatus(text.str());
  std::cout << ClusterStatusToJson(status) << "\n";
  for (const auto& w : status.warnings) {
    std::cerr << "parse-status: line " << w.line << ": " << w.reason << ": " << w.text << "\n";
  }
  return status.warnings.empty() ? 0 : 1;
}

}  // namespace ovn_raft
