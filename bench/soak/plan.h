// The plan: which kind each execution of a soak is. Deterministic for a seed, so a run that found
// a problem can be repeated exactly (the interleaving of concurrent executions is not).
#ifndef CODEMODE_BENCH_SOAK_PLAN_H_
#define CODEMODE_BENCH_SOAK_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "soak/kinds.h"

namespace codemode::soak {

// Entry i is the index in `kinds` of execution i. The first kinds.size() entries are every kind
// once, in order, so a warm-up of at least that many executions has touched every path; the rest
// are drawn by weight from std::mt19937_64 seeded with `seed` (its output is fixed by the C++
// standard, so a seed means the same plan everywhere).
std::vector<std::size_t> make_plan(const std::vector<SoakKind>& kinds, std::size_t executions,
                                   std::uint64_t seed);

// How many executions of each kind `plan` holds, indexed like `kinds`.
std::vector<std::size_t> planned_counts(const std::vector<std::size_t>& plan, std::size_t kinds);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_PLAN_H_
