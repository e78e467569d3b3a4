#include "report/password_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ovn_raft {
namespace {

// A password, a token: far below this; a larger file is not one.
constexpr std::size_t kMaxPasswordBytes = 4096;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

Result<std::string, std::string> ReadPasswordFile(const std::string& path) {
  using R = Result<std::string, std::string>;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return R::Failure("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return R::Failure(path + " is not a regular file");
  }
  std::string text;
  char buf[1024];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return R::Failure("cannot read " + path + ": " + std::strerror(error));
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxPasswordBytes) {
      close(fd);
      return R::Failure(path + " holds more than " + std::to_string(kMaxPasswordBytes) +
                        " bytes: not a password file");
    }
  }
  close(fd);
  std::size_t begin = 0, end = text.size();
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  if (begin == end) return R::Failure(path + " is empty");
  return text.substr(begin, end - begin);
}

}  // namespace ovn_raft
