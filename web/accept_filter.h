#pragma once

// A look at each connection civetweb accepts, in its accepting thread, before it is queued for
// a worker. civetweb has no callback there (only its access list), and a connection that waits
// in its queue and then holds a worker while sending nothing costs a worker for the whole
// request timeout. The build links civetweb's accept() through accept_filter.cc's
// (-Wl,--wrap=accept), which shows every connection accepted on a registered port to that
// port's filter. Only a civetweb linked statically (-DOVN_RAFT_CIVETWEB=source) calls it:
// AcceptFiltersLinked() says whether this build does.

#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace ovn_raft {

// `fd`: the accepted connection; `peer`: its address. Returns false when it closed `fd`, which
// civetweb then never sees. Runs on civetweb's accepting thread: it must not block.
using AcceptFilter = std::function<bool(int fd, const sockaddr_storage& peer)>;

bool AcceptFiltersLinked();

// Registers `filter` for connections accepted on listening sockets bound to one of `ports`,
// until destroyed. The filter must outlive the registration.
class AcceptFilterRegistration {
 public:
  AcceptFilterRegistration(std::vector<std::uint16_t> ports, const AcceptFilter* filter);
  ~AcceptFilterRegistration();
  AcceptFilterRegistration(const AcceptFilterRegistration&) = delete;
  AcceptFilterRegistration& operator=(const AcceptFilterRegistration&) = delete;

 private:
  std::vector<std::uint16_t> ports_;
};

}  // namespace ovn_raft
