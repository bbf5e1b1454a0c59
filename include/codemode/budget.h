// Budget is a ledger of money (in micros: millionths of a US dollar) and calls, shared by every
// tool call that is given it. Before a tool runs, the broker reserves the tool's declared maximum
// cost and one call; afterwards it settles what is known to be spent and what is unknown.
//
//   auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 20}).value();
//
// max_cost_micros 0 admits only zero-cost tools; every admission counts against max_calls, zero
// cost or not. Unknown cost stays reserved for good: the money may have been spent.
//
// Ownership: create returns a shared_ptr; each BudgetReservation keeps its Budget alive.
// Thread-safety: every method is thread-safe; one Budget may be shared across threads (its ledger
// is guarded by a lock private to budget.cc).
#ifndef CODEMODE_BUDGET_H_
#define CODEMODE_BUDGET_H_

#include <cstdint>
#include <memory>

#include "codemode/error.h"
#include "codemode/export.h"

namespace codemode {

struct BudgetLimits {
  std::int64_t max_cost_micros = 0;  // 0 .. 2^53-1
  std::int64_t max_calls = 1;        // 1 .. 2^53-1
};

struct BudgetSnapshot {
  std::int64_t spent_micros = 0;
  std::int64_t reserved_micros = 0;
  std::int64_t calls = 0;
  friend bool operator==(const BudgetSnapshot&, const BudgetSnapshot&) = default;
};

class BudgetReservation;

class CODEMODE_EXPORT Budget : public std::enable_shared_from_this<Budget> {
 public:
  // INVALID_CONFIG (rule "budget") when a limit is out of range.
  static Result<std::shared_ptr<Budget>> create(BudgetLimits limits);

  // Reserves `max_cost_micros` and one call. BUDGET_EXCEEDED with rule "budget_calls" when no call
  // is left, or "budget_cost" when the money left is less than max_cost_micros.
  Result<BudgetReservation> reserve(std::int64_t max_cost_micros);

  BudgetSnapshot snapshot() const;
  BudgetLimits limits() const { return limits_; }

  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;
  ~Budget();

 private:
  friend class BudgetReservation;
  struct Ledger;  // the snapshot and the lock that guards it
  explicit Budget(BudgetLimits limits);
  Status settle(std::int64_t bound, std::int64_t known, std::int64_t unknown);

  const BudgetLimits limits_;
  const std::unique_ptr<Ledger> ledger_;
};

// One reservation: move-only. Settle it once; a reservation destroyed unsettled releases its money
// as if nothing was spent (the call did not run). The call it counted stays counted.
class CODEMODE_EXPORT BudgetReservation {
 public:
  BudgetReservation(BudgetReservation&& other) noexcept;
  BudgetReservation& operator=(BudgetReservation&& other) noexcept;
  BudgetReservation(const BudgetReservation&) = delete;
  BudgetReservation& operator=(const BudgetReservation&) = delete;
  ~BudgetReservation();

  // Records `known_micros` as spent and keeps `unknown_micros` reserved; releases the rest.
  // BUDGET_EXCEEDED (rule "budget_settlement") when known + unknown exceeds the reservation (the
  // usage is still recorded); CONFLICT (rule "budget_settled_twice") on a second settle.
  Status settle(std::int64_t known_micros, std::int64_t unknown_micros);

  std::int64_t reserved_micros() const { return bound_; }

 private:
  friend class Budget;
  BudgetReservation(std::shared_ptr<Budget> budget, std::int64_t bound)
      : budget_(std::move(budget)), bound_(bound) {}

  std::shared_ptr<Budget> budget_;  // null once settled or moved from
  std::int64_t bound_ = 0;
};

}  // namespace codemode

#endif  // CODEMODE_BUDGET_H_
