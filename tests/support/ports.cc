#include "support/ports.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ovn_raft::testing {
namespace {

std::string BlockFile(int block, const char* suffix) {
  return std::string(kPortLockDir) + "/" + std::to_string(block) + suffix;
}

// The block named by the environment, or a free one claimed for the life of the process (its
// lock descriptor stays open on purpose; children inherit it).
int OwnBlock() {
  if (const char* named = std::getenv("OVN_RAFT_PORT_BLOCK"); named && *named) {
    const int block = std::atoi(named);
    if (block >= 0 && block < kPortBlocks) return block;
  }
  mkdir(kPortLockDir, 01777);
  chmod(kPortLockDir, 01777);
  for (int block = 0; block < kPortBlocks; ++block) {
    const int fd = open(BlockFile(block, ".lock").c_str(), O_RDWR | O_CREAT, 0666);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      // A fresh owner starts at the block's first port.
      const int next = open(BlockFile(block, ".next").c_str(), O_RDWR | O_CREAT | O_TRUNC, 0666);
      if (next >= 0) close(next);
      return block;
    }
    close(fd);
  }
  throw std::runtime_error("every port block under " + std::string(kPortLockDir) + " is owned");
}

}  // namespace

int TakePorts(int count) {
  static std::mutex mutex;
  static int block = -1;
  const std::lock_guard<std::mutex> lock(mutex);
  if (block < 0) block = OwnBlock();
  const int fd = open(BlockFile(block, ".next").c_str(), O_RDWR | O_CREAT, 0666);
  if (fd < 0) throw std::runtime_error("cannot open " + BlockFile(block, ".next"));
  flock(fd, LOCK_EX);
  char buf[16] = {};
  const ssize_t got = pread(fd, buf, sizeof(buf) - 1, 0);
  const int offset = got > 0 ? std::atoi(buf) : 0;
  if (offset + count > kPortBlockSize) {
    close(fd);
    throw std::runtime_error("port block " + std::to_string(block) + " is used up");
  }
  const std::string after = std::to_string(offset + count);
  if (ftruncate(fd, 0) != 0 || pwrite(fd, after.data(), after.size(), 0) < 0) {
    close(fd);
    throw std::runtime_error("cannot write " + BlockFile(block, ".next"));
  }
  close(fd);
  return kFirstPort + block * kPortBlockSize + offset;
}

}  // namespace ovn_raft::testing
