#include "core/time/utc_millis.h"

#include <cstdio>

namespace codemode::internal {
namespace {

constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:dd.dddZ";

int digits(std::string_view text, std::size_t at, std::size_t count) {
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) value = value * 10 + (text[i] - '0');
  return value;
}

}  // namespace

std::optional<UtcMillis> parse_utc_millis(std::string_view text) {
  if (text.size() != kShape.size()) return std::nullopt;
  for (std::size_t i = 0; i < kShape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (kShape[i] == 'd' ? !digit : text[i] != kShape[i]) return std::nullopt;
  }
  using namespace std::chrono;
  const year_month_day date{year{digits(text, 0, 4)},
                            month{static_cast<unsigned>(digits(text, 5, 2))},
                            day{static_cast<unsigned>(digits(text, 8, 2))}};
  if (!date.ok()) return std::nullopt;
  const int hours_value = digits(text, 11, 2);
  const int minutes_value = digits(text, 14, 2);
  const int seconds_value = digits(text, 17, 2);
  if (hours_value > 23 || minutes_value > 59 || seconds_value > 59) return std::nullopt;
  const UtcMillis instant = sys_days{date} + hours{hours_value} + minutes{minutes_value} +
                            seconds{seconds_value} + milliseconds{digits(text, 20, 3)};
  if (format_utc_millis(instant) != text) return std::nullopt;
  return instant;
}

std::string format_utc_millis(UtcMillis instant) {
  using namespace std::chrono;
  const sys_days day_start = floor<days>(instant);
  const year_month_day date{day_start};
  const hh_mm_ss<milliseconds> time{instant - day_start};
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02ld:%02ld:%02lld.%03lldZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<long>(time.hours().count()),
                static_cast<long>(time.minutes().count()),
                static_cast<long long>(time.seconds().count()),
                static_cast<long long>(time.subseconds().count()));
  return text;
}

}  // namespace codemode::internal
