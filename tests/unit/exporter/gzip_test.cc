#include "exporter/gzip.h"

#include <gtest/gtest.h>
#include <zlib.h>

namespace ovn_raft {
namespace {

std::string Gunzip(const std::string& packed) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  std::string out(1 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  z.avail_in = static_cast<uInt>(packed.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

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
