// TLS and IPv6 in the exporter itself, against real clients: curl and Prometheus,
// certificates made by the openssl command line. Only in builds with -DOVN_RAFT_CIVETWEB=source.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "raft_cluster.h"
#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/prometheus_client.h"
#include "support/shell.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::RaftCluster;

using testing::Shell;

// A CA, the exporter's certificate for ::1 and 127.0.0.1, a client certificate, one from
// another CA and an expired one, in a temporary directory.
class Certificates {
 public:
  Certificates() {
    char dir[] = "/tmp/ovn-raft-tls.XXXXXX";
    if (mkdtemp(dir) == nullptr) throw std::runtime_error("mkdtemp");
    dir_ = dir;
    Sh("printf '[ca]\\ndefault_ca=d\\n[d]\\ndatabase=index.txt\\nnew_certs_dir=.\\nserial=serial\\n"
       "default_md=sha256\\npolicy=p\\n[p]\\ncommonName=supplied\\n' > ca.cnf && touch index.txt "
       "&& echo 01 > serial");
    Sh("printf 'subjectAltName=IP:::1,IP:127.0.0.1,DNS:localhost\\n' > san.ext");
    Ca("ca");
    Ca("other-ca");
    Issue("server", "exporter", "ca", "-extfile san.ext");
    Issue("client", "prometheus", "ca", "");
    Issue("stranger", "prometheus", "other-ca", "");
    // openssl x509 cannot date a certificate in the past; openssl ca can.
    Key("expired");
    Sh("openssl req -new -key expired.key -out expired.csr -subj /CN=prometheus && openssl ca "
       "-batch -config ca.cnf -cert ca.crt -keyfile ca.key -in expired.csr -out expired.crt "
       "-startdate 20200101000000Z -enddate 20200102000000Z -notext");
  }
  ~Certificates() { Sh("cd / && rm -rf " + dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // A new certificate and key for the server, swapped in the way a Secret volume updates.
  void Rotate(const std::string& common_name) {
    Issue("next", common_name, "ca", "-extfile san.ext");
    Sh("mv next.key server.key && mv next.crt server.crt");
  }
  // A client certificate from ca with the subjectAltName `san` (openssl's syntax).
  void IssueWithSan(const std::string& name, const std::string& san) const {
    std::ofstream(Path(name + ".ext")) << "subjectAltName=" << san << "\n";
    Issue(name, "prometheus", "ca", "-extfile " + name + ".ext");
  }
  std::string WebConfig(const std::string& extra) const {
    const std::string path = Path("web-" + std::to_string(configs_++) + ".yml");
    std::ofstream(path) << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                        << extra;
    return path;
  }

 private:
  void Sh(const std::string& command) const {
    int code = 0;
    const std::string out = Shell("cd " + dir_ + " && " + command, &code);
    if (code != 0) throw std::runtime_error(command + ": " + out);
  }
  void Key(const std::string& name) const {
    Sh("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + name + ".key");
  }
  void Ca(const std::string& name) const {
    Key(name);
    Sh("openssl req -x509 -new -key " + name + ".key -out " + name +
       ".crt -days 2 -subj /CN=" + name);
  }
  void Issue(const std::string& name, const std::string& cn, const std::string& ca,
             const std::string& ext) const {
    Key(name);
    Sh("openssl req -new -key " + name + ".key -out " + name + ".csr -subj /CN=" + cn +
       " && openssl x509 -req -in " + name + ".csr -CA " + ca + ".crt -CAkey " + ca +
       ".key -CAcreateserial -days 2 -out " + name + ".crt " + ext);
  }
  std::string dir_;
  mutable int configs_ = 0;
};

struct CurlResult {
  int exit = -1;     // curl's exit code: 0, or why the connection failed
  std::string code;  // the HTTP status, "000" when there was none
  std::string out;   // -v output
};

// curl to `url` with `args` (certificates, --tls-max, ...).
CurlResult Curl(const std::string& url, const std::string& args) {
  CurlResult r;
  r.out = Shell(
      "curl -sS -v --max-time 10 -o /dev/null -w 'HTTP=%{http_code}\\n' " + args + " '" + url + "'",
      &r.exit);
  const auto at = r.out.rfind("HTTP=");
  r.code = at == std::string::npos ? "" : r.out.substr(at + 5, 3);
  return r;
}

std::string Client(const Certificates& c, const std::string& name) {
  return "--cacert " + c.Path("ca.crt") + " --cert " + c.Path(name + ".crt") + " --key " +
         c.Path(name + ".key");
}

// Ready once the TLS port answers a handshake (any HTTP status).
std::function<bool(int)> TlsReady(const Certificates& c, const std::string& host) {
  return [&c, host](int port) {
    return Curl("https://" + host + ":" + std::to_string(port) + "/healthz", Client(c, "client"))
               .code == "200";
  };
}

// The exporter on [::1]:port, requiring a client certificate from the test CA.
std::unique_ptr<ExporterProcess> RequiringClientCertificatesOnIpv6(const RaftCluster& cluster,
                                                                   const Certificates& c,
                                                                   int port) {
  return std::make_unique<ExporterProcess>(
      std::vector<std::string>{
          "--web.listen-address=[::1]:" + std::to_string(port),
          "--web.config.file=" +
              c.WebConfig(
                  "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"),
          "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb") + "," + cluster.Sock(1, "nb")},
      port, TlsReady(c, "[::1]"));
}

TEST(TlsIntegrationTest, CurlOverTls12And13WithARequiredClientCertificateOnIpv6Loopback) {
  RaftCluster cluster(1);
  Certificates c;
  const int port = testing::FreePort();
  const auto exporter = RequiringClientCertificatesOnIpv6(cluster, c, port);
  const std::string url = "https://[::1]:" + std::to_string(port) + "/metrics";
  const auto v13 = Curl(url, Client(c, "client") + " --tlsv1.3");
  EXPECT_EQ(v13.code, "200") << v13.out;
  EXPECT_NE(v13.out.find("SSL connection using TLSv1.3"), std::string::npos) << v13.out;
  const auto v12 = Curl(url, Client(c, "client") + " --tlsv1.2 --tls-max 1.2");
  EXPECT_EQ(v12.code, "200") << v12.out;
  EXPECT_NE(v12.out.find("SSL connection using TLSv1.2"), std::string::npos) << v12.out;
  // No certificate, one from another CA, an expired one: no page, the handshake fails.
  for (const std::string& args :
       {"--cacert " + c.Path("ca.crt"), Client(c, "stranger"), Client(c, "expired")}) {
    const auto refused = Curl(url, args);
    EXPECT_NE(refused.exit, 0) << args << "\n" << refused.out;
    EXPECT_NE(refused.code, "200") << args;
  }
  // Plain HTTP to the TLS port is no way around it.
  EXPECT_NE(Curl("http://[::1]:" + std::to_string(port) + "/metrics", "").code, "200");
  // The exporter still serves after the refusals.
  EXPECT_EQ(Curl(url, Client(c, "client")).code, "200");
}

// Clients that cache TLS sessions (curl, Python, Java, probes) resume them on the next
// connection; with client certificates on, each resumption must succeed, not end in an alert.
TEST(TlsIntegrationTest, SessionsResumeWithClientCertificates) {
  RaftCluster cluster(1);
  Certificates c;
  const int port = testing::FreePort();
  ExporterProcess e(
      {"--web.listen-address=127.0.0.1:" + std::to_string(port),
       "--web.config.file=" +
           c.WebConfig(
               "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"),
       "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb") + "," + cluster.Sock(1, "nb")},
      port, TlsReady(c, "127.0.0.1"));
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/metrics";
  std::string urls;
  for (int i = 0; i < 20; ++i) urls += " -o /dev/null '" + url + "'";
  for (const std::string version : {"1.2", "1.3"}) {
    // One curl, 20 fetches of the same URL: a new connection each (Connection: close), each
    // resuming the session curl cached.
    const std::string out = Shell("curl -sS --max-time 30 -w '%{http_code}\\n' --tlsv" + version +
                                  " --tls-max " + version + " " + Client(c, "client") + urls);
    int ok = 0;
    for (std::size_t at = 0; (at = out.find("200\n", at)) != std::string::npos; at += 4) ++ok;
    EXPECT_EQ(ok, 20) << "TLS " << version << ":\n" << out;
  }
  // openssl s_client: a saved session, resumed by a second connection.
  const std::string sessions = c.Path("session");
  const std::string connect =
      "printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' | openssl s_client "
      "-connect 127.0.0.1:" +
      std::to_string(port) + " -CAfile " + c.Path("ca.crt") + " -cert " + c.Path("client.crt") +
      " -key " + c.Path("client.key") + " -ign_eof ";
  for (const std::string version : {"-tls1_2", "-tls1_3"}) {
    const std::string first = Shell(connect + version + " -sess_out " + sessions);
    EXPECT_NE(first.find("HTTP/1.1 200"), std::string::npos) << version << "\n" << first;
    const std::string second = Shell(connect + version + " -sess_in " + sessions);
    EXPECT_NE(second.find("Reused, TLSv1."), std::string::npos) << version << "\n" << second;
    EXPECT_NE(second.find("HTTP/1.1 200"), std::string::npos) << version << "\n" << second;
  }
}

// On a dual-stack [::]:PORT listener IPv4 clients arrive as ::ffff:a.b.c.d; IPv4 entries of
// --web.allowed-sources must still admit them, and only them.
TEST(TlsIntegrationTest, AllowedIpv4SourcesOnADualStackListener) {
  RaftCluster cluster(1);
  const int port = testing::FreePort();
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  const auto code = [&](const std::string& source) {
    return Curl(url, "--interface " + source).code;
  };
  ExporterProcess e(
      {"--web.listen-address=[::]:" + std::to_string(port), "--web.allowed-sources=127.0.0.0/30",
       "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb") + "," + cluster.Sock(1, "nb")},
      port, [&](int) { return code("127.0.0.2") == "200"; });
  EXPECT_EQ(code("127.0.0.2"), "200");
  EXPECT_EQ(code("127.0.0.1"), "200");
  EXPECT_NE(code("127.0.0.9"), "200");
  EXPECT_NE(code("127.0.0.4"), "200");
}

TEST(TlsIntegrationTest, VersionsAndCipherSuitesAsConfigured) {
  RaftCluster cluster(1);
  Certificates c;
  const int port = testing::FreePort();
  ExporterProcess e({"--web.listen-address=127.0.0.1:" + std::to_string(port),
                     "--web.config.file=" + c.WebConfig("  min_version: TLS13\n"),
                     "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb")},
                    port, TlsReady(c, "127.0.0.1"));
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/healthz";
  EXPECT_EQ(Curl(url, "--cacert " + c.Path("ca.crt") + " --tlsv1.3").code, "200");
  EXPECT_NE(Curl(url, "--cacert " + c.Path("ca.crt") + " --tlsv1.2 --tls-max 1.2").exit, 0);
  // The container HEALTHCHECK: an https:// URL is connected to, without a certificate.
  int healthy = -1;
  Shell(testing::ExporterBinary() + " healthcheck https://127.0.0.1:" + std::to_string(port) + "/",
        &healthy);
  EXPECT_EQ(healthy, 0);
  e.Terminate();

  const int port2 = testing::FreePort();
  ExporterProcess e2(
      {"--web.listen-address=127.0.0.1:" + std::to_string(port2),
       "--web.config.file=" + c.WebConfig("  max_version: TLS12\n  cipher_suites: "
                                          "[TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384]\n"),
       "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb")},
      port2, TlsReady(c, "127.0.0.1"));
  const std::string url2 = "https://127.0.0.1:" + std::to_string(port2) + "/healthz";
  const auto ok = Curl(url2, "--cacert " + c.Path("ca.crt"));
  EXPECT_EQ(ok.code, "200");
  EXPECT_NE(ok.out.find("ECDHE-ECDSA-AES256-GCM-SHA384"), std::string::npos) << ok.out;
  EXPECT_NE(
      Curl(url2, "--cacert " + c.Path("ca.crt") + " --ciphers ECDHE-ECDSA-AES128-GCM-SHA256").exit,
      0);
}

TEST(TlsIntegrationTest, BasicAuthOverTls) {
  RaftCluster cluster(1);
  Certificates c;
  const int port = testing::FreePort();
  // prom:secret at bcrypt cost 5.
  ExporterProcess e(
      {"--web.listen-address=127.0.0.1:" + std::to_string(port),
       "--web.config.file=" +
           c.WebConfig("basic_auth_users:\n  prom: "
                       "$2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG\n"),
       "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb")},
      port, TlsReady(c, "127.0.0.1"));
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/metrics";
  const std::string ca = "--cacert " + c.Path("ca.crt");
  EXPECT_EQ(Curl(url, ca + " -u prom:secret").code, "200");
  EXPECT_EQ(Curl(url, ca + " -u prom:wrong").code, "401");
  EXPECT_EQ(Curl(url, ca).code, "401");
}

TEST(TlsIntegrationTest, ARenewedCertificateIsServedWithoutARestart) {
  RaftCluster cluster(1);
  Certificates c;
  const int port = testing::FreePort();
  ExporterProcess e({"--web.listen-address=127.0.0.1:" + std::to_string(port),
                     "--web.config.file=" + c.WebConfig(""),
                     "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb")},
                    port, TlsReady(c, "127.0.0.1"));
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/healthz";
  const std::string ca = "--cacert " + c.Path("ca.crt");
  EXPECT_NE(Curl(url, ca).out.find("CN=exporter"), std::string::npos);
  c.Rotate("exporter-renewed");
  EXPECT_TRUE(testing::Eventually(
      [&] { return Curl(url, ca).out.find("CN=exporter-renewed") != std::string::npos; }, 5));
  // A key that does not match its certificate (a rotation half done) keeps the last good pair.
  std::ofstream(c.Path("server.key")) << "not a key\n";
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  const auto still = Curl(url, ca);
  EXPECT_EQ(still.code, "200");
  EXPECT_NE(still.out.find("CN=exporter-renewed"), std::string::npos);
  std::ifstream log(e.log_path());
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("TLS certificate not reloaded; the last good one stays"), std::string::npos);
}

TEST(TlsIntegrationTest, AnExpiredCertificateIsServedButSaid) {
  Certificates c;
  const int port = testing::FreePort();
  const std::string web = c.Path("expired.yml");
  std::ofstream(web) << "tls_server_config:\n  cert_file: expired.crt\n  key_file: expired.key\n";
  ExporterProcess e(
      {"--web.listen-address=127.0.0.1:" + std::to_string(port), "--web.config.file=" + web,
       "--ovsdb.database=OVN_Northbound=/nonexistent"},
      port, [](int q) {
        return Curl("https://127.0.0.1:" + std::to_string(q) + "/healthz", "-k").code == "200";
      });
  const auto verified = Curl("https://127.0.0.1:" + std::to_string(port) + "/healthz",
                             "--cacert " + c.Path("ca.crt"));
  EXPECT_EQ(verified.exit, 60) << verified.out;  // curl: peer certificate cannot be authenticated
  EXPECT_NE(verified.out.find("expired"), std::string::npos) << verified.out;
  std::ifstream log(e.log_path());
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("TLS certificate has expired"), std::string::npos) << text;
}

TEST(TlsIntegrationTest, ListensOnSeveralAddressesOfBothFamilies) {
  RaftCluster cluster(1);
  const int port = testing::FreePort();
  const std::string p = std::to_string(port);
  ExporterProcess e({"--web.listen-address=127.0.0.1:" + p, "--web.listen-address=[::1]:" + p,
                     "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb")},
                    port, [](int q) {
                      return Curl("http://[::1]:" + std::to_string(q) + "/healthz", "").code ==
                             "200";
                    });
  EXPECT_EQ(Curl("http://127.0.0.1:" + p + "/healthz", "").code, "200");
  EXPECT_EQ(Curl("http://[::1]:" + p + "/healthz", "").code, "200");
  e.Terminate();
  // [::] takes both families on one socket.
  const int port2 = testing::FreePort();
  ExporterProcess dual({"--web.listen-address=[::]:" + std::to_string(port2),
                        "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb")},
                       port2, [](int q) {
                         return Curl("http://[::1]:" + std::to_string(q) + "/healthz", "").code ==
                                "200";
                       });
  EXPECT_EQ(Curl("http://127.0.0.1:" + std::to_string(port2) + "/healthz", "").code, "200");
}

// The end that matters: Prometheus itself scrapes the exporter over TLS with a client certificate
// on
// [::1].
TEST(TlsIntegrationTest, PrometheusScrapesOverTlsWithAClientCertificateOnIpv6) {
  RaftCluster cluster(3);
  Certificates c;
  const int port = testing::FreePort();
  const auto exporter = RequiringClientCertificatesOnIpv6(cluster, c, port);
  const int prometheus_port = testing::FreePort();
  const std::string config = c.Path("prometheus.yml");
  std::ofstream(config) << "global:\n  scrape_interval: 1s\nscrape_configs:\n"
                        << "  - job_name: tls\n    scheme: https\n    tls_config:\n"
                        << "      ca_file: " << c.Path("ca.crt")
                        << "\n      cert_file: " << c.Path("client.crt")
                        << "\n      key_file: " << c.Path("client.key")
                        << "\n    static_configs:\n      - targets: ['[::1]:" << port << "']\n"
                        << "  - job_name: no-client-cert\n    scheme: https\n    tls_config:\n"
                        << "      ca_file: " << c.Path("ca.crt") << "\n    static_configs:\n"
                        << "      - targets: ['[::1]:" << port << "']\n";
  const pid_t prometheus = fork();
  if (prometheus == 0) {
    const std::string log = c.Path("prometheus.log");
    freopen(log.c_str(), "w", stderr);
    execl("/usr/bin/prometheus", "prometheus", ("--config.file=" + config).c_str(),
          ("--storage.tsdb.path=" + c.Path("data")).c_str(),
          ("--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port)).c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto value = [&](const std::string& query) {
    const auto samples = testing::PolledQuery(prometheus_port, query);
    return samples.empty() ? -1.0 : samples[0].value;
  };
  EXPECT_TRUE(testing::Eventually([&] { return value("up{job=\"tls\"}") == 1.0; }, 30));
  EXPECT_TRUE(testing::Eventually(
      [&] { return value("ovn_raft_up{job=\"tls\",db=\"OVN_Northbound\"}") == 1.0; }, 10));
  // Its first scrape may come later than the other job's.
  EXPECT_TRUE(testing::Eventually([&] { return value("up{job=\"no-client-cert\"}") == 0.0; }, 10));
  std::printf(
      "[ tls ] Prometheus over TLS with a client certificate on [::1]:%d: up %g; "
      "without a certificate: up %g\n",
      port, value("up{job=\"tls\"}"), value("up{job=\"no-client-cert\"}"));
  kill(prometheus, SIGTERM);
  waitpid(prometheus, nullptr, 0);
}

// client_allowed_sans: of certificates from the trusted CA, only those with an allowed DNS, IP,
// e-mail or URI SAN get in, IPv6 compared as Go spells it; and http_server_config.headers on
// every response, replaced when the file changes.
TEST(TlsIntegrationTest, AllowedSansAndConfiguredHeaders) {
  Certificates c;
  c.IssueWithSan("by-dns", "DNS:prometheus.monitoring.svc");
  c.IssueWithSan("by-ip", "IP:fd00:0:0:0:0:0:0:7");
  c.IssueWithSan("by-uri", "URI:spiffe://cluster.local/ns/monitoring/sa/prometheus");
  c.IssueWithSan("by-email", "email:ops@example.org");
  c.IssueWithSan("elsewhere", "DNS:grafana.monitoring.svc,IP:fd00::8,email:dev@example.org");
  const std::string web = c.WebConfig(
      "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"
      "  client_allowed_sans:\n    - prometheus.monitoring.svc\n    - fd00::7\n"
      "    - spiffe://cluster.local/ns/monitoring/sa/prometheus\n    - ops@example.org\n"
      "http_server_config:\n  headers:\n    X-Frame-Options: deny\n"
      "    Content-Security-Policy: default-src 'none'\n");
  const int port = testing::FreePort();
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/healthz";
  ExporterProcess e({"--web.listen-address=127.0.0.1:" + std::to_string(port),
                     "--web.config.file=" + web, "--ovsdb.database=OVN_Northbound=/nonexistent"},
                    port, [&](int) { return Curl(url, Client(c, "by-dns")).code == "200"; });
  for (const std::string name : {"by-dns", "by-ip", "by-uri", "by-email"}) {
    const auto r = Curl(url, Client(c, name) + " --tlsv1.2 --tls-max 1.2");
    EXPECT_EQ(r.code, "200") << name << "\n" << r.out;
    EXPECT_EQ(Curl(url, Client(c, name) + " --tlsv1.3").code, "200") << name;
  }
  // Trusted, but without an allowed SAN (or with none at all): the handshake fails.
  for (const std::string name : {"elsewhere", "client"}) {
    for (const std::string version : {"--tlsv1.2 --tls-max 1.2", "--tlsv1.3"}) {
      const auto r = Curl(url, Client(c, name) + " " + version);
      EXPECT_NE(r.code, "200") << name << " " << version << "\n" << r.out;
    }
  }
  const auto page = Curl(url, Client(c, "by-dns") + " -D -");
  EXPECT_NE(page.out.find("X-Frame-Options: deny\r\n"), std::string::npos) << page.out;
  EXPECT_NE(page.out.find("Content-Security-Policy: default-src 'none'\r\n"), std::string::npos)
      << page.out;
  std::printf(
      "[ tls ] client_allowed_sans: DNS, IP, URI and e-mail SANs admitted, others "
      "refused; headers on /healthz\n");
  // A reload of the file replaces the headers (the file is looked at on requests past
  // /healthz, as for basic auth).
  const std::string landing = "https://127.0.0.1:" + std::to_string(port) + "/";
  std::ofstream(web + ".new") << "tls_server_config:\n  cert_file: server.crt\n  key_file: "
                                 "server.key\n  client_auth_type: RequireAndVerifyClientCert\n"
                                 "  client_ca_file: ca.crt\n  client_allowed_sans: "
                                 "[prometheus.monitoring.svc]\nhttp_server_config:\n  headers:\n"
                                 "    X-Content-Type-Options: nosniff\n";
  std::rename((web + ".new").c_str(), web.c_str());
  EXPECT_TRUE(testing::Eventually(
      [&] {
        const auto r = Curl(landing, Client(c, "by-dns") + " -D -");
        return r.out.find("X-Content-Type-Options: nosniff") != std::string::npos &&
               r.out.find("X-Frame-Options") == std::string::npos;
      },
      10));
  // ... and the reloaded list of SANs applies to the next handshake.
  EXPECT_TRUE(
      testing::Eventually([&] { return Curl(url, Client(c, "by-email")).code != "200"; }, 10));
  EXPECT_EQ(Curl(url, Client(c, "by-dns")).code, "200");
}

}  // namespace
}  // namespace ovn_raft
