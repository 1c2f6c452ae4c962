#include "stridekit/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "dispatch/worker_pool.h"
#include "stridekit/error.h"

namespace stridekit {
namespace {

std::atomic<int> g_threads{1};

struct Executor {
  ExecutorFn run = nullptr;
  void* host = nullptr;
};
std::mutex g_executor_mutex;
Executor g_executor;

Executor CurrentExecutor() {
  std::lock_guard<std::mutex> lock(g_executor_mutex);
  return g_executor;
}

// True on a thread while it runs a part handed to the host's executor: a
// nested RunParallel must not re-enter the host's pool (most pools
// deadlock when a job submits another from a worker).
thread_local bool t_in_host_part = false;

// One RunParallel call handed to the host: the parts, the errors they
// threw, and which parts ran (a host that skips or repeats a part is
// caught rather than trusted).
struct HostJob {
  const std::function<void(int)>* run;
  std::exception_ptr* errors;
  std::atomic<bool>* ran;
  int64_t parts;
};

void RunHostPart(void* job, int64_t i) {
  auto* j = static_cast<HostJob*>(job);
  if (i < 0 || i >= j->parts || j->ran[i].exchange(true)) return;
  const bool outer = t_in_host_part;
  t_in_host_part = true;
  try {
    (*j->run)(int(i));
  } catch (...) {
    j->errors[i] = std::current_exception();
  }
  t_in_host_part = outer;
}

void RunOnHost(const Executor& host, int parts,
               const std::function<void(int)>& run,
               std::vector<std::exception_ptr>& errors) {
  const auto ran = std::make_unique<std::atomic<bool>[]>(size_t(parts));
  for (int i = 0; i < parts; ++i) ran[size_t(i)] = false;
  HostJob job{&run, errors.data(), ran.get(), parts};
  host.run(host.host, parts, RunHostPart, &job);
  int missing = 0;
  for (int i = 0; i < parts; ++i) missing += ran[size_t(i)] ? 0 : 1;
  if (missing > 0) {
    Fail(ErrorKind::kInvalidArgument,
         "sk_set_executor: the host's executor returned with ", missing, " of ",
         parts, " parts not run");
  }
}

}  // namespace

void SetThreads(int n) {
  if (n < 0 || n > kMaxThreads) {
    Fail(ErrorKind::kInvalidArgument, "sk_set_threads: n = ", n,
         " is outside [0, ", kMaxThreads, "] (0 means every core)");
  }
  if (n == 0) {
    n = std::clamp(int(std::thread::hardware_concurrency()), 1, kMaxThreads);
  }
  g_threads.store(n, std::memory_order_relaxed);
}

int GetThreads() { return g_threads.load(std::memory_order_relaxed); }

void SetExecutor(ExecutorFn run, void* host) {
  std::lock_guard<std::mutex> lock(g_executor_mutex);
  g_executor = {run, run == nullptr ? nullptr : host};
}

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
  const Executor host = CurrentExecutor();
  if (t_in_host_part) {
    for (int i = 0; i < parts; ++i) guarded(i);
  } else if (host.run != nullptr) {
    RunOnHost(host, parts, run, errors);
  } else if (!internal::RunOnWorkers(parts, guarded)) {
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

}  // namespace stridekit
