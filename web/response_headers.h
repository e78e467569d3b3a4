#pragma once

// The headers http_server_config.headers adds to every response, as exporter-toolkit sets them
// on every request it serves. Replaced whole by a reload of the web config; thread-safe.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "web/http_message.h"

namespace ovn_raft {

class ResponseHeaders {
 public:
  // Entries with a blank value stay unset, as exporter-toolkit documents.
  void Replace(std::map<std::string, std::string> headers);
  // Adds each configured header `response` does not already carry.
  void AddTo(HttpResponse& response) const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const std::map<std::string, std::string>> headers_;
};

}  // namespace ovn_raft
