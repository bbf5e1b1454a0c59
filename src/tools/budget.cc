#include "codemode/budget.h"

#include <limits>
#include <mutex>
#include <utility>

#include "codemode/json.h"

namespace codemode {
namespace {

bool in_range(std::int64_t value, std::int64_t low) {
  return value >= low && value <= kMaxSafeInteger;
}

// Settlements beyond the reservation are recorded, so spent can outgrow the limit; saturate rather
// than overflow when a broken tool reports absurd usage again and again.
std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  if (a > std::numeric_limits<std::int64_t>::max() - b)
    return std::numeric_limits<std::int64_t>::max();
  return a + b;
}

}  // namespace

struct Budget::Ledger {
  std::mutex mu;
  BudgetSnapshot state;  // guarded by mu
};

Budget::Budget(BudgetLimits limits) : limits_(limits), ledger_(std::make_unique<Ledger>()) {}

Budget::~Budget() = default;

Result<std::shared_ptr<Budget>> Budget::create(BudgetLimits limits) {
  if (!in_range(limits.max_cost_micros, 0)) {
    return Error::invalid_config("budget",
                                 "Budget max_cost_micros must be an integer from 0 to 2^53-1.");
  }
  if (!in_range(limits.max_calls, 1)) {
    return Error::invalid_config("budget", "Budget max_calls must be an integer from 1 to 2^53-1.");
  }
  // Not make_shared: the constructor is private so that every Budget is owned by a shared_ptr.
  return std::shared_ptr<Budget>(new Budget(limits));
}

Result<BudgetReservation> Budget::reserve(std::int64_t max_cost_micros) {
  if (!in_range(max_cost_micros, 0)) {
    return Error::invalid_config(
        "budget", "A budget reservation must be an integer from 0 to 2^53-1 micros.");
  }
  std::lock_guard lock(ledger_->mu);
  BudgetSnapshot& state = ledger_->state;
  if (state.calls >= limits_.max_calls) {
    return Error::budget_exceeded("budget_calls", "The budget has no tool calls left.");
  }
  const std::int64_t available =
      limits_.max_cost_micros - state.spent_micros - state.reserved_micros;
  if (max_cost_micros > available) {
    return Error::budget_exceeded(
        "budget_cost", "The budget has too little money left for this tool's declared cost.");
  }
  state.calls += 1;
  state.reserved_micros += max_cost_micros;
  return BudgetReservation(shared_from_this(), max_cost_micros);
}

BudgetSnapshot Budget::snapshot() const {
  std::lock_guard lock(ledger_->mu);
  return ledger_->state;
}

Status Budget::settle(std::int64_t bound, std::int64_t known, std::int64_t unknown) {
  std::lock_guard lock(ledger_->mu);
  BudgetSnapshot& state = ledger_->state;
  state.reserved_micros = saturating_add(state.reserved_micros - bound, unknown);
  state.spent_micros = saturating_add(state.spent_micros, known);
  if (known + unknown > bound) {
    return Error::budget_exceeded("budget_settlement",
                                  "A tool call settled more than it reserved from the budget.");
  }
  return {};
}

BudgetReservation::BudgetReservation(BudgetReservation&& other) noexcept
    : budget_(std::move(other.budget_)), bound_(std::exchange(other.bound_, 0)) {}

BudgetReservation& BudgetReservation::operator=(BudgetReservation&& other) noexcept {
  if (this != &other) {
    if (budget_) (void)budget_->settle(bound_, 0, 0);
    budget_ = std::move(other.budget_);
    bound_ = std::exchange(other.bound_, 0);
  }
  return *this;
}

BudgetReservation::~BudgetReservation() {
  // Unsettled: the call did not run, so nothing was spent. It cannot exceed the bound.
  if (budget_) (void)budget_->settle(bound_, 0, 0);
}

Status BudgetReservation::settle(std::int64_t known_micros, std::int64_t unknown_micros) {
  if (!budget_) {
    return Error::conflict("budget_settled_twice", "This budget reservation was settled already.");
  }
  if (!in_range(known_micros, 0) || !in_range(unknown_micros, 0)) {
    return Error::invalid_config("budget",
                                 "A budget settlement must use integers from 0 to 2^53-1 micros.");
  }
  return std::exchange(budget_, nullptr)->settle(bound_, known_micros, unknown_micros);
}

}  // namespace codemode
