#include "metrics/family_builder.h"

#include <gtest/gtest.h>

#include "metrics/text_exposition.h"

namespace ovn_raft {
namespace {

std::vector<prometheus::MetricFamily> Page(FamilyBuilder b, bool with_b) {
  b.Gauge("a", "Help of a, long enough for the heap.", {{"db", "NB"}}, 1);
  if (with_b) b.Counter("b_total", "Help of b.", {}, 2);
  b.Gauge("c", "Help of c.", {{"db", "NB"}}, 3);
  b.Gauge("a", "Help of a, long enough for the heap.", {{"db", "SB"}}, 4);
  return b.Take();
}

TEST(FamilyBuilderTest, OneFamilyPerNameInTheOrderOfFirstUse) {
  EXPECT_EQ(TextExposition(Page(FamilyBuilder(), true)),
            "# HELP a Help of a, long enough for the heap.\n# TYPE a gauge\na{db=\"NB\"} "
            "1\na{db=\"SB\"} 4\n"
            "# HELP b_total Help of b.\n# TYPE b_total counter\nb_total 2\n"
            "# HELP c Help of c.\n# TYPE c gauge\nc{db=\"NB\"} 3\n");
}

}  // namespace
}  // namespace ovn_raft
