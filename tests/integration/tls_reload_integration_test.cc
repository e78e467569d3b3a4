// The files the exporter reloads, swapped for what would hang or flood it: a FIFO, a
// 1 GiB sparse file, a 30,000-line cipher list, as certificate, key and web config. Scrapes over
// TLS and plain HTTP keep answering within a second, SIGTERM still stops the process, and the
// last good state holds. Then TLS sessions saved by a client and offered again after the client
// CA was swapped or the client certificate expired: never resumed, where a full handshake is
// refused. Real curl and openssl s_client; a fake ovsdb-server (its replies do not matter here).
// Only in builds with -DOVN_RAFT_CIVETWEB=source.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/eventually.h"
#include "support/exporter_process.h"
#include "support/fake_ovsdb_server.h"
#include "support/fake_unix_server.h"
#include "support/files.h"
#include "support/fixtures.h"
#include "support/shell.h"
#include "support/temp_dir.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::FakeUnixServer;

using testing::ReadFile;
using testing::Shell;

class TlsReloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int code = 0;
    const std::string out = Shell(
        "cd " + dir_ +
            " && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "
            "server.key -out server.crt -days 2 -subj /CN=exporter -addext "
            "subjectAltName=IP:127.0.0.1 && cp server.crt trusted.crt && cp server.key good.key "
            "&& cp server.crt good.crt",
        &code);
    ASSERT_EQ(code, 0) << out;
    WriteWebConfig("");
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  // Written whole, then renamed over the old one (as a Secret update swaps it).
  void WriteWebConfig(const std::string& extra) const {
    std::ofstream(Path("web.yml.new"))
        << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
        << extra;
    std::rename(Path("web.yml.new").c_str(), Path("web.yml").c_str());
  }
  // `name` replaced by a FIFO, a sparse 1 GiB file or a 30,000-line cipher list.
  void Fifo(const std::string& name) const {
    Shell("cd " + dir_ + " && rm -f " + name + " && mkfifo " + name);
  }
  void Sparse(const std::string& name) const {
    Shell("cd " + dir_ + " && rm -f " + name + " && truncate -s 1G " + name);
  }
  void CipherFlood(const std::string& name, bool tls) const {
    std::string text = tls ? "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                           : "basic_auth_users: {}\n";
    text += tls ? "  cipher_suites:\n"
                : "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  "
                  "cipher_suites:\n";
    for (int i = 0; i < 30000; ++i) text += "    - TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256\n";
    std::ofstream(Path(name + ".new")) << text;
    std::rename(Path(name + ".new").c_str(), Path(name).c_str());
  }
  void Restore() const {
    Shell("cd " + dir_ +
          " && rm -f server.crt server.key && cp good.crt server.crt && cp good.key server.key");
    WriteWebConfig("");
  }

  // A TLS scrape, verified against the certificate of the start: "200" within a second.
  std::string TlsScrape(int port, const std::string& extra = "") const {
    return Shell("curl -sS -o /dev/null -w '%{http_code}' --max-time 1 --cacert " +
                 Path("trusted.crt") + " " + extra + " https://127.0.0.1:" + std::to_string(port) +
                 "/metrics");
  }

  const testing::TempDir temp_{"ovn-raft-tlsreload"};
  const std::string dir_ = temp_.path();
};

FakeUnixServer::Handler Leader() {
  return [](int fd, const std::string& request) {
    FakeUnixServer::WriteAll(fd,
                             testing::ReplyText(request, testing::Fixture("ovs-3.1.0/leader.txt")));
  };
}

// Every few hundred milliseconds for `seconds`: each scrape answers 200 within a second.
void ExpectScrapesKeepAnswering(const std::function<std::string()>& scrape, double seconds,
                                const std::string& what) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int n = 0;
  while (std::chrono::steady_clock::now() < end) {
    const auto start = std::chrono::steady_clock::now();
    const std::string code = scrape();
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(code, "200") << what << ", scrape " << n;
    EXPECT_LT(took, 1.0) << what << ", scrape " << n;
    ++n;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

TEST_F(TlsReloadTest, HostileFilesNeitherHangTlsNorReplaceTheLastGoodState) {
  FakeUnixServer ovsdb(Leader());
  const int port = testing::FreePort();
  ExporterProcess e({"--web.listen-address=127.0.0.1:" + std::to_string(port),
                     "--web.config.file=" + Path("web.yml"),
                     "--ovsdb.database=OVN_Northbound=" + ovsdb.path(), "--ovsdb.timeout=2s"},
                    port, [this](int p) { return TlsScrape(p) == "200"; });
  const auto scrape = [&] { return TlsScrape(port); };
  ExpectScrapesKeepAnswering(scrape, 1, "before");
  Fifo("server.crt");
  ExpectScrapesKeepAnswering(scrape, 3, "certificate a FIFO");
  Restore();
  Sparse("server.key");
  ExpectScrapesKeepAnswering(scrape, 3, "key a 1 GiB sparse file");
  Restore();
  Fifo("web.yml");
  ExpectScrapesKeepAnswering(scrape, 3, "web config a FIFO");
  Restore();
  Sparse("web.yml");
  ExpectScrapesKeepAnswering(scrape, 3, "web config a 1 GiB sparse file");
  CipherFlood("web.yml", true);
  ExpectScrapesKeepAnswering(scrape, 3, "web config a 30,000-line cipher list");
  // Left broken: the process still stops at once on SIGTERM.
  Fifo("server.crt");
  Fifo("server.key");
  Fifo("web.yml");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(scrape(), "200");
  const auto stop = std::chrono::steady_clock::now();
  EXPECT_EQ(e.Terminate(5000), 0);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stop).count();
  std::printf("[ figures  ] SIGTERM with every file a FIFO: stopped in %.2f s\n", took);
  const std::string log = ReadFile(e.log_path());
  EXPECT_NE(log.find("is a FIFO, not a regular file"), std::string::npos) << log;
  EXPECT_NE(log.find("is larger than"), std::string::npos) << log;
  // The FIFO, the sparse file and the cipher list (refused by its size, or by its length).
  int refused = 0;
  for (auto at = log.find("web config reload failed"); at != std::string::npos;
       at = log.find("web config reload failed", at + 1)) {
    ++refused;
  }
  EXPECT_GE(refused, 3) << log;
}

TEST_F(TlsReloadTest, PlainHttpScrapesKeepAnsweringWhileTheWebConfigIsHostile) {
  FakeUnixServer ovsdb(Leader());
  std::ofstream(Path("plain.yml")) << "basic_auth_users: {}\n";
  ExporterProcess e({"--web.config.file=" + Path("plain.yml"),
                     "--ovsdb.database=OVN_Northbound=" + ovsdb.path()});
  const auto scrape = [&] { return std::to_string(testing::HttpGet(e.Url(), "", 1000).status); };
  Fifo("plain.yml");
  ExpectScrapesKeepAnswering(scrape, 3, "web config a FIFO");
  Sparse("plain.yml");
  ExpectScrapesKeepAnswering(scrape, 3, "web config a 1 GiB sparse file");
  CipherFlood("plain.yml", false);
  ExpectScrapesKeepAnswering(scrape, 3, "web config a 30,000-line cipher list");
  Fifo("plain.yml");
  EXPECT_EQ(e.Terminate(5000), 0);
}

// A start with no good state refuses with one clear line, at once.
TEST_F(TlsReloadTest, AStartWithAFifoCertificateRefusesWithAClearLine) {
  Fifo("server.crt");
  int code = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::string out =
      Shell("timeout 10 " + testing::ExporterBinary() +
                " --web.listen-address=127.0.0.1:0 --web.config.file=" + Path("web.yml"),
            &code);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("is a FIFO, not a regular file"), std::string::npos) << out;
  EXPECT_LT(took, 5);
}

// A reload that changes tls_server_config applies it: min_version TLS13 refuses TLS 1.2.
TEST_F(TlsReloadTest, AChangedTlsServerConfigIsApplied) {
  FakeUnixServer ovsdb(Leader());
  const int port = testing::FreePort();
  ExporterProcess e(
      {"--web.listen-address=127.0.0.1:" + std::to_string(port),
       "--web.config.file=" + Path("web.yml"), "--ovsdb.database=OVN_Northbound=" + ovsdb.path()},
      port, [this](int p) { return TlsScrape(p) == "200"; });
  EXPECT_EQ(TlsScrape(port, "--tlsv1.2 --tls-max 1.2"), "200");
  WriteWebConfig("  min_version: TLS13\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_NE(TlsScrape(port, "--tlsv1.2 --tls-max 1.2"), "200");
  EXPECT_EQ(TlsScrape(port, "--tlsv1.3"), "200");
  const std::string log = ReadFile(e.log_path());
  EXPECT_NE(log.find("TLS configuration reloaded"), std::string::npos) << log;
}

// A CA, another CA, the exporter's certificate and client certificates, made with the openssl
// command line; `openssl ca` dates a certificate to the second, so one can expire mid-test.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Sh("printf '[ca]\\ndefault_ca=d\\n[d]\\ndatabase=index.txt\\nnew_certs_dir=.\\nserial=serial\\n"
       "default_md=sha256\\npolicy=p\\ncopy_extensions=copy\\n[p]\\ncommonName=supplied\\n' > "
       "ca.cnf && touch index.txt && echo 01 > serial && echo 'unique_subject = no' > "
       "index.txt.attr");
    for (const char* ca : {"ca", "other-ca"}) {
      Key(ca);
      Sh(std::string("openssl req -x509 -new -key ") + ca + ".key -out " + ca +
         ".crt -days 2 -subj /CN=" + ca);
    }
    Sh("echo subjectAltName=IP:127.0.0.1 > san.ext");
    Key("server");
    Sh("openssl req -new -key server.key -out server.csr -subj /CN=exporter && openssl x509 -req "
       "-in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out server.crt "
       "-extfile san.ext");
    Issue("client", "-days 2");
    // The client CA the exporter reads, a copy: swapped in place as a Secret update does.
    Sh("cp ca.crt client-ca.crt");
    std::ofstream(Path("web.yml")) << "tls_server_config:\n  cert_file: server.crt\n  key_file: "
                                      "server.key\n  client_auth_type: "
                                      "RequireAndVerifyClientCert\n  client_ca_file: "
                                      "client-ca.crt\n";
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  void Sh(const std::string& command) const {
    int code = 0;
    const std::string out = Shell("cd " + dir_ + " && " + command, &code);
    ASSERT_EQ(code, 0) << command << "\n" << out;
  }
  void Key(const std::string& name) const {
    Sh("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + name + ".key");
  }
  // A client certificate from ca, valid as `validity` says (openssl ca's -days or -enddate).
  void Issue(const std::string& name, const std::string& validity) const {
    Key(name);
    Sh("openssl req -new -key " + name + ".key -out " + name + ".csr -subj /CN=prometheus && " +
       "openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -in " + name + ".csr -out " +
       name + ".crt -notext " + validity);
  }

  std::unique_ptr<ExporterProcess> Start(const FakeUnixServer& ovsdb) const {
    const int port = testing::FreePort();
    return std::make_unique<ExporterProcess>(
        std::vector<std::string>{"--web.listen-address=127.0.0.1:" + std::to_string(port),
                                 "--web.config.file=" + Path("web.yml"),
                                 "--ovsdb.database=OVN_Northbound=" + ovsdb.path()},
        port, [this](int p) { return Curl(p, "client").find("HTTP=200") != std::string::npos; });
  }

  // A full handshake with client certificate `client`: curl's output, ending in HTTP=<code>.
  std::string Curl(int port, const std::string& client) const {
    return Shell("curl -sS --max-time 10 -o /dev/null -w 'HTTP=%{http_code}' --cacert " +
                 Path("ca.crt") + " --cert " + Path(client + ".crt") + " --key " +
                 Path(client + ".key") + " https://127.0.0.1:" + std::to_string(port) + "/metrics");
  }

  // openssl s_client asking for /metrics with client certificate `client` over TLS `version`
  // (-tls1_2, -tls1_3), saving its session to `session` ("out") or offering it ("in").
  struct Handshake {
    bool reused = false;  // "Reused, TLSv1.x": the saved session was resumed
    bool served = false;  // the page came: HTTP/1.1 200
    std::string out;
  };
  Handshake SClient(int port, const std::string& client, const std::string& version,
                    const std::string& session, const std::string& direction) const {
    Handshake h;
    h.out = Shell(
        "printf 'GET /metrics HTTP/1.0\\r\\n\\r\\n' | timeout 10 openssl s_client "
        "-connect 127.0.0.1:" +
        std::to_string(port) + " -CAfile " + Path("ca.crt") + " -cert " + Path(client + ".crt") +
        " -key " + Path(client + ".key") + " -ign_eof " + version + " -sess_" + direction + " " +
        Path(session));
    h.reused = h.out.find("Reused, TLSv1.") != std::string::npos;
    h.served = h.out.find("HTTP/1.1 200") != std::string::npos;
    return h;
  }

  // Waits for the exporter's TLS reloader to log its `n`th reload.
  static bool Reloaded(const ExporterProcess& e, int n) {
    return testing::Eventually(
        [&] {
          const std::string log = ReadFile(e.log_path());
          int count = 0;
          for (auto at = log.find("TLS certificate reloaded"); at != std::string::npos;
               at = log.find("TLS certificate reloaded", at + 1)) {
            ++count;
          }
          return count >= n;
        },
        10);
  }

  const testing::TempDir temp_{"ovn-raft-tlssession"};
  const std::string dir_ = temp_.path();
};

const char* const kVersions[] = {"-tls1_2", "-tls1_3"};

// Resumption works while nothing changed; after the client CA is replaced by another CA, a
// full handshake with the old client certificate is refused, and so is every saved session.
TEST_F(SessionTest, SessionsDoNotOutliveASwappedClientCa) {
  FakeUnixServer ovsdb(Leader());
  const auto e = Start(ovsdb);
  const int port = e->port();
  for (const std::string version : kVersions) {
    const auto first = SClient(port, "client", version, "session" + version, "out");
    ASSERT_TRUE(first.served) << version << "\n" << first.out;
    EXPECT_NE(first.out.find("ticket lifetime hint: 300 (seconds)"), std::string::npos)
        << first.out;
    const auto again = SClient(port, "client", version, "session" + version, "in");
    EXPECT_TRUE(again.reused) << version << "\n" << again.out;
    EXPECT_TRUE(again.served) << version << "\n" << again.out;
  }
  // No server-side session cache: without a ticket the server gives no session ID to resume.
  const auto no_ticket = SClient(port, "client", "-tls1_2 -no_ticket", "id-only", "out");
  EXPECT_TRUE(no_ticket.served) << no_ticket.out;
  EXPECT_NE(no_ticket.out.find("Session-ID: \n"), std::string::npos) << no_ticket.out;
  Sh("cp other-ca.crt client-ca.crt.new && mv client-ca.crt.new client-ca.crt");
  ASSERT_TRUE(Reloaded(*e, 1)) << ReadFile(e->log_path());
  const std::string full = Curl(port, "client");
  EXPECT_EQ(full.find("HTTP=200"), std::string::npos) << full;
  for (const std::string version : kVersions) {
    const auto resumed = SClient(port, "client", version, "session" + version, "in");
    EXPECT_FALSE(resumed.reused) << version << "\n" << resumed.out;
    EXPECT_FALSE(resumed.served) << version << "\n" << resumed.out;
    std::printf("[ figures  ] %s after the client CA swap: %s, %s\n", version.c_str(),
                resumed.reused ? "Reused" : "not resumed", resumed.served ? "HTTP 200" : "no page");
  }
}

// The web config switches client_ca_file to a CA-only file written a moment after it (a
// ConfigMap and a Secret updating apart): the new configuration waits for its file, the old
// files are not reloaded meanwhile, and once the file is there the client of the CA left out is
// refused within a reload interval. Files rewritten with what they held log no reload.
TEST_F(SessionTest, AWebConfigWhoseClientCaComesLaterIsAppliedWhenItArrives) {
  Key("doomed");
  Sh("cat ca.crt other-ca.crt > client-ca.crt && openssl req -new -key doomed.key -out "
     "doomed.csr -subj /CN=prometheus && openssl x509 -req -in doomed.csr -CA other-ca.crt "
     "-CAkey other-ca.key -CAcreateserial -days 2 -out doomed.crt");
  FakeUnixServer ovsdb(Leader());
  const auto e = Start(ovsdb);
  const int port = e->port();
  ASSERT_NE(Curl(port, "doomed").find("HTTP=200"), std::string::npos);
  Sh("cp client-ca.crt same.crt && mv same.crt client-ca.crt");  // the same bytes
  std::ofstream(Path("web.yml.new")) << "tls_server_config:\n  cert_file: server.crt\n  "
                                        "key_file: server.key\n  client_auth_type: "
                                        "RequireAndVerifyClientCert\n  client_ca_file: "
                                        "ca-only.crt\n";
  Sh("mv web.yml.new web.yml");
  ASSERT_TRUE(testing::Eventually(
      [&] { return ReadFile(e->log_path()).find("not applied yet") != std::string::npos; }, 10))
      << ReadFile(e->log_path());
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));         // reload ticks meanwhile
  EXPECT_NE(Curl(port, "doomed").find("HTTP=200"), std::string::npos);  // the last good one
  Sh("cp ca.crt ca-only.new && mv ca-only.new ca-only.crt");
  const auto arrived = std::chrono::steady_clock::now();
  bool refused = false;
  while (!refused && std::chrono::steady_clock::now() - arrived < std::chrono::seconds(5)) {
    refused = Curl(port, "doomed").find("HTTP=200") == std::string::npos;
  }
  const auto took = std::chrono::steady_clock::now() - arrived;
  ASSERT_TRUE(refused) << ReadFile(e->log_path());
  // One reload interval (a second), and room for the handshakes of a loaded machine.
  EXPECT_LT(took, std::chrono::milliseconds(2500));
  std::printf(
      "[ figures  ] the revoked client refused %lld ms after the CA file arrived\n",
      static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
  EXPECT_NE(Curl(port, "client").find("HTTP=200"), std::string::npos);
  const std::string log = ReadFile(e->log_path());
  EXPECT_NE(log.find("TLS configuration applied (its files can now be read)"), std::string::npos)
      << log;
  EXPECT_EQ(log.find("TLS certificate reloaded"), std::string::npos) << log;
}

// A client certificate that expires while its sessions are saved: after the expiry neither a
// full handshake nor a resumption gets the page.
TEST_F(SessionTest, SessionsDoNotOutliveTheClientCertificate) {
  FakeUnixServer ovsdb(Leader());
  const auto e = Start(ovsdb);
  const int port = e->port();
  // Issued once the exporter answers: its few seconds go to the handshakes.
  constexpr int kValidFor = 8;  // seconds: room for two handshakes per version on a loaded host
  const std::time_t end = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() +
                                                               std::chrono::seconds(kValidFor));
  const auto until = std::chrono::system_clock::from_time_t(end);  // to the second, as X.509
  char enddate[32];
  std::strftime(enddate, sizeof(enddate), "%Y%m%d%H%M%SZ", std::gmtime(&end));
  Issue("brief", "-startdate 20200101000000Z -enddate " + std::string(enddate));
  for (const std::string version : kVersions) {
    const auto first = SClient(port, "brief", version, "brief" + version, "out");
    ASSERT_TRUE(first.served) << version << "\n" << first.out;
    const auto again = SClient(port, "brief", version, "brief" + version, "in");
    EXPECT_TRUE(again.reused) << version << "\n" << again.out;
    EXPECT_TRUE(again.served) << version << "\n" << again.out;
  }
  ASSERT_LT(std::chrono::system_clock::now(), until) << "too slow to test before the expiry";
  std::this_thread::sleep_until(until + std::chrono::milliseconds(1500));
  const std::string full = Curl(port, "brief");
  EXPECT_EQ(full.find("HTTP=200"), std::string::npos) << full;
  for (const std::string version : kVersions) {
    const auto resumed = SClient(port, "brief", version, "brief" + version, "in");
    EXPECT_FALSE(resumed.reused) << version << "\n" << resumed.out;
    EXPECT_FALSE(resumed.served) << version << "\n" << resumed.out;
    std::printf("[ figures  ] %s after the client certificate expired: %s, %s\n", version.c_str(),
                resumed.reused ? "Reused" : "not resumed", resumed.served ? "HTTP 200" : "no page");
  }
  // The certificate that is still valid still gets in.
  EXPECT_NE(Curl(port, "client").find("HTTP=200"), std::string::npos);
}

}  // namespace
}  // namespace ovn_raft
