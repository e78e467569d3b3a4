#include "ovsdb/jsonrpc_message.h"

#include <gtest/gtest.h>

#include "support/ovsdb_calls.h"

namespace ovn_raft {
namespace {

TEST(JsonRpcMessageTest, EncodesUnixctlRequestWithStringParams) {
  EXPECT_EQ(EncodeUnixctlRequest("cluster/status", {"OVN_Northbound"}, 0),
            R"({"method":"cluster/status","params":["OVN_Northbound"],"id":0})");
  EXPECT_EQ(EncodeUnixctlRequest("list-commands", {}, 7),
            R"({"method":"list-commands","params":[],"id":7})");
  // Parameters are escaped, not spliced.
  EXPECT_EQ(EncodeUnixctlRequest("x", {"a\"b"}, 1), R"({"method":"x","params":["a\"b"],"id":1})");
}

TEST(JsonRpcMessageTest, ServerSelectIsReadOnly) {
  const std::string request = EncodeServerDatabaseSelect(3);
  EXPECT_NE(request.find(R"("op":"select")"), std::string::npos);
  EXPECT_EQ(request.find("insert"), std::string::npos);
  EXPECT_NE(request.find(R"("id":3)"), std::string::npos);
}

TEST(JsonRpcMessageTest, ClassifiesRepliesRequestsAndOtherIds) {
  EXPECT_EQ(ClassifyMessage(R"({"id":0,"result":"x","error":null})", 0).value(),
            MessageKind::kReplyToUs);
  EXPECT_EQ(ClassifyMessage(R"({"id":5,"result":"x","error":null})", 0).value(),
            MessageKind::kOther);
  EXPECT_EQ(ClassifyMessage(R"({"id":"echo","method":"echo","params":[]})", 0).value(),
            MessageKind::kOther);
  EXPECT_EQ(ClassifyMessage(R"({"result":1})", 0).error().code, ErrorCode::kProtocolError);
  EXPECT_EQ(ClassifyMessage(R"({"id":0,)", 0).error().code, ErrorCode::kInvalidJson);
}

TEST(JsonRpcMessageTest, DecodesUnixctlResultAndErrors) {
  EXPECT_EQ(DecodeUnixctlReply(R"({"id":0,"result":"line\nline","error":null})").value(),
            "line\nline");
  const auto unknown = DecodeUnixctlReply(R"({"id":0,"result":null,"error":"unknown cluster\n"})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::kRpcError);
  EXPECT_EQ(unknown.error().message, "unknown cluster");
  EXPECT_EQ(DecodeUnixctlReply(R"({"id":0,"result":42,"error":null})").error().code,
            ErrorCode::kProtocolError);
  EXPECT_EQ(DecodeUnixctlReply("[1]").error().code, ErrorCode::kProtocolError);
  EXPECT_EQ(DecodeUnixctlReply("{nope").error().code, ErrorCode::kInvalidJson);
}

TEST(JsonRpcMessageTest, DecodesServerDatabaseRowsIncludingJoiningForms) {
  const auto rows = DecodeServerDatabaseReply(R"({"id":1,"error":null,"result":[{"rows":[
    {"name":"OVN_Northbound","model":"clustered","connected":true,"leader":false,
     "cid":["uuid","5725c8ba-06c5-489d-9581-6e8866d05006"],
     "sid":["uuid","58cdce91-f70d-47fc-a9b5-efba4f647a90"],"index":17},
    {"name":"_Server","model":"standalone","connected":true,"leader":true,
     "cid":["set",[]],"sid":["set",[]],"index":["set",[]]},
    {"name":"Joining","model":"clustered","connected":false,"leader":false,
     "cid":["set",[]],"sid":["set",[]],"index":["set",[]]}]}]})");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows.value().size(), 3u);
  const ServerDatabase& nb = rows.value()[0];
  EXPECT_EQ(nb.name, "OVN_Northbound");
  EXPECT_EQ(nb.model, "clustered");
  EXPECT_TRUE(nb.connected);
  EXPECT_FALSE(nb.leader);
  EXPECT_EQ(nb.cid, "5725c8ba-06c5-489d-9581-6e8866d05006");
  EXPECT_EQ(nb.sid, "58cdce91-f70d-47fc-a9b5-efba4f647a90");
  EXPECT_EQ(nb.index, 17u);
  const ServerDatabase& joining = rows.value()[2];
  EXPECT_FALSE(joining.cid.has_value());
  EXPECT_FALSE(joining.sid.has_value());
  EXPECT_FALSE(joining.index.has_value());
}

TEST(JsonRpcMessageTest, ServerDatabaseErrors) {
  const auto top = DecodeServerDatabaseReply(
      R"({"id":1,"result":null,"error":{"error":"unknown database","details":"_Serverx"}})");
  EXPECT_EQ(top.error().code, ErrorCode::kRpcError);
  EXPECT_EQ(top.error().message, "unknown database: _Serverx");
  const auto op = DecodeServerDatabaseReply(
      R"({"id":1,"error":null,"result":[{"error":"unknown table","details":"x"}]})");
  EXPECT_EQ(op.error().code, ErrorCode::kRpcError);
  EXPECT_EQ(DecodeServerDatabaseReply(R"({"id":1,"error":null,"result":[]})").error().code,
            ErrorCode::kProtocolError);
  EXPECT_EQ(
      DecodeServerDatabaseReply(R"({"id":1,"error":null,"result":[{"rows":[{"model":"x"}]}]})")
          .error()
          .code,
      ErrorCode::kProtocolError);
}

}  // namespace
}  // namespace ovn_raft
