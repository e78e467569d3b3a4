#include "web/gzip.h"

#include <gtest/gtest.h>

#include "support/gunzip.h"

namespace ovn_raft {
namespace {

using testing::Gunzip;

TEST(GzipTest, RoundTripAndSmaller) {
  std::string page;
  for (int i = 0; i < 2000; ++i) {
    page +=
        "ovn_raft_member_info{db=\"OVN_Northbound\",member_id=\"" + std::to_string(i) + "\"} 1\n";
  }
  const std::string packed = Gzip(page);
  ASSERT_FALSE(packed.empty());
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);  // the gzip magic
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
  EXPECT_LT(packed.size() * 5, page.size());
  EXPECT_EQ(Gunzip(packed), page);
}

TEST(GzipTest, WhoAcceptsIt) {
  EXPECT_TRUE(AcceptsGzip("gzip"));
  EXPECT_TRUE(AcceptsGzip("identity, gzip"));  // what Prometheus' scraper sends is gzip
  EXPECT_TRUE(AcceptsGzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_FALSE(AcceptsGzip(""));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("*, gzip;q=0"));  // a named gzip wins over *
  EXPECT_FALSE(AcceptsGzip("deflate, br"));
}

}  // namespace
}  // namespace ovn_raft
