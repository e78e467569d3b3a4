// What the report sends as credentials is never printed back, whatever field echoes it.
#include "report/echoed_secrets.h"

#include <gtest/gtest.h>

#include "report/terminal_text.h"

namespace ovn_raft {
namespace {

TEST(EchoedSecretsTest, ThePasswordThePairAndTheHeaderValue) {
  // base64("prom:hunter2") as the Authorization header carries it.
  EXPECT_EQ(BasicAuthSecrets("prom:hunter2"),
            (std::vector<std::string>{"cHJvbTpodW50ZXIy", "prom:hunter2", "hunter2"}));
  EXPECT_EQ(BasicAuthSecrets("a:bc")[0], "YTpiYw==");
  EXPECT_EQ(BasicAuthSecrets("ab:c")[0], "YWI6Yw==");
  EXPECT_EQ(BasicAuthSecrets("ab:cd")[0], "YWI6Y2Q=");
  EXPECT_TRUE(BasicAuthSecrets("").empty());
  EXPECT_EQ(UrlUserinfo("http://prom:hun%74er2@10.0.0.1:1/x"), "prom:hunter2");
  EXPECT_EQ(UrlUserinfo("http://10.0.0.1:1/x@y"), "");
}

TEST(EchoedSecretsTest, EveryFieldOfAReportIsCleared) {
  const auto secrets = BasicAuthSecrets("prom:hunter2");
  EXPECT_EQ(WithoutSecrets("Basic cHJvbTpodW50ZXIy, prom:hunter2, hunter2hunter2", secrets),
            "Basic xxxxx, xxxxx, xxxxxxxxxx");
  MemberReport r;
  for (std::string* s : {&r.source, &r.db, &r.ctl, &r.error, &r.cluster_id, &r.server_id,
                         &r.address, &r.status, &r.role, &r.leader, &r.ovs_version}) {
    *s = "<hunter2>";
  }
  r.view["hunter2"] = "tcp:hunter2:1";
  r.heard_ms_ago["cHJvbTpodW50ZXIy"] = 1;
  r.match_index["prom:hunter2"] = 1;
  r.established.insert("hunter2");
  r.expected.hosts = {"hunter2"};
  RemoveSecrets(r, secrets);
  for (const std::string* s : {&r.source, &r.db, &r.ctl, &r.error, &r.cluster_id, &r.server_id,
                               &r.address, &r.status, &r.role, &r.leader, &r.ovs_version}) {
    EXPECT_EQ(*s, "<xxxxx>");
  }
  EXPECT_EQ(r.view, (std::map<std::string, std::string>{{"xxxxx", "tcp:xxxxx:1"}}));
  EXPECT_EQ(r.heard_ms_ago.count("xxxxx"), 1u);
  EXPECT_EQ(r.match_index.count("xxxxx"), 1u);
  EXPECT_EQ(r.established.count("xxxxx"), 1u);
  EXPECT_EQ(r.expected.hosts, std::vector<std::string>{"xxxxx"});
}

}  // namespace
}  // namespace ovn_raft
