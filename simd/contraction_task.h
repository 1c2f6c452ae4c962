// What the per-target contraction kernel runs: one matrix product over
// operands of any layout, described by element-offset tables.
#ifndef STRIDEKIT_SIMD_CONTRACTION_TASK_H_
#define STRIDEKIT_SIMD_CONTRACTION_TASK_H_

#include <cstddef>
#include <cstdint>

#include "dispatch_table.h"
#include "stridekit/dtype.h"

namespace stridekit {

// Products summed per k block before the blocks' sums combine pairwise.
inline constexpr int64_t kSumBlock = 128;

// For each batch position i < batch, C[m, n] = sum_k A[m, k] * B[k, n]
// for m < m_size, n < n_size, k < k_size, where
// A[m, k] = a[a_batch[i] + a_m[m] + a_k[k]],
// B[k, n] = b[b_batch[i] + b_k[k] + b_n[n]] (element offsets: any strides,
// broadcasts, diagonals or merged axes; b_k may be null when n_size == 1,
// meaning every b_k[k] is 0) and
// C[m, n] = c[c_batch[i] + c_m[m] + n] (unit stride along n, distinct
// elements across the whole batch). C is written, not read, and must not
// overlap A or B. Buffers are allocated by the caller (scratch), so a
// failure leaves C untouched.
//
// Summation order, the same on every target (no fused multiply-add): k
// splits into blocks of kSumBlock (the last one shorter); each block is
// summed from zero as below, and the blocks' sums combine pairwise
// (PairwiseTree of simd/numeric-inl.h with one block per leaf: halves, the
// first of blocks / 2 blocks, recursively):
// - n_size > 1: a block's sum adds its products one at a time in k order
//   (a cache-blocked, packed product, vectorised along n); the block sums
//   combine as scalars;
// - n_size == 1: a block's sum is 64 / sizeof(T) interleaved partial sums
//   (partial l takes the block's k = l mod that count, the last incomplete
//   group padded with zeros); the blocks' partials combine lane by lane,
//   and the final partials fold as a balanced tree (halves added).
// Per C element, the error is within (b(K) + 1) u sum |products| with
// b(K) = min(K, kSumBlock) + ceil(log2(ceil(K / kSumBlock))) for K = k_size
// (to first order in u). Integers wrap.
struct GemmTask {
  DType dtype;  // Float32, Float64, Int32 or Int64.
  int64_t batch;
  const int64_t* a_batch;
  const int64_t* b_batch;
  const int64_t* c_batch;
  int64_t m_size, n_size, k_size;
  const void* a;
  const int64_t* a_m;
  const int64_t* a_k;
  const void* b;
  const int64_t* b_k;
  const int64_t* b_n;
  void* c;
  const int64_t* c_m;
  // At least the scratch bytes GemmScratchBytesKernels gives, from the caller
  // (kernels never allocate).
  void* scratch = nullptr;
};

namespace simd {

// The product with the kernel of the active target (returns its
// HWY_TARGET), and the scratch bytes it needs.
using GemmKernel = int64_t (*)(const GemmTask&);
KernelTable<GemmKernel> GemmKernels();
KernelTable<GemmKernel> GemmScratchBytesKernels();

}  // namespace simd

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_CONTRACTION_TASK_H_
