#include "report_command.h"

int main(int argc, char** argv) { return ovn_raft::ReportCommand(argc - 1, argv + 1); }
