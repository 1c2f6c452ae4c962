// The elementwise executor of the ops without a vector form on a type
// (integer division and remainders, gcd, lcm, shifts, power, fmod,
// nextafter: numeric-inl.h's functors whose kVector<T> is false): plain
// loops of the op's scalar_ops function over a plan's rows or tiles. No
// Highway, and outside the per-target namespaces: every target's executor
// calls the one instantiation per type and function, compiled once per
// translation unit instead of once per target.
#ifndef STRIDEKIT_SIMD_COMMON_SCALAR_ELEMENTWISE_H_
#define STRIDEKIT_SIMD_COMMON_SCALAR_ELEMENTWISE_H_

#include <cstdint>

#include "simd/common/numeric_task.h"
#include "stridekit/iteration_plan.h"

namespace stridekit {

// kFn of a unary op as the executor's binary form (b is ignored).
template <typename T, T (*kFn)(T)>
T IgnoringSecond(T a, T) {
  return kFn(a);
}

// out = kFn(a, b) at the positions [task.begin, task.end) of task.plan,
// rows or (a tiled plan) tiles of rows; a unary op reads a zero as b.
template <typename T, T (*kFn)(T, T)>
void RunScalarElementwise(const ElementwiseTask& task) {
  const IterationPlan& plan = *task.plan;
  const bool unary = task.kernel.unary;
  const int operands = unary ? 2 : 3;
  const T zero{};
  T* out = static_cast<T*>(task.out);
  const T* a = static_cast<const T*>(task.in[0]);
  const T* b = unary ? &zero : static_cast<const T*>(task.in[1]);
  // A tiled plan's chunks are tiles: rows along its next-to-last axis.
  const bool tiled = plan.tiled() && plan.ndim() >= 2;
  const int64_t rows = tiled ? plan.shape()[plan.ndim() - 2] : 1;
  int64_t row[3] = {}, col[3] = {};
  for (int k = 0; k < operands; ++k) {
    row[k] = tiled ? plan.strides(k)[plan.ndim() - 2] : 0;
    col[k] = plan.inner_stride(k);
  }
  const int64_t count = plan.inner_size();
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    const int64_t b0 = unary ? 0 : chunk.offsets[2];
    for (int64_t r = 0; r < rows; ++r) {
      T* o = out + chunk.offsets[0] + r * row[0];
      const T* x = a + chunk.offsets[1] + r * row[1];
      const T* y = b + b0 + r * row[2];
      for (int64_t i = 0; i < count; ++i) {
        o[i * col[0]] = kFn(x[i * col[1]], y[i * col[2]]);
      }
    }
  }
}

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_COMMON_SCALAR_ELEMENTWISE_H_
