// Failure injection: every temporary of the numeric kernels comes from
// AllocateBuffer. For each kernel call that needs temporaries, make the 1st,
// 2nd, ... allocation fail in turn: the call must fail with kNoMemory (the C
// ABI with SK_ERR_NOMEM) and leave the output untouched, until enough
// allocations succeed for the call to complete with the right answer. The
// guarantee (output untouched on kNoMemory) is documented in elementwise.h,
// reduce.h and einsum.h.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "allocation.h"
#include "equivalence.h"
#include "random_views.h"
#include "stridekit/einsum.h"
#include "stridekit/elementwise.h"
#include "stridekit/reduce.h"
#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;

// Runs `call` with the k-th allocation failing for k = 0, 1, ...; returns
// how many calls failed before one succeeded (at most 8 tries).
int FailEachAllocation(const std::function<void()>& call,
                       const std::vector<float>& out,
                       const std::vector<float>& out_before) {
  for (int k = 0; k < 8; ++k) {
    FailAllocationAfterForTest(k);
    try {
      call();
      FailAllocationAfterForTest(-1);
      return k;
    } catch (const Error& e) {
      FailAllocationAfterForTest(-1);
      EXPECT_EQ(e.kind(), ErrorKind::kNoMemory) << e.what();
      EXPECT_EQ(out, out_before)
          << "output written before failing: " << e.what();
    }
  }
  ADD_FAILURE() << "no success within 8 allocations";
  return -1;
}

TEST(AllocationFailure, NumericKernelsLeaveTheOutputUntouched) {
  std::vector<float> a(24), b(24);
  for (int i = 0; i < 24; ++i) a[i] = float(i), b[i] = float(100 - i);
  const sk_view c = MakeView({4, 6}, {6, 1}, 0);
  sk_view masked = MakeView({4, 6}, {6, 1}, 0);
  masked.has_mask = 1;
  for (int d = 0; d < 2; ++d) {
    masked.mask_begin[d] = 1;
    masked.mask_end[d] = masked.shape[d];
  }
  testing::ForEachTarget([&](const std::string& target) {
    SCOPED_TRACE(target);
    // A masked input is materialised: one temporary.
    std::vector<float> out(24, -1.0f);
    const std::vector<float> before = out;
    EXPECT_EQ(FailEachAllocation(
                  [&] {
                    Binary(BinaryOp::kAdd, DType::kFloat32, masked, a.data(), c,
                           b.data(), c, out.data());
                  },
                  out, before),
              1);
    EXPECT_EQ(out[0], 0.0f + 100.0f);  // masked-out a reads 0
    EXPECT_EQ(out[7], 7.0f + 93.0f);
    // An input overlapping the output otherwise than exactly: one copy.
    std::vector<float> self = a;
    const std::vector<float> self_before = self;
    EXPECT_EQ(FailEachAllocation(
                  [&] {
                    Unary(UnaryOp::kNeg, DType::kFloat32,
                          MakeView({24}, {-1}, 23), self.data(),
                          MakeView({24}, {1}, 0), self.data());
                  },
                  self, self_before),
              1);
    EXPECT_EQ(self[0], -23.0f);
    // Reductions: the accumulator, plus a materialised masked input.
    std::vector<float> sums(6, -1.0f);
    const std::vector<float> sums_before = sums;
    const int32_t axis0[] = {0};
    EXPECT_EQ(FailEachAllocation(
                  [&] {
                    Reduce(ReduceOp::kSum, DType::kFloat32, masked, a.data(),
                           axis0, MakeView({6}, {1}, 0), sums.data());
                  },
                  sums, sums_before),
              2);
    EXPECT_EQ(sums[0], 0.0f);
    EXPECT_EQ(sums[1], 7.0f + 13.0f + 19.0f);
  });
  // Einsum writing straight into out: a batch of blocked products (one
  // scratch buffer for the packed blocks, allocated by dispatch/ before the
  // kernel runs), a masked operand (materialised) in dot products (and
  // their scratch).
  const sk_view a3 = MakeView({3, 16, 16}, {256, 16, 1}, 0);
  std::vector<float> x(6144), y(6144);
  for (int i = 0; i < 6144; ++i) x[i] = float(i % 7), y[i] = float(i % 5);
  sk_view masked_row = MakeView({2048}, {1}, 0);
  masked_row.has_mask = 1;
  masked_row.mask_begin[0] = 2;
  masked_row.mask_end[0] = 2048;
  testing::ForEachTarget([&](const std::string& target) {
    SCOPED_TRACE(target);
    std::vector<float> out(768, -1.0f);
    const std::vector<float> before = out;
    const std::vector<sk_view> views = {a3, a3};
    const std::vector<const void*> datas = {x.data(), y.data()};
    EXPECT_EQ(FailEachAllocation(
                  [&] {
                    Einsum("bij,bjk->bik", DType::kFloat32, views, datas, a3,
                           out.data());
                  },
                  out, before),
              1);
    float want = 0;
    for (int j = 0; j < 16; ++j) want += x[512 + 16 + j] * y[512 + 16 * j + 2];
    EXPECT_EQ(out[512 + 16 + 2], want);
    std::vector<float> dots(3, -1.0f);
    const std::vector<float> dots_before = dots;
    const std::vector<sk_view> dot_views = {MakeView({3, 2048}, {2048, 1}, 0),
                                            masked_row};
    EXPECT_EQ(FailEachAllocation(
                  [&] {
                    Einsum("ij,j->i", DType::kFloat32, dot_views, datas,
                           MakeView({3}, {1}, 0), dots.data());
                  },
                  dots, dots_before),
              2);
    want = 0;
    for (int j = 2; j < 2048; ++j) want += x[2048 + j] * y[j];
    EXPECT_EQ(dots[1], want);
    // On three threads: one scratch buffer for the three parts, allocated
    // before out is first written.
    if (!testing::ThreadsAllowed()) return;
    std::vector<float> p(96 * 200), q(200 * 80);
    for (size_t i = 0; i < p.size(); ++i) p[i] = float(i % 7);
    for (size_t i = 0; i < q.size(); ++i) q[i] = float(i % 5);
    std::vector<float> product(96 * 80, -1.0f);
    const std::vector<float> product_before = product;
    NumericOptions three;
    three.threads = 3;
    EXPECT_EQ(FailEachAllocation(
                  [&] {
                    Einsum(
                        "ij,jk->ik", DType::kFloat32,
                        std::vector<sk_view>{MakeView({96, 200}, {200, 1}, 0),
                                             MakeView({200, 80}, {80, 1}, 0)},
                        std::vector<const void*>{p.data(), q.data()},
                        MakeView({96, 80}, {80, 1}, 0), product.data(), three);
                  },
                  product, product_before),
              1);
    want = 0;
    for (int j = 0; j < 200; ++j) want += p[95 * 200 + j] * q[j * 80 + 79];
    EXPECT_EQ(product[95 * 80 + 79], want);
  });
  // The C ABI maps the failure to SK_ERR_NOMEM.
  std::vector<float> out(24, -1.0f);
  FailAllocationAfterForTest(0);
  EXPECT_EQ(sk_binary(SK_ADD, SK_FLOAT32, &masked, a.data(), &c, b.data(), &c,
                      out.data()),
            SK_ERR_NOMEM);
  FailAllocationAfterForTest(-1);
  EXPECT_EQ(std::string(sk_last_error()),
            "copy: cannot allocate a 96-byte buffer");
  EXPECT_EQ(out, std::vector<float>(24, -1.0f));
}

}  // namespace
}  // namespace stridekit
