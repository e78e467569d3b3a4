// The files the exporter reloads, against what would hang or flood a reload: a FIFO (an open
// that waits for a writer for ever), a sparse file of 1 GiB, a device, a directory.
#include "web/bounded_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "support/temp_dir.h"
#include "web/web_config.h"

namespace ovn_raft {
namespace {

class BoundedFileTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) const { return dir_ / name; }
  testing::TempDir dir_{"ovn-raft-bounded"};
};

TEST_F(BoundedFileTest, ReadsARegularFileThroughASymlink) {
  std::ofstream(Path("a")) << "hello";
  ASSERT_EQ(symlink(Path("a").c_str(), Path("link").c_str()), 0);  // as a Secret's files are
  EXPECT_EQ(ReadBoundedFile(Path("link"), 100, "web config").value(), "hello");
  EXPECT_EQ(ReadBoundedFile(Path("a"), 5, "web config").value(), "hello");
}

TEST_F(BoundedFileTest, RefusesAtOnceWhatWouldHangOrFloodARead) {
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0600), 0);
  const auto fifo = ReadBoundedFile(Path("fifo"), 100, "cert_file");
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.error().find("cert_file " + Path("fifo") + " is a FIFO, not a regular file"),
            std::string::npos)
      << fifo.error();
  std::ofstream(Path("sparse")).close();
  ASSERT_EQ(truncate(Path("sparse").c_str(), 1ll << 30), 0);
  const auto sparse = ReadBoundedFile(Path("sparse"), 1 << 20, "key_file");
  ASSERT_FALSE(sparse.ok());
  EXPECT_NE(sparse.error().find("is larger than 1048576 bytes"), std::string::npos);
  const auto zero = ReadBoundedFile("/dev/zero", 100, "web config");
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().find("is a character device"), std::string::npos);
  const auto dir = ReadBoundedFile(dir_.path(), 100, "web config");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().find("is a directory"), std::string::npos);
  std::ofstream(Path("big")) << std::string(101, 'x');
  EXPECT_FALSE(ReadBoundedFile(Path("big"), 100, "web config").ok());
  EXPECT_FALSE(ReadBoundedFile(Path("missing"), 100, "web config").ok());
}

// The web config: the same, through LoadWebConfig, and a cipher list is checked item by item
// and bounded, so that a long list costs time linear in its length.
TEST_F(BoundedFileTest, TheWebConfigLoaderRefusesFifosAndLongCipherLists) {
  ASSERT_EQ(mkfifo(Path("web.yml").c_str(), 0600), 0);
  const auto fifo = LoadWebConfig(Path("web.yml"));
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.error().message.find("is a FIFO"), std::string::npos);
  std::string text = "tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites:\n";
  for (int i = 0; i < 30000; ++i) text += "    - TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256\n";
  const auto many = ParseWebConfig(text);
  ASSERT_FALSE(many.ok());
  EXPECT_NE(many.error().message.find("cipher_suites lists more than 64 entries"),
            std::string::npos)
      << many.error().message;
  std::string flow = "tls_server_config:\n  cert_file: a\n  key_file: b\n  curve_preferences: [";
  for (int i = 0; i < 100; ++i) flow += "X25519, ";
  EXPECT_FALSE(ParseWebConfig(flow + "X25519]\n").ok());
}

}  // namespace
}  // namespace ovn_raft
