// ovn-raft-report over an exporter behind TLS with a required client certificate and basic
// auth, as the TLS Components deploy it: the report's CA, client certificate and password file;
// no credential is ever printed, nor sent over plain http. Certificates from the openssl command
// line. Only in builds with -DOVN_RAFT_CIVETWEB=source.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "raft_cluster.h"
#include "support/exporter_process.h"
#include "support/report_process.h"
#include "support/shell.h"
#include "support/temp_dir.h"
#include "support/test_paths.h"

namespace ovn_raft {
namespace {

using testing::ExporterProcess;
using testing::RaftCluster;
using testing::RunReport;
using testing::Shell;

// A CA, the exporter's certificate for 127.0.0.1 and a client certificate, in a temporary
// directory.
class ReportCertificates {
 public:
  ReportCertificates() {
    Sh("printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext");
    Key("ca");
    Sh("openssl req -x509 -new -key ca.key -out ca.crt -days 2 -subj /CN=ca");
    Issue("server", "exporter", "-extfile san.ext");
    Issue("client", "ovn-raft-report", "");
  }
  std::string Path(const std::string& name) const { return dir_ / name; }

 private:
  void Sh(const std::string& command) const {
    int code = 0;
    const std::string out = Shell("cd " + dir_.path() + " && " + command, &code);
    if (code != 0) throw std::runtime_error(command + ": " + out);
  }
  void Key(const std::string& name) const {
    Sh("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + name + ".key");
  }
  void Issue(const std::string& name, const std::string& cn, const std::string& ext) const {
    Key(name);
    Sh("openssl req -new -key " + name + ".key -out " + name + ".csr -subj /CN=" + cn +
       " && openssl x509 -req -in " + name + ".csr -CA ca.crt -CAkey ca.key -CAcreateserial " +
       "-days 2 -out " + name + ".crt " + ext);
  }
  testing::TempDir dir_{"ovn-raft-report-tls"};
};

TEST(ReportTlsIntegrationTest, TheReportReadsAnExporterThatRequiresAClientCertificate) {
  if (testing::ReportBinary().empty()) GTEST_SKIP() << "built without ovn-raft-report";
  RaftCluster cluster(1);
  ReportCertificates c;
  const int port = testing::FreePort();
  const std::string config = c.Path("web.yml");
  // prom:secret at bcrypt cost 5.
  std::ofstream(config) << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                        << "  client_auth_type: RequireAndVerifyClientCert\n"
                        << "  client_ca_file: ca.crt\nbasic_auth_users:\n  prom: "
                        << "$2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG\n";
  const std::string curl = "curl -s -o /dev/null -w '%{http_code}' --cacert " + c.Path("ca.crt") +
                           " --cert " + c.Path("client.crt") + " --key " + c.Path("client.key") +
                           " https://127.0.0.1:";
  ExporterProcess e(
      {"--web.listen-address=127.0.0.1:" + std::to_string(port), "--web.config.file=" + config,
       "--ovsdb.database=OVN_Northbound=" + cluster.Ctl(1, "nb") + "," + cluster.Sock(1, "nb")},
      port, [&](int p) { return Shell(curl + std::to_string(p) + "/healthz", nullptr) == "200"; });
  std::ofstream(c.Path("password")) << "secret\n";
  std::ofstream(c.Path("wrong")) << "wrong\n";
  const std::string url = "https://127.0.0.1:" + std::to_string(port);
  const std::vector<std::string> tls = {"--web.tls.ca-file=" + c.Path("ca.crt"),
                                        "--web.tls.cert-file=" + c.Path("client.crt"),
                                        "--web.tls.key-file=" + c.Path("client.key")};
  auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::vector<std::string> auth = {"--web.basic-auth.username=prom",
                                         "--web.basic-auth.password-file=" + c.Path("password")};
  auto no_secret = [](const testing::ReportRun& r) {
    EXPECT_EQ(r.out.find("secret"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("secret"), std::string::npos) << r.err;
  };

  const auto ok = RunReport(with(with(tls, auth), {url}));
  std::printf("[ tls      ] client certificate and password file: exit %d\n", ok.exit);
  EXPECT_EQ(ok.exit, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("1 reporting; views all agree"), std::string::npos) << ok.out;
  no_secret(ok);

  // The same through the environment, as a Kubernetes Job would pass them.
  const auto env =
      RunReport({url}, {"OVN_RAFT_REPORT_WEB_TLS_CA_FILE=" + c.Path("ca.crt"),
                        "OVN_RAFT_REPORT_WEB_TLS_CERT_FILE=" + c.Path("client.crt"),
                        "OVN_RAFT_REPORT_WEB_TLS_KEY_FILE=" + c.Path("client.key"),
                        "OVN_RAFT_REPORT_WEB_BASIC_AUTH_USERNAME=prom",
                        "OVN_RAFT_REPORT_WEB_BASIC_AUTH_PASSWORD_FILE=" + c.Path("password")});
  EXPECT_EQ(env.exit, 0) << env.out << env.err;

  // The password in the URL instead: it works and is never shown.
  const std::string with_password = "https://prom:secret@127.0.0.1:" + std::to_string(port);
  const auto in_url = RunReport(with(tls, {with_password, with_password}));
  EXPECT_EQ(in_url.exit, 0) << in_url.out;
  no_secret(in_url);

  // Without the client certificate the handshake is refused; with a wrong password, 401.
  const auto no_cert =
      RunReport(with({"--web.tls.ca-file=" + c.Path("ca.crt")}, with(auth, {url})));
  EXPECT_EQ(no_cert.exit, 1) << no_cert.out;
  EXPECT_NE(no_cert.out.find(url + ": unreachable ("), std::string::npos) << no_cert.out;
  no_secret(no_cert);
  const auto wrong =
      RunReport(with(tls, {"--web.basic-auth.username=prom",
                           "--web.basic-auth.password-file=" + c.Path("wrong"), url}));
  EXPECT_EQ(wrong.exit, 1) << wrong.out;
  EXPECT_NE(wrong.out.find(url + ": unreachable (HTTP 401)"), std::string::npos) << wrong.out;
  EXPECT_EQ(wrong.out.find("wrong\n"), std::string::npos);
  // The system's CAs do not know the test CA.
  const auto no_ca = RunReport(with(
      {"--web.tls.cert-file=" + c.Path("client.crt"), "--web.tls.key-file=" + c.Path("client.key")},
      with(auth, {url})));
  EXPECT_EQ(no_ca.exit, 1) << no_ca.out;

  // The same credentials to the exporter's port over plain http: refused before any request,
  // unless the operator says to send them in the clear.
  const auto plain = RunReport(with(auth, {"http://127.0.0.1:" + std::to_string(port)}));
  EXPECT_EQ(plain.exit, 2) << plain.out;
  EXPECT_NE(plain.err.find("refusing to send the basic-auth password over plain http"),
            std::string::npos)
      << plain.err;
  no_secret(plain);

  // Files that cannot be used stop the report before any request, naming the file only.
  const auto half = RunReport(with({"--web.tls.cert-file=" + c.Path("client.crt")}, {url}));
  EXPECT_EQ(half.exit, 2);
  EXPECT_NE(half.err.find("--web.tls.cert-file and --web.tls.key-file go together"),
            std::string::npos)
      << half.err;
  const auto missing = RunReport(
      {"--web.basic-auth.username=prom", "--web.basic-auth.password-file=/nonexistent", url});
  EXPECT_EQ(missing.exit, 2);
  EXPECT_NE(missing.err.find("cannot open /nonexistent"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace ovn_raft
