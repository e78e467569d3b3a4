#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ovn_raft {

// One row of the _Server database's Database table: ovsdb-server's own summary of a database.
struct ServerDatabase {
  std::string name;
  std::string model;                   // standalone | clustered | relay
  bool connected = false;              // clustered: in contact with a majority of the cluster
  bool leader = false;                 // clustered: this server is the leader
  std::optional<std::string> cid;      // full cluster UUID; absent while joining or standalone
  std::optional<std::string> sid;      // full server UUID; absent while joining or standalone
  std::optional<std::uint64_t> index;  // last applied log index; absent while joining
};

}  // namespace ovn_raft
