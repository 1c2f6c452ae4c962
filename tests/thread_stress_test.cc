// Thread safety: 8 threads run random cases at once through the C ABI (view
// operations, copies, elementwise ops, reductions, failing calls) and check
// each against answers computed beforehand on one thread; each thread's
// sk_last_error must stay its own; one more thread reads the active target
// all along (forcing is global and not done while kernels run, targets.h).
// tests/tsan/run builds and runs this under ThreadSanitizer in .ci/run.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "random_views.h"
#include "stridekit/elementwise.h"
#include "stridekit/reduce.h"
#include "stridekit/stridekit.h"
#include "stridekit/targets.h"
#include "test_util.h"

namespace stridekit {
namespace {

constexpr int kThreads = 8;

// One random case: a 2-D float32 layout (maybe transposed, reversed, padded)
// over its own input, with every kernel's expected output.
struct Case {
  sk_view in{}, sliced{}, padded{}, out{}, row{};
  std::vector<float> input, add_want, copy_want, sum_want;
  std::string slice_text;
};

sk_view Contiguous(int64_t rows, int64_t cols) {
  sk_view v{};
  sk_view_make(2, std::vector<int64_t>{rows, cols}.data(), nullptr, 0, &v);
  return v;
}

Case MakeCase(std::mt19937_64& rng) {
  Case c;
  const int64_t rows = 1 + int64_t(rng() % 40), cols = 1 + int64_t(rng() % 40);
  c.input.resize(size_t(rows * cols));
  for (auto& x : c.input) x = float(int(rng() % 2001) - 1000) / 8.0f;
  c.in = Contiguous(rows, cols);
  if (rng() % 2) {  // the transposed reading of a [cols, rows] array
    const int32_t axes[] = {1, 0};
    sk_view base = Contiguous(cols, rows);
    sk_view_permute(&base, axes, &c.in);
  }
  if (rng() % 2) sk_view_flip(&c.in, int32_t(rng() % 2), &c.in);
  c.slice_text = rng() % 2 ? "::-1, 1:" : "1:, ::2";
  const int64_t before[] = {1, 0}, after[] = {0, 2};
  sk_view_pad(&c.in, before, after, &c.padded);
  c.out = Contiguous(rows, cols);
  c.row = Contiguous(1, cols);
  // Expected answers, single-threaded, through the same calls.
  c.add_want.resize(c.input.size());
  sk_binary(SK_ADD, SK_FLOAT32, &c.in, c.input.data(), &c.in, c.input.data(),
            &c.out, c.add_want.data());
  c.copy_want.resize(size_t((rows + 1) * (cols + 2)));
  sk_view dense = Contiguous(rows + 1, cols + 2);
  sk_copy(SK_FLOAT32, &c.padded, c.input.data(), &dense, c.copy_want.data(),
          nullptr);
  c.sum_want.resize(size_t(cols));
  const int32_t axis0[] = {0};
  sk_view sums{};
  sk_view_make(1, std::vector<int64_t>{cols}.data(), nullptr, 0, &sums);
  sk_reduce(SK_SUM, SK_FLOAT32, &c.in, c.input.data(), 1, axis0, &sums,
            c.sum_want.data());
  sk_view_slice(&c.in, c.slice_text.c_str(), &c.sliced);
  return c;
}

TEST(ThreadStress, ConcurrentCallsMatchSingleThreadedAnswers) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  std::mt19937_64 rng(20261123);
  std::vector<Case> cases;
  for (int i = 0; i < 64; ++i) cases.push_back(MakeCase(rng));
  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  std::thread reader([&] {
    const std::string first = sk_target_active();
    while (!done.load()) {
      if (first != sk_target_active()) ++failures;
    }
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      std::vector<float> out;
      for (int round = 0; round < testing::Trials(2000); ++round) {
        const Case& c = cases[size_t(t * 7 + round) % cases.size()];
        out.assign(c.add_want.size(), 0.0f);
        if (sk_binary(SK_ADD, SK_FLOAT32, &c.in, c.input.data(), &c.in,
                      c.input.data(), &c.out, out.data()) != SK_OK ||
            out != c.add_want) {
          ++failures;
        }
        out.assign(c.copy_want.size(), 0.0f);
        sk_view dense{};
        sk_view_make(
            2,
            std::vector<int64_t>{c.padded.shape[0], c.padded.shape[1]}.data(),
            nullptr, 0, &dense);
        if (sk_copy(SK_FLOAT32, &c.padded, c.input.data(), &dense, out.data(),
                    nullptr) != SK_OK ||
            out != c.copy_want) {
          ++failures;
        }
        out.assign(c.sum_want.size(), 0.0f);
        const int32_t axis0[] = {0};
        sk_view sums{};
        sk_view_make(1, std::vector<int64_t>{c.in.shape[1]}.data(), nullptr, 0,
                     &sums);
        if (sk_reduce(SK_SUM, SK_FLOAT32, &c.in, c.input.data(), 1, axis0,
                      &sums, out.data()) != SK_OK ||
            out != c.sum_want) {
          ++failures;
        }
        sk_view sliced{};
        if (sk_view_slice(&c.in, c.slice_text.c_str(), &sliced) != SK_OK ||
            std::memcmp(&sliced, &c.sliced, sizeof(sliced)) != 0) {
          ++failures;
        }
        // A failing call: this thread's message, whatever the others do.
        const std::string bad = std::to_string(90 + t);
        std::string needle = "index ";
        needle += bad;
        if (sk_view_slice(&c.in, bad.c_str(), &sliced) != SK_ERR_OUT_OF_RANGE ||
            std::string(sk_last_error()).find(needle) == std::string::npos) {
          ++failures;
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  done = true;
  reader.join();
  EXPECT_EQ(failures.load(), 0);
}

// Calls that themselves run on several threads (NumericOptions), from two
// threads at once: the same answers as on one thread.
TEST(ThreadStress, ThreadedKernelsFromSeveralThreads) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  const int64_t rows = 700, cols = 800;  // 2 parts of >= 2^18 elements
  std::vector<int32_t> a(rows * cols), b(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    a[i] = int32_t(i % 911), b[i] = int32_t(i % 13);
  }
  const sk_view m = testing::MakeView({rows, cols}, {cols, 1}, 0);
  const sk_view t = testing::MakeView({rows, cols}, {1, rows}, 0);
  const sk_view sums = testing::MakeView({cols}, {1}, 0);
  const int32_t axis0[] = {0};
  std::vector<int32_t> add_want(rows * cols), sum_want(cols);
  Binary(BinaryOp::kAdd, DType::kInt32, t, a.data(), m, b.data(), m,
         add_want.data());
  Reduce(ReduceOp::kSum, DType::kInt32, m, a.data(), axis0, sums,
         sum_want.data());
  std::atomic<int> failures{0};
  std::vector<std::thread> callers;
  for (int caller = 0; caller < 2; ++caller) {
    callers.emplace_back([&] {
      std::vector<int32_t> add(rows * cols), sum(cols);
      for (int round = 0; round < 3; ++round) {
        Binary(BinaryOp::kAdd, DType::kInt32, t, a.data(), m, b.data(), m,
               add.data(), NumericOptions{2});
        Reduce(ReduceOp::kSum, DType::kInt32, m, a.data(), axis0, sums,
               sum.data(), NumericOptions{2});
        if (add != add_want || sum != sum_want) ++failures;
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(failures.load(), 0);
}

// Forcing targets while other threads run kernels: each call keeps the
// executor it started with, so every result is right whichever target ran
// it (run under ThreadSanitizer by tests/tsan/run).
TEST(ThreadStress, ForcingTargetsWhileKernelsRun) {
  const int64_t rows = 96, cols = 160;
  std::vector<float> a(rows * cols), b(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    a[i] = float(i % 97), b[i] = float(i % 31);
  }
  const sk_view m = testing::MakeView({rows, cols}, {cols, 1}, 0);
  const sk_view t = testing::MakeView({rows, cols}, {1, rows}, 0);
  std::vector<float> want(rows * cols);
  Binary(BinaryOp::kAdd, DType::kFloat32, t, a.data(), m, b.data(), m,
         want.data());
  const std::vector<std::string_view> targets = AvailableTargets();
  std::atomic<bool> done{false};
  std::thread forcer([&] {
    for (size_t i = 0; !done.load(); ++i) {
      ForceTarget(targets[i % targets.size()]);
    }
    ResetTarget();
  });
  std::atomic<int> failures{0};
  std::vector<std::thread> callers;
  for (int caller = 0; caller < 3; ++caller) {
    callers.emplace_back([&] {
      std::vector<float> got(rows * cols);
      for (int round = 0; round < 20; ++round) {
        Binary(BinaryOp::kAdd, DType::kFloat32, t, a.data(), m, b.data(), m,
               got.data(), NumericOptions{2});
        if (got != want) ++failures;
      }
    });
  }
  for (auto& c : callers) c.join();
  done = true;
  forcer.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace stridekit
