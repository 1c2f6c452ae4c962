#include "dispatch/worker_pool.h"

#include <pthread.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace stridekit::internal {
namespace {

// How long an idle worker (or a caller waiting for workers) spins before it
// sleeps: long enough to span the gap between back-to-back calls.
constexpr auto kSpinTime = std::chrono::microseconds(200);

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins while value == old, for up to kSpinTime, then sleeps until it
// changes.
template <typename T>
void AwaitChange(const std::atomic<T>& value, T old) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  for (int i = 1; value.load(std::memory_order_acquire) == old; ++i) {
    if (i % 256 == 0 && std::chrono::steady_clock::now() > deadline) {
      value.wait(old, std::memory_order_acquire);
    } else {
      CpuRelax();
    }
  }
}

std::atomic<bool> forked{false};

// A job is run_, its parts, and claimed_: bit i set when part i is taken
// (or does not exist). The caller publishes a job with a release store of
// claimed_; whoever claims a part with an acquire RMW then sees run_ and
// unfinished_ of that job, so a worker that wakes late can only claim parts
// of the job currently published.
class WorkerPool {
 public:
  bool Run(int parts, const std::function<void(int)>& run) {
    if (busy_.exchange(true, std::memory_order_acquire)) return false;
    StartWorkers(parts - 1);
    run_.store(&run, std::memory_order_relaxed);
    unfinished_.store(parts, std::memory_order_relaxed);
    claimed_.store(parts == kMaxParts ? 0 : ~uint64_t{0} << parts,
                   std::memory_order_release);
    epoch_.fetch_add(1, std::memory_order_release);
    epoch_.notify_all();
    RunClaimable(0);
    for (int left; (left = unfinished_.load(std::memory_order_acquire)) > 0;) {
      AwaitChange(unfinished_, left);
    }
    busy_.store(false, std::memory_order_release);
    return true;
  }

 private:
  // Starts workers until there are `count` (fewer if the system refuses).
  void StartWorkers(int count) {
    for (; workers_ < count; ++workers_) {
      try {
        const uint32_t seen = epoch_.load(std::memory_order_relaxed);
        std::thread([this, part = workers_ + 1, seen] {
          Work(part, seen);
        }).detach();
      } catch (...) {
        return;  // The parts of missing workers run on the caller.
      }
    }
  }

  [[noreturn]] void Work(int own_part, uint32_t seen) {
    for (;;) {
      AwaitChange(epoch_, seen);
      seen = epoch_.load(std::memory_order_acquire);
      RunClaimable(own_part);
    }
  }

  bool Claim(int part) {
    const uint64_t bit = uint64_t{1} << part;
    return !(claimed_.fetch_or(bit, std::memory_order_acq_rel) & bit);
  }

  void RunPart(int part) {
    (*run_.load(std::memory_order_relaxed))(part);
    if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      unfinished_.notify_all();
    }
  }

  // Runs `preferred` if it is unclaimed, then any other unclaimed part.
  void RunClaimable(int preferred) {
    if (preferred < kMaxParts && Claim(preferred)) RunPart(preferred);
    for (;;) {
      const uint64_t free = ~claimed_.load(std::memory_order_acquire);
      if (free == 0) return;
      const int part = std::countr_zero(free);
      if (Claim(part)) RunPart(part);
    }
  }

  std::atomic<bool> busy_{false};
  std::atomic<uint32_t> epoch_{0};
  std::atomic<const std::function<void(int)>*> run_{nullptr};
  std::atomic<uint64_t> claimed_{~uint64_t{0}};
  std::atomic<int> unfinished_{0};
  int workers_ = 0;  // Written only by the caller holding busy_.
};

WorkerPool& Pool() {
  // Never destroyed: detached workers may be spinning on it at exit.
  static WorkerPool* const pool = [] {
    pthread_atfork(nullptr, nullptr, [] { forked = true; });
    return new WorkerPool;
  }();
  return *pool;
}

}  // namespace

bool RunOnWorkers(int parts, const std::function<void(int)>& run) {
  if (parts < 1 || parts > kMaxParts || forked.load()) return false;
  return Pool().Run(parts, run);
}

}  // namespace stridekit::internal
