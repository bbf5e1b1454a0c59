// Order statistics of a sample: the bench reports medians and 90th percentiles, never means,
// because a shared machine's noise comes in one-sided bursts.
#ifndef CODEMODE_BENCH_PERF_STATS_H_
#define CODEMODE_BENCH_PERF_STATS_H_

#include <cstddef>
#include <optional>
#include <vector>

namespace codemode::perf {

struct Distribution {
  std::size_t count = 0;
  double median = 0;
  double p90 = 0;
  double max = 0;
};

// Nearest-rank percentiles (the value at rank ceil(p x n)); nullopt for an empty sample.
std::optional<Distribution> distribution(std::vector<double> values);

// a / b, or nullopt when either is missing or b is not positive.
std::optional<double> ratio(std::optional<double> a, std::optional<double> b);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_STATS_H_
