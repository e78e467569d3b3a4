#include "metrics/text_exposition.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <cmath>
#include <limits>

#include "support/exposition.h"

namespace ovn_raft {
namespace {

prometheus::MetricFamily Family(const std::string& name, prometheus::MetricType type) {
  prometheus::MetricFamily f;
  f.name = name;
  f.help = "Help with \\ and\nnewline.";
  f.type = type;
  return f;
}

TEST(TextExpositionTest, FormatsLikeTheTextFormatSays) {
  auto g = Family("g", prometheus::MetricType::Gauge);
  g.metric.resize(2);
  g.metric[0].label = {{"a", "x\"y\\z\nw"}, {"b", "plain"}};
  g.metric[0].gauge.value = 0.001041203;
  g.metric[1].gauge.value = 1795345383.695;
  auto c = Family("c_total", prometheus::MetricType::Counter);
  c.metric.resize(1);
  c.metric[0].counter.value = 3;
  EXPECT_EQ(TextExposition({g, c}),
            "# HELP g Help with \\\\ and\\nnewline.\n# TYPE g gauge\n"
            "g{a=\"x\\\"y\\\\z\\nw\",b=\"plain\"} 0.001041203\ng 1795345383.695\n"
            "# HELP c_total Help with \\\\ and\\nnewline.\n# TYPE c_total counter\nc_total 3\n");
}

TEST(TextExpositionTest, SpecialValues) {
  auto g = Family("g", prometheus::MetricType::Gauge);
  g.metric.resize(3);
  g.metric[0].gauge.value = std::numeric_limits<double>::quiet_NaN();
  g.metric[1].gauge.value = std::numeric_limits<double>::infinity();
  g.metric[2].gauge.value = -std::numeric_limits<double>::infinity();
  const std::string text = TextExposition({g});
  EXPECT_NE(text.find("g NaN\n"), std::string::npos);
  EXPECT_NE(text.find("g +Inf\n"), std::string::npos);
  EXPECT_NE(text.find("g -Inf\n"), std::string::npos);
  g.metric[0].gauge.value = 1e9;
  g.metric[1].gauge.value = -3;
  g.metric[2].gauge.value = 1e300;
  const std::string numbers = TextExposition({g});
  EXPECT_NE(numbers.find("g 1000000000\n"), std::string::npos);
  EXPECT_NE(numbers.find("g -3\n"), std::string::npos);
  EXPECT_NE(numbers.find("g 1e+300\n"), std::string::npos);
}

TEST(TextExpositionTest, SameSamplesAsPrometheusCpp) {
  auto g = Family("ovn_raft_member_info", prometheus::MetricType::Gauge);
  g.help = "plain";  // prometheus-cpp 1.0.1 does not escape newlines in HELP
  for (int i = 0; i < 5; ++i) {
    g.metric.emplace_back();
    g.metric.back().label = {{"member_id", "id" + std::to_string(i)}, {"host", "10.0.0.1"}};
    g.metric.back().gauge.value = i * 0.1 + 1e9;
  }
  const testing::Exposition ours(TextExposition({g}));
  const testing::Exposition theirs(prometheus::TextSerializer().Serialize({g}));
  ASSERT_EQ(ours.size(), theirs.size());
  for (int i = 0; i < 5; ++i) {
    const std::map<std::string, std::string> l{{"member_id", "id" + std::to_string(i)}};
    EXPECT_DOUBLE_EQ(*ours.Value("ovn_raft_member_info", l),
                     *theirs.Value("ovn_raft_member_info", l));
  }
}

TEST(TextExpositionTest, OnlyGaugesAndCountersAreWritten) {
  auto h = Family("h", prometheus::MetricType::Histogram);
  h.metric.resize(1);
  h.metric[0].histogram.sample_count = 2;
  auto g = Family("g", prometheus::MetricType::Gauge);
  g.help = "help";
  g.metric.resize(1);
  g.metric[0].gauge.value = 3;
  EXPECT_EQ(TextExposition({h, g}), "# HELP g help\n# TYPE g gauge\ng 3\n");
}

}  // namespace
}  // namespace ovn_raft
