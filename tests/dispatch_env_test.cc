// STRIDEKIT_TARGET at start-up. Run by meson with STRIDEKIT_TARGET set and
// STRIDEKIT_EXPECT_ACTIVE naming the target that must be active, "best" for
// the best available one, or "unsupported" when every dispatched call must
// fail until a target is forced.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dispatch/target_registry.h"
#include "stridekit/index_kernels.h"
#include "stridekit/stridekit.h"
#include "stridekit/targets.h"

namespace stridekit::testing {
namespace {

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

TEST(DispatchEnvironmentTest, SelectsOrRejectsTheNamedTarget) {
  const std::string requested = Environment("STRIDEKIT_TARGET");
  std::string expected = Environment("STRIDEKIT_EXPECT_ACTIVE");
  ASSERT_FALSE(expected.empty()) << "STRIDEKIT_EXPECT_ACTIVE is not set";
  if (expected == "best") expected = AvailableTargets().front();
  EXPECT_EQ(ActiveTarget(), expected);

  const int64_t flat[] = {5};
  const int64_t shape[] = {2, 3};
  int64_t out[2] = {};
  const sk_status status = sk_unravel_batch(1, flat, 2, shape, out);
  if (expected != "unsupported") {
    EXPECT_EQ(status, SK_OK);
    EXPECT_EQ(LastKernelTarget(), expected);
    return;
  }
  EXPECT_EQ(status, SK_ERR_UNSUPPORTED);
  std::string available;
  for (std::string_view name : AvailableTargets()) {
    available += (available.empty() ? "" : ", ") + std::string(name);
  }
  EXPECT_EQ(
      std::string(sk_last_error()),
      "unravel_batch: STRIDEKIT_TARGET=\"" + requested +
          "\" names no available target; available targets: " + available);
  sk_view v{};
  EXPECT_EQ(sk_view_offsets(&v, 0, 1, out), SK_ERR_UNSUPPORTED);
  EXPECT_EQ(sk_ravel_batch(1, 2, out, shape, 0, out), SK_ERR_UNSUPPORTED);
  // An explicit choice replaces the invalid one.
  EXPECT_EQ(sk_target_force(nullptr), SK_OK);
  EXPECT_EQ(sk_unravel_batch(1, flat, 2, shape, out), SK_OK);
  EXPECT_EQ(LastKernelTarget(), AvailableTargets().front());
}

}  // namespace
}  // namespace stridekit::testing
