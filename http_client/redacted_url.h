#pragma once

// A URL as it may be shown: a password (or a token) embedded in it is never printed. Pure.

#include <string>

namespace ovn_raft {

// `url` with its userinfo (what precedes '@' in the authority, "user:password" or a token)
// replaced by "xxxxx": "https://me:secret@host:1/x" -> "https://xxxxx@host:1/x". A URL without
// userinfo is returned as given; one without a scheme is read as curl reads it (host first).
std::string RedactedUrl(const std::string& url);

}  // namespace ovn_raft
