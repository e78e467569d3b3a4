#include "metrics/process_metrics.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <sstream>
#include <string>

#include "base/strings.h"
#include "metrics/family_builder.h"

namespace ovn_raft {
namespace {

// Reads /proc/stat whole: read once, at the first scrape.
std::string Slurp(const char* path) {
  std::string out;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;)
    out.append(buf, static_cast<std::size_t>(n));
  close(fd);
  return out;
}

double BootTime() {
  std::istringstream in(Slurp("/proc/stat"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("btime ", 0) == 0) return std::strtod(line.c_str() + 6, nullptr);
  }
  return 0;
}

// The two /proc files read on every scrape, opened once: each open walks the path again, at a
// cost comparable to the read itself (which, for stat, walks every thread). Both stay open for the
// life of the process and count among its descriptors. /proc/self is resolved at open: these name
// the process, whatever thread reads them later.
class ProcSelf {
 public:
  static ProcSelf& Instance() {
    static ProcSelf self;
    return self;
  }

  // /proc/self/stat, read again from its start: the kernel writes it anew for offset 0.
  std::string Stat() const {
    char buf[1024];  // one line of 52 numbers and a 16-byte name
    const ssize_t n = stat_fd_ < 0 ? -1 : pread(stat_fd_, buf, sizeof(buf), 0);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  }

  int OpenFds() {
    const std::lock_guard<std::mutex> lock(mu_);  // a DIR stream is one reader's
    if (fd_dir_ == nullptr) return -1;
    rewinddir(fd_dir_);
    int n = 0;
    while (const dirent* e = readdir(fd_dir_)) {
      if (e->d_name[0] != '.') ++n;
    }
    return n;
  }

 private:
  ProcSelf()
      : stat_fd_(open("/proc/self/stat", O_RDONLY | O_CLOEXEC)),
        fd_dir_(opendir("/proc/self/fd")) {}

  const int stat_fd_;
  std::mutex mu_;
  DIR* const fd_dir_;
};

}  // namespace

std::optional<ProcStat> ParseProcStat(std::string_view stat, long ticks_per_second, long page_size,
                                      double boot_time) {
  // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
  const auto close = stat.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> f;
  std::string_view rest = stat.substr(close + 1);
  while (!rest.empty()) {
    const auto start = rest.find_first_not_of(" \n");
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    const auto end = rest.find_first_of(" \n");
    f.push_back(rest.substr(0, end));
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  }
  // f[0] is field 3 (state): field N is f[N - 3].
  if (f.size() < 22) return std::nullopt;
  const auto utime = ParseUint(f[14 - 3]), stime = ParseUint(f[15 - 3]);
  const auto start = ParseUint(f[22 - 3]), vsize = ParseUint(f[23 - 3]), rss = ParseUint(f[24 - 3]);
  if (!utime || !stime || !start || !vsize || !rss || ticks_per_second <= 0) return std::nullopt;
  ProcStat p;
  const double ticks = static_cast<double>(ticks_per_second);
  p.cpu_seconds = static_cast<double>(*utime + *stime) / ticks;
  p.start_time_seconds = boot_time + static_cast<double>(*start) / ticks;
  p.virtual_memory_bytes = static_cast<double>(*vsize);
  p.resident_memory_bytes = static_cast<double>(*rss) * static_cast<double>(page_size);
  return p;
}

std::vector<prometheus::MetricFamily> CollectProcessMetrics() {
  FamilyBuilder b;
  const std::chrono::duration<double> now = std::chrono::system_clock::now().time_since_epoch();
  b.Gauge("ovn_raft_exporter_time_seconds",
          "The exporter's wall clock at this scrape (Unix time): the clock behind every "
          "*_timestamp_seconds series of the page.",
          {}, now.count());
  static const double boot_time = BootTime();
  static const long ticks_per_second = sysconf(_SC_CLK_TCK), page_size = sysconf(_SC_PAGESIZE);
  ProcSelf& self = ProcSelf::Instance();
  const auto stat = ParseProcStat(self.Stat(), ticks_per_second, page_size, boot_time);
  if (stat) {
    b.Counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", {},
              stat->cpu_seconds);
    b.Gauge("process_resident_memory_bytes", "Resident memory size in bytes.", {},
            stat->resident_memory_bytes);
    b.Gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", {},
            stat->virtual_memory_bytes);
    b.Gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
            {}, stat->start_time_seconds);
  }
  if (const int fds = self.OpenFds(); fds >= 0) {
    b.Gauge("process_open_fds", "Number of open file descriptors.", {}, fds);
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    b.Gauge("process_max_fds", "Maximum number of open file descriptors.", {},
            static_cast<double>(limit.rlim_cur));
  }
  return b.Take();
}

}  // namespace ovn_raft
