#pragma once

// Text from ovsdb-server becomes label values and JSON strings; one byte that is not UTF-8
// would make Prometheus reject the whole page. Invalid sequences become U+FFFD. Pure.

#include <string>
#include <string_view>

namespace ovn_raft {

// `text` with every byte sequence that is not well-formed UTF-8 (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF) replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

}  // namespace ovn_raft
