// Building blocks of the reference numeric kernels: per-element reads
// through a view's index mapping and the compute-then-write loop.
#ifndef STRIDEKIT_LIB_REFERENCE_LOOPS_H_
#define STRIDEKIT_LIB_REFERENCE_LOOPS_H_

#include <cstring>
#include <vector>

#include "strided_layout.h"
#include "stridekit/c_types.h"
#include "stridekit/dims.h"
#include "stridekit/shape.h"

namespace stridekit::reference {

// Element `index` of `in` (in's own index space); zero where in is masked
// out.
template <typename T>
T ReadAt(const sk_view& in, const void* data, const Dims& index) {
  int64_t offset = in.offset;
  for (int d = 0; d < in.ndim; ++d) {
    if (!AxisValid(in, d, index[d])) return T{};
    // offset-checked: callers validated `in` (CheckStridedLayout)
    offset += index[d] * in.strides[d];
  }
  return static_cast<const T*>(data)[offset];
}

// Element `index` of out's index space read from `in` broadcast to out's
// shape; zero where in is masked out.
template <typename T>
T ReadBroadcast(const sk_view& in, const void* data, const sk_view& out,
                const Dims& index) {
  const int lead = out.ndim - in.ndim;
  Dims in_index(in.ndim, 0);
  for (int j = 0; j < in.ndim; ++j) {
    in_index[j] = in.shape[j] == 1 ? 0 : index[j + lead];
  }
  return ReadAt<T>(in, data, in_index);
}

// out[i] = compute(i) at every valid position i of out. Every value is
// computed (and may throw) before the first write, so inputs overlapping
// out behave as if copied to a temporary, and errors leave out untouched.
template <typename T, typename Compute>
void ComputeAndWrite(const sk_view& out, void* out_data, Compute compute) {
  const int64_t count = Numel(DimsView(out.shape, size_t(out.ndim)));
  std::vector<T> values;
  Dims index(out.ndim, 0);
  for (int64_t k = 0; k < count; ++k, NextIndex(out, index)) {
    bool valid = true;
    for (int d = 0; d < out.ndim; ++d) valid &= AxisValid(out, d, index[d]);
    if (valid) values.push_back(compute(index));
  }
  index.assign(out.ndim, 0);
  size_t next = 0;
  for (int64_t k = 0; k < count; ++k, NextIndex(out, index)) {
    int64_t offset = out.offset;
    bool valid = true;
    for (int d = 0; d < out.ndim; ++d) {
      valid &= AxisValid(out, d, index[d]);
      // offset-checked: callers validated `out` (CheckStridedLayout)
      offset += index[d] * out.strides[d];
    }
    if (valid) static_cast<T*>(out_data)[offset] = values[next++];
  }
}

// Writes values[k] (elem_size bytes each, k in C order of dst's shape) to
// every valid position k of dst; masked-out positions are skipped.
inline void WriteStaged(const sk_view& dst, void* dst_data,
                        const unsigned char* values, size_t elem_size) {
  auto* to = static_cast<unsigned char*>(dst_data);
  const int64_t count = Numel(DimsView(dst.shape, size_t(dst.ndim)));
  Dims index(dst.ndim, 0);
  for (int64_t k = 0; k < count; ++k, NextIndex(dst, index)) {
    int64_t offset = dst.offset;
    bool valid = true;
    for (int d = 0; d < dst.ndim; ++d) {
      valid = valid && AxisValid(dst, d, index[d]);
      // offset-checked: callers validated `dst` (CheckLayout)
      offset += index[d] * dst.strides[d];
    }
    if (valid) {
      // offset-checked: byte offsets validated (CheckByteOffsets)
      std::memcpy(to + offset * int64_t(elem_size),
                  values + size_t(k) * elem_size, elem_size);
    }
  }
}

}  // namespace stridekit::reference

#endif  // STRIDEKIT_LIB_REFERENCE_LOOPS_H_
