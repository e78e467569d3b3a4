#include "web/response_headers.h"

#include <algorithm>
#include <utility>

namespace ovn_raft {

void ResponseHeaders::Replace(std::map<std::string, std::string> headers) {
  std::erase_if(headers, [](const auto& h) { return h.second.empty(); });
  auto fresh = headers.empty()
                   ? nullptr
                   : std::make_shared<const std::map<std::string, std::string>>(std::move(headers));
  const std::lock_guard<std::mutex> lock(mu_);
  headers_ = std::move(fresh);
}

void ResponseHeaders::AddTo(HttpResponse& response) const {
  std::shared_ptr<const std::map<std::string, std::string>> headers;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    headers = headers_;
  }
  if (!headers) return;
  for (const auto& [name, value] : *headers) {
    const bool present = std::any_of(response.headers.begin(), response.headers.end(),
                                     [&header = name](const auto& h) { return h.first == header; });
    if (!present) response.headers.emplace_back(name, value);
  }
}

}  // namespace ovn_raft
