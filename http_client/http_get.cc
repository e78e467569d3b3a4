#include "http_client/http_get.h"

#include <curl/curl.h>

#include <chrono>

namespace ovn_raft {
namespace {

struct Sink {
  std::string* body;
  std::size_t max_bytes;  // 0: no limit
  bool overflowed = false;
};

// Returning less than was given makes libcurl end the transfer (CURLE_WRITE_ERROR): an endless
// or huge body stops at the bound instead of filling memory.
size_t Append(char* data, size_t size, size_t n, void* out) {
  auto* sink = static_cast<Sink*>(out);
  const std::size_t bytes = size * n;
  if (sink->max_bytes > 0 && bytes > sink->max_bytes - sink->body->size()) {
    sink->overflowed = true;
    return 0;
  }
  sink->body->append(data, bytes);
  return bytes;
}

}  // namespace

HttpClient::HttpClient() : curl_(curl_easy_init()) {}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

HttpGetResult HttpClient::Get(const std::string& url, const HttpGetOptions& options) {
  HttpGetResult r;
  CURL* curl = static_cast<CURL*>(curl_);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  // An exporter speaks HTTP: a file://, ftp:// or any other URL libcurl knows is refused with
  // its reason, never fetched, and no redirect leads elsewhere either.
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Append);
  Sink sink{&r.body, options.max_body_bytes};
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_USERPWD,
                   options.user_password.empty() ? nullptr : options.user_password.c_str());
  // Set only when given: a null CA file would take the system's bundle away.
  if (!options.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options.ca_file.c_str());
  if (!options.cert_file.empty()) {
    curl_easy_setopt(curl, CURLOPT_SSLCERT, options.cert_file.c_str());
  }
  if (!options.key_file.empty()) curl_easy_setopt(curl, CURLOPT_SSLKEY, options.key_file.c_str());
  curl_easy_setopt(curl, CURLOPT_FRESH_CONNECT, options.fresh_connection ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, options.fresh_connection ? 1L : 0L);
  char detail[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, detail);
  const auto start = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(curl);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rc == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
  } else if (sink.overflowed) {
    r.body.clear();
    r.error = "the response body exceeds " + std::to_string(options.max_body_bytes) + " bytes";
  } else {
    // The detail names the certificate or the host that failed, never the URL's userinfo.
    r.error = curl_easy_strerror(rc);
    if (detail[0] != '\0' && r.error != detail) r.error += std::string(": ") + detail;
  }
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  return r;
}

HttpGetResult HttpGet(const std::string& url, const HttpGetOptions& options) {
  return HttpClient().Get(url, options);
}

std::string UrlEscape(std::string_view value) {
  CURL* curl = curl_easy_init();
  char* escaped = curl_easy_escape(curl, value.data(), static_cast<int>(value.size()));
  std::string out = escaped ? escaped : "";
  curl_free(escaped);
  curl_easy_cleanup(curl);
  return out;
}

}  // namespace ovn_raft
