// Fitting one page within the caller's max_bytes: the whole answer, as compact JSON, is at most
// max_bytes; it reports the bytes it used and what was left, and warns at 80% so a program can ask
// for fewer fields or follow next_cursor.
//
//   PageBudget budget(max_bytes, envelope);          // the answer without its items
//   for (...) if (!budget.take(json_size(item) + 1)) break;  // +1: the comma
//   Json page = finish_page(std::move(envelope_with_items), max_bytes, next_cursor);
//
// take() keeps room for the largest cursor and budget object finish_page adds, so a finished page
// never passes max_bytes.
#ifndef CODEMODE_REPOSITORY_PAGING_PAGE_BUDGET_H_
#define CODEMODE_REPOSITORY_PAGING_PAGE_BUDGET_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "codemode/json.h"

namespace codemode::repository {

inline constexpr std::size_t kMinPageBytes = 1'024;
inline constexpr std::size_t kMaxPageBytes = 262'144;
inline constexpr std::size_t kDefaultPageBytes = 65'536;

inline constexpr std::string_view kNearLimitWarning =
    "response is near max_bytes; return fewer fields or continue with next_cursor";

class PageBudget {
 public:
  PageBudget(std::size_t max_bytes, const Json& envelope);

  // Whether `bytes` more fit; when they do they are counted.
  bool take(std::size_t bytes);
  bool fits(std::size_t bytes) const { return used_ + bytes <= limit_; }
  // The bytes still free.
  std::size_t room() const { return used_ < limit_ ? limit_ - used_ : 0; }
  // Whether the envelope alone, with room for the cursor and budget, fits at all.
  bool viable() const { return used_ <= limit_; }

 private:
  std::size_t used_;
  std::size_t limit_;
};

// The compact JSON size of a value.
std::size_t json_size(const Json& value);
// The compact JSON size of a string value, quotes included. REQUIRES: valid UTF-8.
std::size_t json_string_size(std::string_view text);

// The longest prefix of `text` (valid UTF-8) whose JSON string fits `bytes`.
std::string cut_to_fit(std::string text, std::size_t bytes);

// Adds has_more, next_cursor (null when there is none) and budget {requested_bytes,
// serialized_bytes, remaining_bytes, warning?} to `page`.
Json finish_page(Json page, std::size_t max_bytes, const std::optional<std::string>& next_cursor);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_PAGING_PAGE_BUDGET_H_
