#pragma once

namespace ovn_raft {

// `ovn-raft-report URL...`: fetches /status from the exporter of every member (URL is
// an exporter's base, e.g. http://10.0.0.1:10476) and prints, per database, what each member
// sees and whether they agree. Exit 0 when every member answered and agrees, 1 otherwise.
int ReportCommand(int argc, char** argv);

}  // namespace ovn_raft
