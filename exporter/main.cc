#include <cstring>
#include <iostream>

#include "parse_status_command.h"

namespace {

void Usage(std::ostream& out) {
  out << "usage: ovn-raft-exporter [FLAGS]            serve metrics\n"
         "       ovn-raft-exporter parse-status [FILE|-] print a saved cluster/status as JSON\n"
         "       ovn-raft-exporter --version\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "parse-status") == 0) {
    return ovn_raft::ParseStatusCommand(argc - 2, argv + 2);
  }
  if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
    std::cout << "ovn-raft-exporter " << OVN_RAFT_VERSION << " (revision " << OVN_RAFT_REVISION
              << ")\n";
    return 0;
  }
  Usage(std::cerr);
  return 2;
}
