// Target registry: listing, forcing by name, unknown names, the C ABI
// "Targets" section.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "dispatch/target_registry.h"
#include "stridekit/arg_reduce.h"
#include "stridekit/index_kernels.h"
#include "stridekit/scan.h"
#include "stridekit/stridekit.h"
#include "stridekit/targets.h"
#include "stridekit/view.h"
#include "test_util.h"

namespace stridekit::testing {
namespace {

TEST(DispatchTest, ListsTargetsBestFirstReferenceLast) {
  const std::vector<std::string_view> targets = AvailableTargets();
  ASSERT_GE(targets.size(), 2u);
  EXPECT_EQ(targets.back(), "reference");
  ResetTarget();
  EXPECT_EQ(ActiveTarget(), targets.front());
#if defined(__x86_64__) && !defined(HWY_COMPILE_ONLY_STATIC)
  // Every x86-64 CPU runs the fallback, GCC's SCALAR (a best-target-only
  // build has that target and the reference); SSSE3 is not compiled.
  EXPECT_NE(std::find(targets.begin(), targets.end(), "SCALAR"), targets.end());
  EXPECT_EQ(std::find(targets.begin(), targets.end(), "SSSE3"), targets.end());
#endif
}

TEST(DispatchTest, ForcingRunsTheForcedTargetInEveryKernel) {
  for (std::string_view name : AvailableTargets()) {
    ForceTarget(name);
    EXPECT_EQ(ActiveTarget(), name);
    const int64_t flat[] = {5};
    const int64_t shape[] = {2, 3};
    int64_t out[2] = {};
    UnravelBatch(1, flat, shape, out);
    EXPECT_EQ(LastKernelTarget(), name);
    RavelBatch(1, out, shape, 0, out);
    EXPECT_EQ(LastKernelTarget(), name);
    sk_view v{};
    ViewOffsets(v, 0, 1, out);
    EXPECT_EQ(LastKernelTarget(), name);
    // The axis kernels (scan.h, arg_reduce.h), also on the reference target.
    const int32_t x[] = {3, 1, 4, 1, 5};
    int32_t sums[5] = {};
    const sk_view row = View::Make(Dims{5}).ToC();
    Scan(ScanOp::kCumsum, DType::kInt32, row, x, 0, row, sums);
    EXPECT_EQ(LastKernelTarget(), name);
    EXPECT_EQ(std::vector<int32_t>(sums, sums + 5),
              (std::vector<int32_t>{3, 4, 8, 9, 14}));
    int64_t arg = -1;
    ArgReduce(ArgOp::kArgMin, DType::kInt32, row, x, 0, View().ToC(), &arg);
    EXPECT_EQ(LastKernelTarget(), name);
    EXPECT_EQ(arg, 1);
  }
  ResetTarget();
  EXPECT_EQ(ActiveTarget(), AvailableTargets().front());
}

TEST(DispatchTest, NamesIgnoreCase) {
  ForceTarget("REFERENCE");
  EXPECT_EQ(ActiveTarget(), "reference");
  ResetTarget();
}

TEST(DispatchTest, UnknownAndUnavailableNamesAreErrors) {
  ForceTarget("reference");
  std::string available;
  for (std::string_view name : AvailableTargets()) {
    available += (available.empty() ? "" : ", ") + std::string(name);
  }
  EXPECT_SK_ERROR(ForceTarget("NoSuchTarget"), ErrorKind::kUnsupported,
                  "force_target: unknown or unavailable target "
                  "\"NoSuchTarget\"; available targets: " +
                      available);
#if defined(__x86_64__)
  const char* other_arch = "NEON";
#else
  const char* other_arch = "AVX2";
#endif
  EXPECT_SK_ERROR(ForceTarget(other_arch), ErrorKind::kUnsupported,
                  "force_target: unknown or unavailable target \"" +
                      std::string(other_arch) +
                      "\"; available targets: " + available);
  EXPECT_EQ(ActiveTarget(), "reference");  // Unchanged by the failures.
  ResetTarget();
}

TEST(DispatchTest, CApiTargets) {
  const std::vector<std::string_view> targets = AvailableTargets();
  ASSERT_EQ(sk_target_count(), static_cast<int32_t>(targets.size()));
  for (int32_t i = 0; i < sk_target_count(); ++i) {
    ASSERT_NE(sk_target_name(i), nullptr);
    EXPECT_EQ(sk_target_name(i), targets[size_t(i)]);
  }
  EXPECT_EQ(sk_target_name(-1), nullptr);
  EXPECT_EQ(sk_target_name(sk_target_count()), nullptr);

  EXPECT_EQ(sk_target_force("reference"), SK_OK);
  EXPECT_STREQ(sk_target_active(), "reference");
  EXPECT_EQ(sk_target_force("bogus"), SK_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(sk_last_error()).find("\"bogus\"; available targets: "),
            std::string::npos)
      << sk_last_error();
  EXPECT_STREQ(sk_target_active(), "reference");
  EXPECT_EQ(sk_target_force(nullptr), SK_OK);
  EXPECT_EQ(sk_target_active(), targets.front());
  EXPECT_EQ(sk_target_force("reference"), SK_OK);
  EXPECT_EQ(sk_target_force(""), SK_OK);
  EXPECT_EQ(sk_target_active(), targets.front());
}

TEST(DispatchTest, CApiBatchKernelsCheckArguments) {
  int64_t out[4];
  const int64_t shape[] = {2, 2};
  EXPECT_EQ(sk_unravel_batch(1, nullptr, 2, shape, out), SK_ERR_INVALID);
  EXPECT_STREQ(sk_last_error(), "sk_unravel_batch: flat is NULL");
  EXPECT_EQ(sk_unravel_batch(-1, out, 2, shape, out), SK_ERR_INVALID);
  EXPECT_EQ(sk_unravel_batch(0, nullptr, 2, shape, nullptr), SK_OK);
  EXPECT_EQ(sk_ravel_batch(1, 33, out, shape, 0, out), SK_ERR_INVALID);
  EXPECT_EQ(sk_ravel_batch(INT64_MAX, 2, out, shape, 0, out), SK_ERR_OVERFLOW);
  EXPECT_EQ(sk_view_offsets(nullptr, 0, 0, out), SK_ERR_INVALID);
  const int64_t flat[] = {3, 4};
  EXPECT_EQ(sk_unravel_batch(2, flat, 2, shape, out), SK_ERR_OUT_OF_RANGE);
  EXPECT_EQ(sk_unravel_batch(1, flat, 2, shape, out), SK_OK);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 1);
  sk_view v{};
  v.ndim = 1;
  v.shape[0] = 4;
  v.strides[0] = -2;
  v.offset = 6;
  EXPECT_EQ(sk_view_offsets(&v, 1, 3, out), SK_OK);
  EXPECT_EQ(out[0], 4);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(sk_view_offsets(&v, 2, 3, out), SK_ERR_OUT_OF_RANGE);
  EXPECT_EQ(sk_ravel_batch(2, 2, shape, shape, 1, out), SK_OK);
  EXPECT_EQ(out[0], 1 + 2 * 2 + 2 * 2);
}

}  // namespace
}  // namespace stridekit::testing
