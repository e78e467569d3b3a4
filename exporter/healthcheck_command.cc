#include "exporter/healthcheck_command.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/strings.h"
#include "web/web_config.h"

namespace ovn_raft {
namespace {

// The NUL-separated strings of a /proc file (cmdline, environ); empty when unreadable.
std::vector<std::string> ProcStrings(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> out;
  for (std::string s; std::getline(in, s, '\0');) out.push_back(s);
  return out;
}

std::string Exe(const std::string& pid) {
  char buf[4096];
  const ssize_t n = readlink(("/proc/" + pid + "/exe").c_str(), buf, sizeof(buf));
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

// The serving exporter beside this command: PID 1 when it runs this program (a container),
// else the oldest other process that does and is not one of its commands. Its pid, or "".
std::string ServingPid() {
  const std::string self = Exe("self");
  if (self.empty()) return "";
  const auto serving = [&self](const std::string& pid) {
    if (Exe(pid) != self) return false;
    const auto args = ProcStrings("/proc/" + pid + "/cmdline");
    return args.size() < 2 || (args[1] != "healthcheck" && args[1] != "parse-status");
  };
  if (serving("1")) return "1";
  DIR* dir = opendir("/proc");
  if (dir == nullptr) return "";
  std::uint64_t best = 0;
  const auto me = static_cast<std::uint64_t>(getpid());
  while (const dirent* entry = readdir(dir)) {
    const auto pid = ParseUint(entry->d_name);
    if (pid && *pid != me && (best == 0 || *pid < best) && serving(entry->d_name)) best = *pid;
  }
  closedir(dir);
  return best ? std::to_string(best) : "";
}

// The serving exporter's configuration, as it parsed its flags and environment; this
// process' environment alone when there is none to read.
ConfigResult ServingConfig() {
  const std::string pid = ServingPid();
  if (pid.empty()) return ParseConfig({}, &ProcessEnv);
  auto args = ProcStrings("/proc/" + pid + "/cmdline");
  if (!args.empty()) args.erase(args.begin());
  std::map<std::string, std::string> environ;
  for (const auto& entry : ProcStrings("/proc/" + pid + "/environ")) {
    const auto eq = entry.find('=');
    if (eq != std::string::npos) environ[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  // Its environment is not readable by another user: ours is then the nearest, the same
  // container's.
  const bool readable = !environ.empty();
  ConfigResult parsed =
      ParseConfig(args, [&](const std::string& name) -> std::optional<std::string> {
        if (!readable) return ProcessEnv(name);
        const auto it = environ.find(name);
        return it == environ.end() ? std::nullopt : std::optional<std::string>(it->second);
      });
  // A relative web config file is the exporter's, relative to its own directory.
  if (parsed.settings && !parsed.settings->web_config_file.empty() &&
      parsed.settings->web_config_file.front() != '/') {
    parsed.settings->web_config_file = "/proc/" + pid + "/cwd/" + parsed.settings->web_config_file;
  }
  return parsed;
}

// A plain HTTP/1.0 GET to an IP address: the container healthcheck needs no more, and it
// keeps libcurl (and its TLS stack) out of the daemon's memory. An https:// URL is only
// connected to: the server may require a client certificate the check does not have, and a
// port that accepts connections is what liveness means there. Nothing is sent, so no
// certificate needs checking.
int Get(const std::string& url) {
  std::string rest = url;
  const bool tls = rest.rfind("https://", 0) == 0;
  if (!tls && rest.rfind("http://", 0) != 0) {
    std::cerr << "healthcheck: only http:// and https://IP:PORT/PATH URLs are supported\n";
    return 2;
  }
  rest.erase(0, tls ? 8 : 7);
  const auto slash = rest.find('/');
  const std::string hostport = rest.substr(0, slash);
  const std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
  const auto colon = hostport.rfind(':');
  const auto port = static_cast<uint16_t>(
      colon == std::string::npos ? (tls ? 443 : 80) : std::atoi(hostport.c_str() + colon + 1));
  std::string host = hostport.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  sockaddr_storage addr{};
  socklen_t addr_len = 0;
  auto* in = reinterpret_cast<sockaddr_in*>(&addr);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
  if (inet_pton(AF_INET, host.c_str(), &in->sin_addr) == 1) {
    in->sin_family = AF_INET;
    in->sin_port = htons(port);
    addr_len = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, host.c_str(), &in6->sin6_addr) == 1) {
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    addr_len = sizeof(sockaddr_in6);
  } else {
    std::cerr << "healthcheck: not an IP address: " << hostport << "\n";
    return 2;
  }
  const int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval timeout{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  std::string response;
  const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&addr), addr_len) == 0;
  if (tls) {
    const int error = errno;
    close(fd);
    if (connected) return 0;
    std::cerr << "healthcheck: " << url << ": " << std::strerror(error) << "\n";
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

Result<std::string, std::string> HealthcheckUrl(const Config& config, bool tls) {
  if (config.systemd_socket) {
    return Result<std::string, std::string>::Failure(
        "the exporter serves the sockets systemd passes (--web.systemd-socket): give the URL, "
        "e.g. http://127.0.0.1:10476/healthz");
  }
  const ListenAddress& a = config.listen_addresses.front();
  // A wildcard (":PORT", "0.0.0.0:PORT", "[::]:PORT", which takes both families) is asked on
  // IPv4 loopback.
  std::string host = a.host.empty() ? "127.0.0.1" : a.host;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return std::string(tls ? "https://" : "http://") + host + ":" + std::to_string(a.port) +
         "/healthz";
}

int HealthcheckCommand(int argc, char** argv) {
  if (argc >= 1) return Get(argv[0]);
  const ConfigResult parsed = ServingConfig();
  if (!parsed.settings) {
    std::cerr << "healthcheck: the exporter's flags: " << parsed.error.value_or("?") << "\n";
    return 2;
  }
  bool tls = false;
  if (!parsed.settings->web_config_file.empty()) {
    const auto web = LoadWebConfig(parsed.settings->web_config_file);
    // Unreadable here (another user's directory): the port is then only connected to, which
    // tells liveness with TLS or without.
    tls = !web || web.value().tls.has_value();
  }
  const auto url = HealthcheckUrl(*parsed.settings, tls);
  if (!url) {
    std::cerr << "healthcheck: " << url.error() << "\n";
    return 2;
  }
  return Get(url.value());
}

}  // namespace ovn_raft
