#pragma once

namespace ovn_raft {

// `ovn-raft-exporter parse-status [FILE|-]`: parses a saved `cluster/status` text and prints
// it as JSON. Exit 0 when parsed cleanly, 1 when it had warnings, 2 on usage or I/O errors.
int ParseStatusCommand(int argc, char** argv);

}  // namespace ovn_raft
