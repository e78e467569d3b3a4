#include "parsers/server_entry_parser.h"

#include "base/strings.h"
#include "parsers/address.h"

namespace ovn_raft {
namespace {

void SkipSpaces(std::string_view& text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
}

std::string_view TakeWord(std::string_view& text) {
  const auto space = text.find(' ');
  std::string_view word = text.substr(0, space);
  text.remove_prefix(space == std::string_view::npos ? text.size() : space);
  return word;
}

// A parenthesised flag after the member head: "(self)", "(adding: catchup)", "(voted for X)".
bool ApplyFlag(std::string_view flag, ServerEntry* entry) {
  if (flag == "self") {
    entry->self = true;
  } else if (flag == "adding: catchup") {
    entry->phase = ServerPhase::kCatchup;
  } else if (flag == "adding: caught up") {
    entry->phase = ServerPhase::kCaughtUp;
  } else if (flag == "adding: committing") {
    entry->phase = ServerPhase::kCommitting;
  } else if (flag == "removing") {
    entry->phase = ServerPhase::kRemoving;
  } else if (ConsumePrefix(flag, "voted for ") && !flag.empty()) {
    entry->voted_for = std::string(flag);
  } else {
    return false;
  }
  return true;
}

// "PREFIX<number>SUFFIX" at the front of `text`, e.g. "next_index=5" or "last msg 3 ms ago".
bool ConsumeNumber(std::string_view& text, std::string_view prefix, std::string_view suffix,
                   std::optional<std::uint64_t>* out) {
  std::string_view cursor = text;
  if (!ConsumePrefix(cursor, prefix)) return false;
  const auto digits = cursor.find_first_not_of("0123456789");
  const auto value = ParseUint(cursor.substr(0, digits));
  if (!value) return false;
  cursor.remove_prefix(digits == std::string_view::npos ? cursor.size() : digits);
  if (!ConsumePrefix(cursor, suffix)) return false;
  if (!cursor.empty() && cursor.front() != ' ') return false;
  *out = value;
  text = cursor;
  return true;
}

}  // namespace

std::optional<MemberHead> ParseMemberHead(std::string_view text) {
  text = Trim(text);
  const auto open = text.find(" (");
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  MemberHead head;
  head.nickname = std::string(text.substr(0, open));
  text.remove_prefix(open + 2);
  const auto at = text.find(" at ");
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  const auto close = text.find(')', at);
  if (close == std::string_view::npos || close == at + 4) return std::nullopt;
  head.server_id = std::string(text.substr(0, at));
  head.address = ParseAddress(text.substr(at + 4, close - at - 4));
  head.rest = text.substr(close + 1);
  return head;
}

Result<ParsedServerEntry, std::string> ParseServerEntry(std::string_view line) {
  auto head = ParseMemberHead(line);
  if (!head) return std::string("not a server entry: expected \"NICK (SID at ADDRESS)\"");
  ParsedServerEntry out;
  ServerEntry& entry = out.entry;
  entry.nickname = std::move(head->nickname);
  entry.server_id = std::move(head->server_id);
  entry.address = std::move(head->address);
  std::string_view rest = head->rest;
  for (SkipSpaces(rest); !rest.empty(); SkipSpaces(rest)) {
    if (rest.front() == '(') {
      const auto close = rest.find(')');
      if (close == std::string_view::npos || !ApplyFlag(rest.substr(1, close - 1), &entry)) {
        out.warning = "unknown flag " +
                      std::string(rest.substr(0, close == rest.npos ? rest.size() : close + 1));
        return out;
      }
      rest.remove_prefix(close + 1);
      continue;
    }
    if (ConsumeNumber(rest, "next_index=", "", &entry.next_index) ||
        ConsumeNumber(rest, "match_index=", "", &entry.match_index) ||
        ConsumeNumber(rest, "last msg ", " ms ago", &entry.last_msg_ms_ago)) {
      continue;
    }
    out.warning = "unknown field " + std::string(TakeWord(rest));
    return out;
  }
  return out;
}

}  // namespace ovn_raft
