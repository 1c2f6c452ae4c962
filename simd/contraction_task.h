// What the per-target contraction kernel runs: one matrix product over
// operands of any layout, described by element-offset tables.
#ifndef STRIDEKIT_SIMD_CONTRACTION_TASK_H_
#define STRIDEKIT_SIMD_CONTRACTION_TASK_H_

#include <cstddef>
#include <cstdint>

#include "dispatch_table.h"
#include "stridekit/dtype.h"

namespace stridekit {

// For each batch position i < batch, C[m, n] += sum_k A[m, k] * B[k, n]
// for m < m_size, n < n_size, k < k_size, where
// A[m, k] = a[a_batch[i] + a_m[m] + a_k[k]],
// B[k, n] = b[b_batch[i] + b_k[k] + b_n[n]] (element offsets: any strides,
// broadcasts, diagonals or merged axes) and
// C[m, n] = c[c_batch[i] + c_m[m] + n] (unit stride along n, distinct
// elements across the whole batch). C must not overlap A or B. With
// `overwrite`, C is taken as zero on entry (not read): the same bits as
// zero-filled C. Buffers are allocated before anything is written, so a
// kNoMemory failure leaves C untouched.
//
// Summation order, the same on every target (no fused multiply-add):
// - n_size > 1: each C element adds its products one at a time in k order,
//   starting from its current value (a cache-blocked, packed product,
//   vectorised along n);
// - n_size == 1: each C element adds one sum, formed in 64 / sizeof(T)
//   interleaved partial sums (partial l takes k = l mod that count, the
//   last incomplete group padded with zeros) combined as a balanced tree.
// Integers wrap.
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
  bool overwrite;
  // At least the scratch bytes GemmScratchBytesKernels gives, from the caller
  // (kernels never allocate).
  void* scratch = nullptr;
};

namespace simd {

// Runs `task` with the kernel of the target in HWY_EXPORT table slot `slot`
// (simd/dispatch_table.h); returns that target's HWY_TARGET. Throws
// kNoMemory when the packing buffers cannot be allocated.
// The product (returns HWY_TARGET), and the scratch bytes it needs.
using GemmKernel = int64_t (*)(const GemmTask&);
KernelTable<GemmKernel> GemmKernels();
KernelTable<GemmKernel> GemmScratchBytesKernels();

}  // namespace simd

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_CONTRACTION_TASK_H_
