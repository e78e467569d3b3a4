// When a kick may be advised: every piece of evidence bound to the member it speaks for, from
// a real leader's cluster/status (tests/fixtures/ovs-3.1.0/fresh-restart-leader.txt: 6355 at
// 127.0.0.1 leads, last heard 68ff 7 s ago, 68ff and 218e share 127.0.0.2).
#include "report/kick_evidence.h"

#include <gtest/gtest.h>

#include "status_fixture.h"

namespace ovn_raft {
namespace {

using testing::Replaced;
using testing::StatusReport;

const std::string kFresh = testing::Fixture("ovs-3.1.0/fresh-restart-leader.txt");

UrlStatus Url(const std::string& url, const std::string& text,
              std::vector<MemberBinding> bindings = {}) {
  return {.url = url,
          .reports = {StatusReport(text, url)},
          .host = UrlHost(url),
          .bindings = std::move(bindings)};
}

TrustedDatabase Nb(const std::vector<UrlStatus>& statuses) {
  return SortByTrust(statuses).at("OVN_Northbound");
}

std::string Why(const TrustedDatabase& db, const std::string& id,
                const std::vector<std::string>& unreachable = {}) {
  return WhyNoKick(db, unreachable, db.cluster_id, id).value_or("");
}

TEST(KickEvidenceTest, TheLeadersOwnExporterOnItsHostAllowsTheKick) {
  const auto db = Nb({Url("http://127.0.0.1:10476", kFresh)});
  EXPECT_EQ(WhyNoKick(db, {}, db.cluster_id, "68ff"), std::nullopt);
  // Heard 74 ms ago: no.
  EXPECT_NE(Why(db, "218e").find("heard from it 74 ms ago"), std::string::npos);
}

TEST(KickEvidenceTest, AUrlNotBoundToTheLeaderAllowsNoKick) {
  // The same document from another host: it may be anyone's.
  const auto db = Nb({Url("http://127.0.0.9:10476", kFresh)});
  const std::string why = Why(db, "68ff");
  EXPECT_NE(why.find("the leader 6355's report comes from http://127.0.0.9:10476, not shown to "
                     "be its own exporter (its URL's host 127.0.0.9 is not its Raft address "
                     "host 127.0.0.1; --member=URL=6355 binds it)"),
            std::string::npos)
      << why;
  // Bound by the operator, by ID, by host or by Raft address: allowed.
  for (const std::string member :
       {"6355", "63559766-e4f9-4f00-a9d6-5b4f41b9af04", "127.0.0.1", "tcp:127.0.0.1:26245"}) {
    auto b = ParseMemberBinding("http://127.0.0.9:10476=" + member);
    ASSERT_TRUE(b) << member;
    const auto bound = Nb({Url("http://127.0.0.9:10476", kFresh, {b.value()})});
    EXPECT_EQ(WhyNoKick(bound, {}, bound.cluster_id, "68ff"), std::nullopt) << member;
  }
}

TEST(KickEvidenceTest, AnUnreachableOrUntrustedUrlAllowsNoKick) {
  const auto db = Nb({Url("http://127.0.0.1:10476", kFresh)});
  EXPECT_NE(Why(db, "68ff", {"http://127.0.0.3:10476"}).find("unreachable: http://127.0.0.3:10476"),
            std::string::npos);
  // Two URLs claim 63a7: both untrusted, and either may be the member called stale.
  const std::string follower =
      Replaced(Replaced(kFresh, "Role: leader", "Role: follower"), "Leader: self", "Leader: 6355");
  const std::string c = Replaced(Replaced(follower, "Server ID: 6355", "Server ID: 63a7"),
                                 "Address: tcp:127.0.0.1", "Address: tcp:127.0.0.3");
  const auto two = Nb({Url("http://127.0.0.1:10476", kFresh), Url("http://127.0.0.3:10476", c),
                       Url("http://127.0.0.8:10476", c)});
  ASSERT_EQ(two.untrusted.size(), 2u);
  EXPECT_NE(Why(two, "68ff").find("untrusted: http://127.0.0.3:10476, http://127.0.0.8:10476"),
            std::string::npos)
      << Why(two, "68ff");
  // A URL that answers but cannot read the database: its member is unknown.
  auto unread = Url("http://127.0.0.2:10476", kFresh);
  unread.reports[0] = {};
  unread.reports[0].db = "OVN_Northbound";
  unread.reports[0].source = unread.url;
  unread.reports[0].error = "connection refused";
  const auto with_unread = Nb({Url("http://127.0.0.1:10476", kFresh), unread});
  EXPECT_NE(Why(with_unread, "68ff").find("could not read it: http://127.0.0.2:10476"),
            std::string::npos);
}

// The impersonation: a URL serving the leader's /status from another host, saying it last
// heard a healthy follower 99 s ago and hears a new member at its host, beside one honest
// follower. Nothing ties the URL to the leader: no kick, and the report says what is missing.
TEST(KickEvidenceTest, AnImpersonatedLeaderAllowsNoKick) {
  std::string lie = Replaced(kFresh,
                             "63a7 (63a7 at tcp:127.0.0.3:26245) next_index=6 "
                             "match_index=5 last msg 74 ms ago",
                             "63a7 (63a7 at tcp:127.0.0.3:26245) next_index=6 match_index=5 "
                             "last msg 99000 ms ago\n    beef (beef at tcp:127.0.0.3:26246) "
                             "next_index=6 match_index=5 last msg 10 ms ago");
  const std::string b =
      Replaced(Replaced(Replaced(Replaced(kFresh, "Role: leader", "Role: follower"), "Leader: self",
                                 "Leader: 6355"),
                        "Server ID: 6355", "Server ID: 218e"),
               "Address: tcp:127.0.0.1", "Address: tcp:127.0.0.2");
  const auto db = Nb({Url("http://127.0.0.2:10476", b), Url("http://127.0.0.1:4000", lie)});
  // On the leader's host the lie would pass: the host is the binding.
  EXPECT_EQ(WhyNoKick(db, {}, db.cluster_id, "63a7"), std::nullopt);
  const auto elsewhere = Nb({Url("http://127.0.0.2:10476", b), Url("http://127.0.0.9:4000", lie)});
  EXPECT_NE(Why(elsewhere, "63a7").find("not shown to be its own exporter"), std::string::npos);
  // A --member that says the URL is someone else's makes it untrusted.
  const auto contradicted =
      Nb({Url("http://127.0.0.2:10476", b),
          Url("http://127.0.0.9:4000", lie,
              {ParseMemberBinding("http://127.0.0.9:4000=127.0.0.9").value()})});
  ASSERT_EQ(contradicted.untrusted.size(), 1u);
  EXPECT_NE(contradicted.untrusted[0].reason.find("--member binds it to host 127.0.0.9"),
            std::string::npos);
  EXPECT_NE(Why(contradicted, "63a7").find("untrusted"), std::string::npos);
}

TEST(KickEvidenceTest, TheVictimsOwnReportMustAgree) {
  const std::string follower =
      Replaced(Replaced(kFresh, "Role: leader", "Role: follower"), "Leader: self", "Leader: 6355");
  const std::string victim = Replaced(Replaced(follower, "Server ID: 6355", "Server ID: 68ff"),
                                      "Address: tcp:127.0.0.1", "Address: tcp:127.0.0.2");
  // Its own exporter, on its host, reads a connected cluster member: the leader's word alone
  // does not remove it.
  const auto db =
      Nb({Url("http://127.0.0.1:10476", kFresh), Url("http://127.0.0.2:10476", victim)});
  EXPECT_NE(Why(db, "68ff").find("its own exporter reads a connected cluster member"),
            std::string::npos)
      << Why(db, "68ff");
  // From another host: not its own word either.
  const auto far = Nb({Url("http://127.0.0.1:10476", kFresh), Url("http://127.0.0.7:1", victim)});
  EXPECT_NE(Why(far, "68ff").find("68ff's report comes from http://127.0.0.7:1, not shown"),
            std::string::npos)
      << Why(far, "68ff");
}

TEST(KickEvidenceTest, TheLeaderMustBeTheOneTheClusterFollows) {
  // Not the majority's cluster: no kick.
  const auto db = Nb({Url("http://127.0.0.1:10476", kFresh)});
  EXPECT_NE(WhyNoKick(db, {}, "ffff", "68ff").value_or("").find("more than half"),
            std::string::npos);
  // Its members follow another leader than the one that reports.
  const std::string b = Replaced(
      Replaced(Replaced(kFresh, "Role: leader", "Role: follower"), "Leader: self", "Leader: 63a7"),
      "Server ID: 6355", "Server ID: 218e");
  const std::string b2 = Replaced(b, "Address: tcp:127.0.0.1", "Address: tcp:127.0.0.2");
  const std::string c = Replaced(Replaced(b, "Server ID: 218e", "Server ID: 63a7"),
                                 "Address: tcp:127.0.0.1", "Address: tcp:127.0.0.3");
  const auto split = Nb({Url("http://127.0.0.1:1", kFresh), Url("http://127.0.0.2:1", b2),
                         Url("http://127.0.0.3:1", c)});
  EXPECT_NE(Why(split, "68ff").find("the leader 63a7's own exporter does not read a leader"),
            std::string::npos)
      << Why(split, "68ff");
}

}  // namespace
}  // namespace ovn_raft
