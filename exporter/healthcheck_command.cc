#include "healthcheck_command.h"

#include <curl/curl.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "config.h"

namespace ovn_raft {
namespace {

size_t Discard(char*, size_t size, size_t n, void*) { return size * n; }

std::string DefaultUrl() {
  const auto config = ParseConfig({}, [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  });
  std::string address = config.config ? config.config->listen_address : ":10476";
  if (address.front() == ':' || address.rfind("0.0.0.0:", 0) == 0) {
    address = "127.0.0.1" + address.substr(address.find(':'));
  }
  return "http://" + address + "/healthz";
}

}  // namespace

int HealthcheckCommand(int argc, char** argv) {
  const std::string url = argc >= 1 ? argv[0] : DefaultUrl();
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL* curl = curl_easy_init();
  if (!curl) return 1;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 3000L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Discard);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  if (rc != CURLE_OK || status != 200) {
    std::cerr << "healthcheck: " << url << ": "
              << (rc != CURLE_OK ? curl_easy_strerror(rc) : "HTTP " + std::to_string(status))
              << "\n";
    return 1;
  }
  return 0;
}

}  // namespace ovn_raft
