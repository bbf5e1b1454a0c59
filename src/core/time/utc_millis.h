// The promotion's timestamps: UTC with milliseconds, exactly "YYYY-MM-DDTHH:MM:SS.mmmZ" (what
// JavaScript's Date.prototype.toISOString writes for years 0000..9999). A text is accepted only
// if formatting its instant gives the same text back, so "2026-02-30T..." and "24:00" are refused.
#ifndef CODEMODE_CORE_TIME_UTC_MILLIS_H_
#define CODEMODE_CORE_TIME_UTC_MILLIS_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace codemode::internal {

using UtcMillis = std::chrono::sys_time<std::chrono::milliseconds>;

std::optional<UtcMillis> parse_utc_millis(std::string_view text);
std::string format_utc_millis(UtcMillis instant);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TIME_UTC_MILLIS_H_
