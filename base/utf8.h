#pragma once

// Text from the network (ovsdb-server's replies, its error strings) becomes label values, JSON
// strings and log lines; one byte that is not UTF-8 would make Prometheus reject the whole page
// and strict JSON readers the whole document. Invalid sequences become U+FFFD. Pure.

#include <string>
#include <string_view>

namespace ovn_raft {

// `text` with every byte sequence that is not well-formed UTF-8 (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF) replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

// The longest start of `text` of at most `max_bytes` that does not end inside a character:
// a cut that keeps valid text valid.
std::string_view Utf8Prefix(std::string_view text, std::size_t max_bytes);

// ValidUtf8 of a start of `text` cut on a character boundary, with "... (N bytes)" when cut.
std::string BoundedUtf8(std::string_view text, std::size_t max_bytes);

}  // namespace ovn_raft
