#include "support/fake_ovsdb_server.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <regex>
#include <utility>

namespace ovn_raft::testing {
namespace {

std::string JsonString(const std::string& s) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return buffer.GetString();
}

}  // namespace

std::string RequestId(const std::string& request) {
  std::smatch m;
  return std::regex_search(request, m, std::regex(R"re("id"\s*:\s*(\d+))re")) ? m[1].str() : "0";
}

std::string RequestMethod(const std::string& request) {
  std::smatch m;
  return std::regex_search(request, m, std::regex(R"re("method"\s*:\s*"([^"]*)")re")) ? m[1].str()
                                                                                      : "";
}

std::string ReplyText(const std::string& request, const std::string& text) {
  return ReplyJson(request, JsonString(text));
}

std::string ReplyJson(const std::string& request, const std::string& json) {
  return R"({"id":)" + RequestId(request) + R"(,"result":)" + json + R"(,"error":null})";
}

std::string ReplyError(const std::string& request, const std::string& error) {
  return R"({"id":)" + RequestId(request) + R"(,"result":null,"error":)" + JsonString(error) + "}";
}

FakeOvsdbServer::FakeOvsdbServer(std::map<std::string, std::string> texts,
                                 std::set<std::string> silent) {
  server_ =
      std::make_unique<FakeUnixServer>([this, texts = std::move(texts), silent = std::move(silent)](
                                           int fd, const std::string& request) {
        const std::string method = RequestMethod(request);
        if (silent.count(method) != 0) return server_->Hang();
        const auto it = texts.find(method);
        FakeUnixServer::WriteAll(
            fd, it != texts.end() ? ReplyText(request, it->second)
                                  : ReplyError(request, "\"" + method +
                                                            "\" is not a valid command (use "
                                                            "\"list-commands\" to see a list "
                                                            "of valid commands)"));
      });
}

}  // namespace ovn_raft::testing
