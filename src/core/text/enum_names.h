// A closed enum's names, as one constexpr table of {value, name} rows and the two lookups every
// such table needs, so that each table is written once and searched one way.
//
//   enum class Side { kLeft, kRight };
//   constexpr EnumNames<Side, 2> kSideNames{{
//       {Side::kLeft, "left"},
//       {Side::kRight, "right"},
//   }};
//   name_of(kSideNames, Side::kRight)   // "right"; the fallback (default "") for no row
//   value_of(kSideNames, "left")        // std::optional<Side>
//
// Tables are short (at most a few dozen rows), so a lookup is a scan.
//
// Thread-safety: constexpr functions over constant tables.
#ifndef CODEMODE_CORE_TEXT_ENUM_NAMES_H_
#define CODEMODE_CORE_TEXT_ENUM_NAMES_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace codemode::internal {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

template <typename Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

// The name of `value`, or `fallback` when no row holds it.
template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& names, Enum value,
                                   std::string_view fallback = {}) {
  for (const EnumName<Enum>& row : names) {
    if (row.value == value) return row.name;
  }
  return fallback;
}

// The value named `text` exactly; nullopt when no row has that name.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const EnumNames<Enum, N>& names, std::string_view text) {
  for (const EnumName<Enum>& row : names) {
    if (row.name == text) return row.value;
  }
  return std::nullopt;
}

// Whether every value and every name appears once: a table's static_assert.
template <typename Enum, std::size_t N>
constexpr bool names_are_unique(const EnumNames<Enum, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (names[i].value == names[j].value || names[i].name == names[j].name) return false;
    }
  }
  return true;
}

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TEXT_ENUM_NAMES_H_
