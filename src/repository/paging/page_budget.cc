#include "repository/paging/page_budget.h"

#include <utility>

#include "core/json/json_text.h"
#include "repository/paging/page_cursor.h"

namespace codemode::repository {
namespace {

std::string compact(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The most the members finish_page adds can take: a full-length cursor and the widest budget.
std::size_t closing_reserve() {
  const Json widest{{"has_more", false},
                    {"next_cursor", std::string(kMaxCursorBytes, 'x')},
                    {"budget",
                     {{"requested_bytes", kMaxPageBytes},
                      {"serialized_bytes", kMaxPageBytes},
                      {"remaining_bytes", kMaxPageBytes},
                      {"warning", kNearLimitWarning}}}};
  return compact(widest).size();  // its braces pay for the commas that join it
}

}  // namespace

std::size_t json_size(const Json& value) { return compact(value).size(); }

std::size_t json_string_size(std::string_view text) {
  std::optional<std::size_t> length = internal::quoted_length(text);
  return length ? *length : json_size(Json(std::string(text)));
}

PageBudget::PageBudget(std::size_t max_bytes, const Json& envelope)
    : used_(json_size(envelope) + closing_reserve()), limit_(max_bytes) {}

bool PageBudget::take(std::size_t bytes) {
  if (!fits(bytes)) return false;
  used_ += bytes;
  return true;
}

std::string cut_to_fit(std::string text, std::size_t bytes) {
  std::size_t size = json_string_size(text);
  while (size > bytes && !text.empty()) {
    const std::size_t excess = size - bytes;
    const std::size_t keep = text.size() > excess ? text.size() - excess : 0;
    text = internal::cut_utf8(std::move(text), keep);
    size = json_string_size(text);
  }
  return text;
}

Json finish_page(Json page, std::size_t max_bytes, const std::optional<std::string>& next_cursor) {
  page["has_more"] = next_cursor.has_value();
  page["next_cursor"] = next_cursor ? Json(*next_cursor) : Json(nullptr);
  page.erase("budget");
  // The budget describes the answer that holds it. The page is measured once; adding the member
  // adds `,"budget":` (10 bytes) and the object itself, whose own numbers are iterated until they
  // stop moving.
  const std::size_t without = json_size(page);
  std::size_t serialized = without;
  Json budget;
  for (int round = 0; round < 8; ++round) {
    budget = Json{{"requested_bytes", max_bytes},
                  {"serialized_bytes", serialized},
                  {"remaining_bytes", serialized >= max_bytes ? 0 : max_bytes - serialized}};
    if (serialized * 5 >= max_bytes * 4) budget["warning"] = kNearLimitWarning;
    const std::size_t measured = without + 10 + json_size(budget);
    if (measured == serialized) break;
    serialized = measured;
  }
  page["budget"] = std::move(budget);
  return page;
}

}  // namespace codemode::repository
