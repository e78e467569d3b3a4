#pragma once

// A member's report as the report decodes it, from a captured cluster/status (tests/fixtures)
// put into a /status document the way the exporter serves it.

#include <gtest/gtest.h>

#include <string>

#include "consensus/member_report.h"
#include "parsers/cluster_status_parser.h"
#include "parsers/status_json.h"
#include "support/fixtures.h"

namespace ovn_raft::testing {

// The /status of one exporter reading `cluster_status` (the text of cluster/status) for
// OVN_Northbound at `taken_at`, decoded as read from `url`.
inline MemberReport StatusReport(const std::string& cluster_status, const std::string& url,
                                 double taken_at = 1000) {
  const std::string json = R"({"taken_at":)" + std::to_string(taken_at) +
                           R"(,"databases":[{"name":"OVN_Northbound","up":true,"status":)" +
                           ClusterStatusToJson(ParseClusterStatus(cluster_status), false) + "}]}";
  auto decoded = DecodeStatusJson(json, url);
  EXPECT_TRUE(decoded) << decoded.error();
  if (!decoded || decoded.value().size() != 1) return {};
  return decoded.value()[0];
}

// `text` with every `from` replaced by `to`.
inline std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace ovn_raft::testing
