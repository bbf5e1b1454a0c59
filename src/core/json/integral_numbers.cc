#include "core/json/integral_numbers.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace codemode::internal {
namespace {

bool is_integral_float(const Json& value) {
  if (!value.is_number_float()) return false;
  const double x = value.get<double>();
  return std::isfinite(x) && std::trunc(x) == x;
}

}  // namespace

bool has_integral_float(const Json& value) {
  std::vector<const Json*> pending{&value};
  while (!pending.empty()) {
    const Json* node = pending.back();
    pending.pop_back();
    if (is_integral_float(*node)) return true;
    if (node->is_structured()) {
      for (const Json& child : *node) pending.push_back(&child);
    }
  }
  return false;
}

void integral_floats_to_integers(Json& value) {
  std::vector<Json*> pending{&value};
  while (!pending.empty()) {
    Json* node = pending.back();
    pending.pop_back();
    if (is_integral_float(*node)) {
      *node = static_cast<std::int64_t>(node->get<double>());
    } else if (node->is_structured()) {
      for (Json& child : *node) pending.push_back(&child);
    }
  }
}

}  // namespace codemode::internal
