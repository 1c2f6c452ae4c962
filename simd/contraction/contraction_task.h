// What the per-target contraction kernel runs: one matrix product over
// operands of any layout, described by element-offset tables.
#ifndef STRIDEKIT_SIMD_CONTRACTION_CONTRACTION_TASK_H_
#define STRIDEKIT_SIMD_CONTRACTION_CONTRACTION_TASK_H_

#include <cstddef>
#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/dtype.h"

namespace stridekit {

// Products summed per k block before the blocks' sums combine pairwise.
inline constexpr int64_t kSumBlock = 128;

// For each batch position i < batch, C[m, n] = sum_k A[m, k] * B[k, n]
// for m < m_size, n < n_size, k < k_size, where
// A[m, k] = a[a_batch[i] + a_m[m] + a_k[k]],
// B[k, n] = b[b_batch[i] + b_k[k] + b_n[n]] (element offsets: any strides,
// broadcasts, diagonals or merged axes; a null a_k or b_k table means the
// progression a_k[k] = k * a_k_step, b_k[k] = k * b_k_step) and
// C[m, n] = c[c_batch[i] + c_m[m] + n] (unit stride along n, distinct
// elements across the whole batch). C is written, not read, and must not
// overlap A or B. Buffers are allocated by the caller (scratch), so a
// failure leaves C untouched.
//
// Summation order, the same on every target, each product added to its
// sum by the multiply-add rule (simd/common/multiply_add-inl.h, rounded once):
// k splits into blocks of kSumBlock (the last one shorter); each block is
// summed from zero as below, and the blocks' sums combine pairwise
// (PairwiseTree of simd/common/numeric-inl.h with one block per leaf: halves,
// the first of blocks / 2 blocks, recursively):
// - n_size > 1: a block's sum adds its products one at a time in k order
//   (a cache-blocked, packed product, vectorised along n); the block sums
//   combine as scalars;
// - n_size == 1: a block's sum is kDotPartials<T> = 64 / sizeof(T)
//   interleaved partial sums (partial l takes the block's k = l mod that
//   count, the last incomplete group padded with zeros); the blocks'
//   partials combine lane by lane, and the final partials fold as
//   FoldDotPartials does (halves added).
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
  // The steps of null a_k, b_k tables.
  int64_t a_k_step = 0, b_k_step = 0;
  // A share of one long dot product (batch == m_size == n_size == 1), for
  // threads: with dot_partials set, the kernel sums only k blocks
  // [dot_block_begin, dot_block_begin + dot_block_count) (PairwiseTree's
  // order over them) and writes their kDotPartials<T> partial sums there
  // instead of C; the caller combines whole subtrees of the block tree
  // lane by lane (PairwiseTree) and folds them (FoldDotPartials), which
  // gives the bits of the undivided product.
  void* dot_partials = nullptr;
  int64_t dot_block_begin = 0, dot_block_count = 0;

  int64_t AK(int64_t k) const { return a_k ? a_k[k] : k * a_k_step; }
  int64_t BK(int64_t k) const { return b_k ? b_k[k] : k * b_k_step; }
};

// The interleaved partial sums of the dot-product path.
template <typename T>
inline constexpr int64_t kDotPartials = 64 / int64_t(sizeof(T));

// The final fold of a dot product's partials (halves added, to one value).
template <typename T, class AddFn>
T FoldDotPartials(T* partial, AddFn add) {
  for (int64_t width = kDotPartials<T> / 2; width > 0; width /= 2) {
    for (int64_t l = 0; l < width; ++l) {
      partial[l] = add(partial[l], partial[l + width]);
    }
  }
  return partial[0];
}

namespace simd {

// The product with the kernel of the active target (returns its
// HWY_TARGET), and the scratch bytes it needs.
using GemmKernel = int64_t (*)(const GemmTask&);
KernelTable<GemmKernel> GemmKernels();
KernelTable<GemmKernel> GemmScratchBytesKernels();

}  // namespace simd

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_CONTRACTION_CONTRACTION_TASK_H_
