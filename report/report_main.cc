#include <cstring>
#include <iostream>

#include "report/report_command.h"

int main(int argc, char** argv) {
  // Hidden: the manual page, written by the package build.
  if (argc == 2 && std::strcmp(argv[1], "--help-man") == 0) {
    std::cout << ovn_raft::ReportManPage();
    return 0;
  }
  return ovn_raft::ReportCommand(std::vector<std::string>(argv + 1, argv + argc),
                                 &ovn_raft::ProcessEnv);
}
