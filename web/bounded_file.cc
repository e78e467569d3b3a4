#include "web/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ovn_raft {
namespace {

const char* KindOf(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

}  // namespace

Result<std::string, std::string> ReadBoundedFile(const std::string& path, std::size_t max_bytes,
                                                 const std::string& what) {
  using R = Result<std::string, std::string>;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return R::Failure("cannot read " + what + " " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    return R::Failure("cannot read " + what + " " + path + ": " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    if (S_ISDIR(st.st_mode)) {
      return R::Failure(what + " " + path +
                        " is a directory, not a file (a Secret mounted without subPath? name the "
                        "file in it)");
    }
    return R::Failure(what + " " + path + " is " + KindOf(st.st_mode) + ", not a regular file");
  }
  const auto too_large = [&] {
    return R::Failure(what + " " + path + " is larger than " + std::to_string(max_bytes) +
                      " bytes");
  };
  if (st.st_size < 0 || static_cast<std::size_t>(st.st_size) > max_bytes) {
    close(fd);
    return too_large();
  }
  // The size may change while it is read: the bound holds whatever the file does.
  std::string out(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (true) {
    if (got == out.size()) {
      if (out.size() > max_bytes) break;
      out.resize(std::min(max_bytes + 1, out.size() + 4096));
    }
    const ssize_t n = read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return R::Failure("cannot read " + what + " " + path + ": " + std::strerror(err));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  close(fd);
  if (got > max_bytes) return too_large();
  out.resize(got);
  return out;
}

}  // namespace ovn_raft
