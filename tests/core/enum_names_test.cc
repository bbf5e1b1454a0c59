#include "core/text/enum_names.h"

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

enum class Shade { kLight, kDark, kUnnamed };

constexpr EnumNames<Shade, 2> kShadeNames{{
    {Shade::kLight, "light"},
    {Shade::kDark, "dark"},
}};
static_assert(names_are_unique(kShadeNames));
static_assert(name_of(kShadeNames, Shade::kDark) == "dark");  // usable at compile time

TEST(EnumNamesTest, NameOfGivesEachValuesNameOrTheFallback) {
  EXPECT_EQ(name_of(kShadeNames, Shade::kLight), "light");
  EXPECT_EQ(name_of(kShadeNames, Shade::kDark), "dark");
  EXPECT_EQ(name_of(kShadeNames, Shade::kUnnamed), "");
  EXPECT_EQ(name_of(kShadeNames, Shade::kUnnamed, "unknown"), "unknown");
}

TEST(EnumNamesTest, ValueOfTakesExactNamesOnly) {
  EXPECT_EQ(value_of(kShadeNames, "light"), Shade::kLight);
  EXPECT_EQ(value_of(kShadeNames, "dark"), Shade::kDark);
  for (std::string_view text : {"", "Dark", "dark ", "unknown"}) {
    EXPECT_FALSE(value_of(kShadeNames, text).has_value()) << text;
  }
}

TEST(EnumNamesTest, NamesAreUniqueSeesARepeatedValueOrName) {
  constexpr EnumNames<Shade, 2> kSameValue{{{Shade::kLight, "light"}, {Shade::kLight, "pale"}}};
  constexpr EnumNames<Shade, 2> kSameName{{{Shade::kLight, "light"}, {Shade::kDark, "light"}}};
  EXPECT_FALSE(names_are_unique(kSameValue));
  EXPECT_FALSE(names_are_unique(kSameName));
}

}  // namespace
}  // namespace codemode::internal
