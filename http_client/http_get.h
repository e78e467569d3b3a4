#pragma once

// HTTP(S) GET with libcurl: a client that keeps its connection between requests, as a scraper
// does, and a one-shot form.

#include <cstddef>
#include <string>
#include <string_view>

namespace ovn_raft {

struct HttpGetOptions {
  std::string user_password;  // "user:password" for basic auth; empty: none
  long timeout_ms = 10000;
  bool fresh_connection = false;  // a new connection for this request, closed after it
  // The largest body accepted; more ends the transfer with an error saying so. 0: no limit.
  std::size_t max_body_bytes = 0;
  // TLS: the CA bundle that verifies the server (empty: the system's), and the client
  // certificate and its key, PEM files (empty: none).
  std::string ca_file = {};
  std::string cert_file = {};
  std::string key_file = {};
};

struct HttpGetResult {
  long status = 0;  // 0 when no response came
  std::string body;
  std::string error;  // libcurl's reason when status is 0
  double seconds = 0;
};

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpGetResult Get(const std::string& url, const HttpGetOptions& options = {});

 private:
  void* curl_;  // CURL*, kept out of this header
};

HttpGetResult HttpGet(const std::string& url, const HttpGetOptions& options = {});

// Percent-encoding for a query parameter.
std::string UrlEscape(std::string_view value);

}  // namespace ovn_raft
