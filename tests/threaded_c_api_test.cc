// The threaded C ABI under contention: with sk_set_threads(4), several
// threads at once run sk_iter_run (an elementwise loop and a REDUCE_OK
// reduction), sk_binary, sk_reduce, sk_copy, sk_cast and sk_einsum (a
// matrix product and a loop nest), each split into parts, while one more thread
// forces every target in turn and another switches between a host's executor (a
// small persistent pool, below) and stridekit's own pool. Every result must
// equal the one computed beforehand on one thread (the data are small integers,
// so float sums are exact in any order). tests/tsan/run runs this under
// ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "random_views.h"
#include "stridekit/numeric_options.h"
#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

// A host's thread pool of the shape sk_set_executor expects (as
// pthreadpool_parallelize_1d): Run hands parts to persistent workers, takes
// some itself, and returns when all are done. Written here rather than
// taken from pthreadpool or OpenMP so that ThreadSanitizer sees its
// synchronisation (those libraries are not instrumented).
class HostPool {
 public:
  explicit HostPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
  }
  ~HostPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  static void Run(void* host, int64_t nparts, sk_part_fn part, void* job) {
    static_cast<HostPool*>(host)->RunParts(nparts, part, job);
  }
  int64_t calls() const { return calls_.load(); }

 private:
  // One call's completion count. Shared with the tasks, so a worker that
  // finishes the last part after the caller has seen the count reach zero
  // and returned still touches live memory.
  struct Call {
    std::mutex mutex;
    std::condition_variable done;
    int64_t left = 0;  // Guarded by mutex.
  };

  void RunParts(int64_t nparts, sk_part_fn part, void* job) {
    ++calls_;
    auto call = std::make_shared<Call>();
    call->left = nparts;
    const auto task = [call, part, job](int64_t i) {
      part(job, i);
      std::lock_guard<std::mutex> lock(call->mutex);
      if (--call->left == 0) call->done.notify_all();
    };
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int64_t i = 1; i < nparts; ++i) {
        tasks_.push_back([task, i] { task(i); });
      }
    }
    wake_.notify_all();
    if (nparts > 0) task(0);
    std::unique_lock<std::mutex> lock(call->mutex);
    call->done.wait(lock, [&] { return call->left == 0; });
  }

  void Work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool stop_ = false;
  std::atomic<int64_t> calls_{0};
  std::vector<std::thread> threads_;
};

// out = a + b over float32 chunks (sk_loop_fn).
void AddLoop(char* const* p, int64_t n, const int64_t* s, void*) {
  for (int64_t i = 0; i < n; ++i) {
    float x, y;
    std::memcpy(&x, p[1] + i * s[1], 4);
    std::memcpy(&y, p[2] + i * s[2], 4);
    const float z = x + y;
    std::memcpy(p[0] + i * s[0], &z, 4);
  }
}

// out += in over float32 chunks: a reduction with SK_ITER_REDUCE_OK.
void SumLoop(char* const* p, int64_t n, const int64_t* s, void*) {
  for (int64_t i = 0; i < n; ++i) {
    float acc, x;
    std::memcpy(&acc, p[0] + i * s[0], 4);
    std::memcpy(&x, p[1] + i * s[1], 4);
    acc += x;
    std::memcpy(p[0] + i * s[0], &acc, 4);
  }
}

// The operands: a [rows, cols] float32 matrix `a` read transposed from a
// [cols, rows] buffer, `b` contiguous; 4 parts of at least
// kMinElementsPerThread elements each.
constexpr int64_t kRows = 128, kCols = 288;
static_assert(kRows * kCols >= 4 * NumericOptions::kMinElementsPerThread);

struct Results {
  std::vector<float> iter_add, iter_sum, add, sum, copy, product, hadamard;
  std::vector<double> cast;
};

struct Inputs {
  std::vector<float> a, b;
  sk_view m = testing::MakeView({kRows, kCols}, {kCols, 1}, 0);
  sk_view t = testing::MakeView({kRows, kCols}, {1, kRows}, 0);
  sk_view reversed =
      testing::MakeView({kRows, kCols}, {-kCols, 1}, (kRows - 1) * kCols);
  // The sums over axis 0 as a REDUCE_OK output of the [rows, cols] box.
  sk_view sums_box = testing::MakeView({kRows, kCols}, {0, 1}, 0);
  sk_view sums = testing::MakeView({kCols}, {1}, 0);
  sk_view square = testing::MakeView({kRows, kRows}, {kRows, 1}, 0);
};

// Runs every threaded call once; false if any fails.
bool RunAll(const Inputs& in, Results& r) {
  const size_t n = size_t(kRows * kCols);
  r.iter_add.assign(n, 0.0f);
  r.iter_sum.assign(size_t(kCols), 0.0f);
  r.add.assign(n, 0.0f);
  r.sum.assign(size_t(kCols), 0.0f);
  r.copy.assign(n, 0.0f);
  r.cast.assign(n, 0.0);
  r.product.assign(size_t(kRows * kRows), 0.0f);
  r.hadamard.assign(n, 0.0f);
  const size_t sizes[] = {4, 4, 4};
  const sk_view* add_views[] = {&in.m, &in.t, &in.m};
  void* add_datas[] = {r.iter_add.data(), const_cast<float*>(in.a.data()),
                       const_cast<float*>(in.b.data())};
  const sk_view* sum_views[] = {&in.sums_box, &in.t};
  void* sum_datas[] = {r.iter_sum.data(), const_cast<float*>(in.a.data())};
  const int32_t axis0[] = {0};
  bool ok = true;
  ok &=
      sk_iter_run(3, add_views, sizes, add_datas, 0, AddLoop, nullptr) == SK_OK;
  ok &= sk_iter_run(2, sum_views, sizes, sum_datas, SK_ITER_REDUCE_OK, SumLoop,
                    nullptr) == SK_OK;
  ok &= sk_binary(SK_ADD, SK_FLOAT32, &in.t, in.a.data(), &in.m, in.b.data(),
                  &in.m, r.add.data()) == SK_OK;
  ok &= sk_reduce(SK_SUM, SK_FLOAT32, &in.t, in.a.data(), 1, axis0, &in.sums,
                  r.sum.data()) == SK_OK;
  ok &= sk_copy(SK_FLOAT32, &in.t, in.a.data(), &in.reversed, r.copy.data(),
                nullptr) == SK_OK;
  ok &= sk_cast(SK_FLOAT32, &in.t, in.a.data(), SK_FLOAT64, &in.m,
                r.cast.data()) == SK_OK;
  // A product split over rows (sums of 288 small integers, exact in any
  // order) and a loop nest split over its outer loop.
  const sk_view* einsum_views[] = {&in.t, &in.m};
  const void* einsum_datas[] = {in.a.data(), in.b.data()};
  ok &= sk_einsum("ij,kj->ik", SK_FLOAT32, 2, einsum_views, einsum_datas,
                  &in.square, r.product.data()) == SK_OK;
  ok &= sk_einsum("ij,ij->ij", SK_FLOAT32, 2, einsum_views, einsum_datas, &in.m,
                  r.hadamard.data()) == SK_OK;
  return ok;
}

bool Same(const Results& x, const Results& y) {
  return x.iter_add == y.iter_add && x.iter_sum == y.iter_sum &&
         x.add == y.add && x.sum == y.sum && x.copy == y.copy &&
         x.cast == y.cast && x.product == y.product && x.hadamard == y.hadamard;
}

TEST(ThreadedCApi, HostPoolOwnPoolAndForcedTargetsGiveSerialBits) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  Inputs in;
  in.a.resize(size_t(kRows * kCols));
  in.b.resize(size_t(kRows * kCols));
  for (size_t i = 0; i < in.a.size(); ++i) {
    in.a[i] = float(i % 97), in.b[i] = float(i % 31);
  }
  Results want;
  ASSERT_EQ(sk_set_threads(1), SK_OK);
  ASSERT_TRUE(RunAll(in, want)) << sk_last_error();

  HostPool pool(3);
  ASSERT_EQ(sk_set_threads(4), SK_OK);
  ASSERT_EQ(sk_set_executor(HostPool::Run, &pool), SK_OK);
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  // Forces every available target in turn, then the best again.
  std::thread forcer([&] {
    for (int32_t i = 0; !done.load(); ++i) {
      if (sk_target_force(sk_target_name(i % sk_target_count())) != SK_OK) {
        ++failures;
      }
    }
    if (sk_target_force(nullptr) != SK_OK) ++failures;
  });
  // Alternates between the host's pool and stridekit's own, once the
  // host's pool has run a call.
  std::thread switcher([&] {
    while (pool.calls() == 0 && !done.load()) std::this_thread::yield();
    for (int i = 1; !done.load(); ++i) {
      if (sk_set_executor(i % 2 ? nullptr : HostPool::Run, &pool) != SK_OK) {
        ++failures;
      }
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> callers;
  for (int caller = 0; caller < 3; ++caller) {
    callers.emplace_back([&] {
      Results got;
      for (int round = 0; round < testing::Trials(8); ++round) {
        if (!RunAll(in, got) || !Same(got, want)) ++failures;
      }
    });
  }
  for (auto& c : callers) c.join();
  done = true;
  forcer.join();
  switcher.join();
  EXPECT_EQ(sk_set_executor(nullptr, nullptr), SK_OK);
  EXPECT_EQ(sk_set_threads(1), SK_OK);
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(pool.calls(), 0);
}

}  // namespace
}  // namespace stridekit
