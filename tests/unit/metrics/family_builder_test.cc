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

// An earlier page handed back gives the same page as a fresh builder, whatever it held: its
// samples go, a family with no sample this time is not emitted, and names, help texts and
// types are this page's, not the earlier one's.
TEST(FamilyBuilderTest, AnEarlierPageHandedBackChangesNothingButMemory) {
  const std::string with_b = TextExposition(Page(FamilyBuilder(), true));
  const std::string without_b = TextExposition(Page(FamilyBuilder(), false));
  auto earlier = Page(FamilyBuilder(), true);
  const std::string* help_memory = &earlier[0].help;
  const char* help_text = earlier[0].help.data();
  auto next = Page(FamilyBuilder(0, std::move(earlier)), true);
  EXPECT_EQ(TextExposition(next), with_b);
  EXPECT_EQ(&next[0].help, help_memory);  // the same family, reused in place
  EXPECT_EQ(next[0].help.data(), help_text);
  EXPECT_EQ(TextExposition(Page(FamilyBuilder(0, std::move(next)), false)), without_b);

  FamilyBuilder other(0, Page(FamilyBuilder(), true));
  other.Counter("z_total", "Help of z.", {}, 9);
  EXPECT_EQ(TextExposition(other.Take()),
            "# HELP z_total Help of z.\n# TYPE z_total counter\nz_total 9\n");
}

}  // namespace
}  // namespace ovn_raft
