#include "prometheus_client.h"

#include <rapidjson/document.h>

#include <utility>

#include "exporter_process.h"

namespace ovn_raft::testing {

Result<std::vector<QuerySample>, std::string> PrometheusQuery(int port, const std::string& promql) {
  const std::string url =
      "http://127.0.0.1:" + std::to_string(port) + "/api/v1/query?query=" + UrlEscape(promql);
  const HttpResult r = HttpGet(url);
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  if (r.status != 200 || d.HasParseError() || !d.IsObject() || !d.HasMember("data")) {
    return "HTTP " + std::to_string(r.status) + ": " + r.body.substr(0, 300);
  }
  std::vector<QuerySample> out;
  for (const auto& s : d["data"]["result"].GetArray()) {
    QuerySample q;
    for (const auto& l : s["metric"].GetObject()) {
      q.labels[l.name.GetString()] = l.value.GetString();
    }
    q.value = std::stod(s["value"][1].GetString());
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<QuerySample> PolledQuery(int port, const std::string& promql) {
  auto r = PrometheusQuery(port, promql);
  return r ? std::move(r).value() : std::vector<QuerySample>{};
}

}  // namespace ovn_raft::testing
