#pragma once

// A request as the routes see it and the page they answer with: what passes between the web
// edge and an exporter's handlers.

#include <string>
#include <utility>
#include <vector>

namespace ovn_raft {

struct HttpRequest {
  std::string method;
  std::string path;
  std::string authorization;    // Authorization header, "" when absent
  std::string scrape_timeout;   // X-Prometheus-Scrape-Timeout-Seconds, "" when absent
  std::string accept_encoding;  // Accept-Encoding, "" when absent
  std::string source;           // the client's address
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

}  // namespace ovn_raft
