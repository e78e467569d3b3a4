#include "exporter/healthcheck_command.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "exporter/config.h"

namespace ovn_raft {
namespace {

std::string DefaultUrl() {
  const auto parsed = ParseConfig({}, &ProcessEnv);
  std::string address =
      parsed.settings ? parsed.settings->listen_addresses.front().spec : kDefaultListenAddress;
  if (address.front() == ':' || address.rfind("0.0.0.0:", 0) == 0) {
    address = "127.0.0.1" + address.substr(address.find(':'));
  }
  return "http://" + address + "/healthz";
}

// A plain HTTP/1.0 GET to an IPv4 address: the container healthcheck needs no more, and it
// keeps libcurl (and its TLS stack) out of the daemon's memory. An https:// URL is only
// connected to: the server may require a client certificate the check does not have, and a
// port that accepts connections is what liveness means there.
int Get(const std::string& url) {
  std::string rest = url;
  const bool tls = rest.rfind("https://", 0) == 0;
  if (!tls && rest.rfind("http://", 0) != 0) {
    std::cerr << "healthcheck: only http:// and https://IPV4:PORT/PATH URLs are supported\n";
    return 2;
  }
  rest.erase(0, tls ? 8 : 7);
  const auto slash = rest.find('/');
  const std::string hostport = rest.substr(0, slash);
  const std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
  const auto colon = hostport.rfind(':');
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(
      colon == std::string::npos ? 80 : std::atoi(hostport.c_str() + colon + 1)));
  if (inet_pton(AF_INET, hostport.substr(0, colon).c_str(), &addr.sin_addr) != 1) {
    std::cerr << "healthcheck: not an IPv4 address: " << hostport << "\n";
    return 2;
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval timeout{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  std::string response;
  const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  if (tls) {
    close(fd);
    if (connected) return 0;
    std::cerr << "healthcheck: " << url << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  if (connected) {
    const std::string request = "GET " + path + " HTTP/1.0\r\nHost: " + hostport + "\r\n\r\n";
    if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
      char buf[512];
      for (ssize_t n; response.size() < 64 && (n = recv(fd, buf, sizeof(buf), 0)) > 0;) {
        response.append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  close(fd);
  if (response.rfind("HTTP/1.1 200", 0) == 0 || response.rfind("HTTP/1.0 200", 0) == 0) return 0;
  std::cerr << "healthcheck: " << url << ": "
            << (response.empty() ? "no answer" : response.substr(0, response.find('\r'))) << "\n";
  return 1;
}

}  // namespace

int HealthcheckCommand(int argc, char** argv) { return Get(argc >= 1 ? argv[0] : DefaultUrl()); }

}  // namespace ovn_raft
