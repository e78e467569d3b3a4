#pragma once

// Pages compressed for clients that ask (Prometheus sends Accept-Encoding: gzip on every
// scrape): the text exposition shrinks about tenfold. Pure.

#include <string>
#include <string_view>

namespace ovn_raft {

// Whether an Accept-Encoding header value accepts gzip: a "gzip" (or "*") coding whose q is not
// 0, as RFC 9110 12.5.3 says; names are case-insensitive.
bool AcceptsGzip(std::string_view accept_encoding);

// `data` as a gzip stream (fastest level: the scrape path stays fast). "" on failure.
std::string Gzip(std::string_view data);

}  // namespace ovn_raft
