// libFuzzer target: framing a byte stream into JSON-RPC messages, fed in pieces of varying size
// as a socket would deliver them, then decoding each message both ways.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ovsdb/jsonrpc_framing.h"
#include "ovsdb/jsonrpc_message.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t piece = 1 + data[0] % 64;
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);

  ovn_raft::JsonFramer incremental;
  std::string buffer;
  auto state = ovn_raft::JsonFramer::State::kIncomplete;
  for (std::size_t at = 0; at < stream.size() && state == ovn_raft::JsonFramer::State::kIncomplete;
       at += piece) {
    buffer.append(stream.substr(at, piece));
    state = incremental.Scan(buffer);
  }
  // Piecewise framing must agree with framing the whole stream at once.
  ovn_raft::JsonFramer whole;
  const auto whole_state = whole.Scan(stream);
  if (state != whole_state) __builtin_trap();
  if (state != ovn_raft::JsonFramer::State::kComplete) return 0;
  if (incremental.message_end() != whole.message_end()) __builtin_trap();

  const std::string_view message = stream.substr(0, whole.message_end());
  // As the client does: each message parsed once, then classified and decoded.
  const auto doc = ovn_raft::ParseJsonMessage(message);
  if (doc) {
    (void)ovn_raft::ClassifyMessage(doc.value(), 0);
    (void)ovn_raft::DecodeUnixctlReply(doc.value());
    (void)ovn_raft::DecodeServerDatabaseReply(doc.value());
  }
  return 0;
}
