#pragma once

// What a fake ovsdb-server writes back: JSON-RPC replies that echo the request's id, with the
// text escaped as ovsdb-server escapes it; and a control socket answering by method, for the
// faults a real server cannot be made to produce (a command never answered, a reply it would
// never send).

#include <map>
#include <memory>
#include <set>
#include <string>

#include "support/fake_unix_server.h"

namespace ovn_raft::testing {

// The request's "id" as written ("0" when it has none) and its "method" ("" when none).
std::string RequestId(const std::string& request);
std::string RequestMethod(const std::string& request);

// The reply to `request`: a unixctl command's text, a JSON result (a transact's rows), an error.
std::string ReplyText(const std::string& request, const std::string& text);
std::string ReplyJson(const std::string& request, const std::string& json);
std::string ReplyError(const std::string& request, const std::string& error);

// A control socket that answers each method with its text, never answers the methods in
// `silent` (until it stops), and answers any other method as ovsdb-server answers an unknown
// command.
class FakeOvsdbServer {
 public:
  explicit FakeOvsdbServer(std::map<std::string, std::string> texts,
                           std::set<std::string> silent = {});
  FakeOvsdbServer(const FakeOvsdbServer&) = delete;
  FakeOvsdbServer& operator=(const FakeOvsdbServer&) = delete;

  const std::string& path() const { return server_->path(); }
  int requests(const std::string& method) const { return server_->requests(method); }

 private:
  std::unique_ptr<FakeUnixServer> server_;
};

}  // namespace ovn_raft::testing
