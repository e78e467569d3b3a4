#pragma once

// Errors as values: nothing in the read path throws. Every failure to read a database carries a
// code (also the `reason` label of ovn_raft_exporter_errors_total) and a message for the log.

#include <string>

#include "base/result.h"

namespace ovn_raft {

enum class ErrorCode {
  kSocketMissing,        // no such socket file
  kPermissionDenied,     // the socket exists but may not be opened
  kConnectFailed,        // refused or any other connect error (server not listening)
  kTimeout,              // the deadline passed before a full reply arrived
  kConnectionClosed,     // the server closed the connection before a full reply
  kReplyTooLarge,        // the reply exceeded the size bound
  kInvalidJson,          // bytes that are not JSON
  kRpcError,             // a well-formed error reply, e.g. "unknown cluster"
  kProtocolError,        // JSON, but not the shape the protocol promises
  kNotClustered,         // no Raft status, and _Server names a model this exporter does not know
  kViewTooLarge,         // the status lists more members than --ovsdb.max-members
  kRoundBudgetExceeded,  // the read round's memory budget for the database was spent
  kFileUnreadable,       // the database file given to watch could not be stat'ed
  kScrapeTimeout,        // the scraper's deadline came while the database was still being read
};

// Every code, in order: the reasons the errors counter starts at 0. A standalone or relay
// database is read as what it is and counts no kNotClustered; the reason stays listed all the
// same, so that no series of the page disappears for a dashboard or rule that reads it.
inline constexpr ErrorCode kAllErrorCodes[] = {
    ErrorCode::kSocketMissing,  ErrorCode::kPermissionDenied, ErrorCode::kConnectFailed,
    ErrorCode::kTimeout,        ErrorCode::kConnectionClosed, ErrorCode::kReplyTooLarge,
    ErrorCode::kInvalidJson,    ErrorCode::kRpcError,         ErrorCode::kProtocolError,
    ErrorCode::kNotClustered,   ErrorCode::kViewTooLarge,     ErrorCode::kRoundBudgetExceeded,
    ErrorCode::kFileUnreadable, ErrorCode::kScrapeTimeout,
};

// Stable snake_case name of a code.
inline const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kSocketMissing:
      return "socket_missing";
    case ErrorCode::kPermissionDenied:
      return "permission_denied";
    case ErrorCode::kConnectFailed:
      return "connect_failed";
    case ErrorCode::kTimeout:
      return "timeout";
    case ErrorCode::kConnectionClosed:
      return "connection_closed";
    case ErrorCode::kReplyTooLarge:
      return "reply_too_large";
    case ErrorCode::kInvalidJson:
      return "invalid_json";
    case ErrorCode::kRpcError:
      return "rpc_error";
    case ErrorCode::kProtocolError:
      return "protocol_error";
    case ErrorCode::kNotClustered:
      return "not_clustered";
    case ErrorCode::kViewTooLarge:
      return "view_too_large";
    case ErrorCode::kRoundBudgetExceeded:
      return "round_budget_exceeded";
    case ErrorCode::kFileUnreadable:
      return "file_unreadable";
    case ErrorCode::kScrapeTimeout:
      return "scrape_timeout";
  }
  return "unknown";
}

struct Error {
  ErrorCode code;
  std::string message;
};

// A value or a read error.
template <typename T>
using ReadResult = Result<T, Error>;

}  // namespace ovn_raft
