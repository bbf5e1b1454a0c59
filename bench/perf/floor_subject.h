// The floor baseline: fork+exec of a program that does nothing (/bin/true by default) per
// execution, through the same spawn-pipe-reap path as the QuickJS baseline. Nothing that starts a
// fresh process per execution can be faster, so codemode's trivial execution is compared with it.
// It runs only the "trivial" workload.
#ifndef CODEMODE_BENCH_PERF_FLOOR_SUBJECT_H_
#define CODEMODE_BENCH_PERF_FLOOR_SUBJECT_H_

#include <string>

#include "perf/subject.h"

namespace codemode::perf {

class FloorSubject final : public Subject {
 public:
  explicit FloorSubject(std::string program) : program_(std::move(program)) {}

  std::string name() const override { return "floor"; }
  bool supports(const Workload& workload) const override { return workload.name == "trivial"; }
  ExecutionResult run(const Workload& workload, std::size_t sequence) override;

 private:
  std::string program_;
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_FLOOR_SUBJECT_H_
