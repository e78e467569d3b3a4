#include "process_metrics.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "family_builder.h"
#include "numbers.h"

namespace ovn_raft {
namespace {

std::string Slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double BootTime() {
  std::istringstream in(Slurp("/proc/stat"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("btime ", 0) == 0) return std::stod(line.substr(6));
  }
  return 0;
}

int OpenFds() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') ++n;
    }
    closedir(d);
    --n;  // the descriptor opendir itself holds
  }
  return n;
}

}  // namespace

std::optional<ProcStat> ParseProcStat(std::string_view stat, long ticks_per_second, long page_size,
                                      double boot_time) {
  // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
  const auto close = stat.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::istringstream fields{std::string(stat.substr(close + 2))};
  std::vector<std::string> f;
  for (std::string tok; fields >> tok;) f.push_back(tok);
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
  static const double boot_time = BootTime();
  const auto stat = ParseProcStat(Slurp("/proc/self/stat"), sysconf(_SC_CLK_TCK),
                                  sysconf(_SC_PAGESIZE), boot_time);
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
  b.Gauge("process_open_fds", "Number of open file descriptors.", {}, OpenFds());
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    b.Gauge("process_max_fds", "Maximum number of open file descriptors.", {},
            static_cast<double>(limit.rlim_cur));
  }
  return b.Take();
}

}  // namespace ovn_raft
