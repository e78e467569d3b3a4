#include "ovsdb/jsonrpc_message.h"

#include <gtest/gtest.h>

#include "base/utf8.h"
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
  const std::string request = EncodeServerDatabaseSelect("OVN_\"Northbound", 3);
  EXPECT_NE(request.find(R"("op":"select")"), std::string::npos);
  // One database, by name (escaped): not every row of the table.
  EXPECT_NE(request.find(R"("where":[["name","==","OVN_\"Northbound"]])"), std::string::npos)
      << request;
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

// Every field /status shows is valid UTF-8 and short, and a reply listing more rows than
// one database has is refused before any row is parsed.
TEST(JsonRpcMessageTest, ServerDatabaseRowsAreBoundedAndValidUtf8) {
  const std::string bad = "\xFF\xC3";
  const auto rows = DecodeServerDatabaseReply(
      R"({"id":1,"error":null,"result":[{"rows":[{"name":"OVN_Northbound","model":"x)" + bad +
      R"(","cid":["uuid","c)" + bad + R"("],"sid":["uuid",")" + std::string(5000, 's') +
      R"("]}]}]})");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  const ServerDatabase& db = rows.value()[0];
  EXPECT_EQ(db.model, ValidUtf8(db.model));
  EXPECT_EQ(db.model.find('\xFF'), std::string::npos);
  EXPECT_EQ(*db.cid, ValidUtf8(*db.cid));
  EXPECT_LT(db.sid->size(), 200u);
  std::string many = R"({"id":1,"error":null,"result":[{"rows":[)";
  for (int i = 0; i < 1000; ++i)
    many += std::string(i ? "," : "") + R"({"name":"db)" + std::to_string(i) + "\"}";
  many += "]}]}";
  const auto refused = DecodeServerDatabaseReply(many);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kProtocolError);
  EXPECT_NE(refused.error().message.find("1000 rows"), std::string::npos)
      << refused.error().message;
}

// An error text longer than the bound is cut between characters, never inside one.
TEST(JsonRpcMessageTest, LongErrorTextIsCutOnACharacterBoundary) {
  for (std::size_t pad = 0; pad < 4; ++pad) {
    std::string text(pad, 'a');
    for (int i = 0; i < 400; ++i) text += "\xE2\x82\xAC";  // three bytes each
    const auto error = DecodeUnixctlReply(R"({"id":0,"result":null,"error":")" + text + "\"}");
    ASSERT_FALSE(error.ok());
    EXPECT_EQ(error.error().message, ValidUtf8(error.error().message)) << pad;
    EXPECT_NE(error.error().message.find("bytes)"), std::string::npos);
  }
}

}  // namespace
}  // namespace ovn_raft
