#include "stridekit/parallel.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

#include "dispatch/worker_pool.h"

namespace stridekit {

void RunParallel(int parts, const std::function<void(int)>& run) {
  if (parts <= 1) {
    if (parts == 1) run(0);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<size_t>(parts));
  auto guarded = [&](int i) {
    try {
      run(i);
    } catch (...) {
      errors[size_t(i)] = std::current_exception();
    }
  };
  if (!internal::RunOnWorkers(parts, guarded)) {
    // The pool cannot take this call (worker_pool.h says when): its parts
    // get threads of their own; a part whose thread cannot be started
    // (resource limits) runs here, after part 0.
    std::vector<std::thread> workers;
    int started = 1;
    try {
      workers.reserve(size_t(parts - 1));
      for (; started < parts; ++started) workers.emplace_back(guarded, started);
    } catch (const std::exception&) {
    }
    guarded(0);
    for (int i = started; i < parts; ++i) guarded(i);
    for (auto& w : workers) w.join();
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

void RunPartitioned(const IterationPlan& plan, int threads,
                    const std::function<void(int64_t, int64_t)>& run) {
  if (threads <= 1 || plan.outer_size() < 2) {
    run(0, plan.outer_size());
    return;
  }
  const Dims bounds = PartitionOuter(plan, threads);
  RunParallel(int(bounds.size() - 1),
              [&](int i) { run(bounds[i], bounds[i + 1]); });
}

}  // namespace stridekit
