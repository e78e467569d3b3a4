#include "report/report_command.h"

int main(int argc, char** argv) {
  return ovn_raft::ReportCommand(std::vector<std::string>(argv + 1, argv + argc),
                                 &ovn_raft::ProcessEnv);
}
