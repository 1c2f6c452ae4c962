// The reference arg reductions and scans: one element at a time through the
// views' index mappings, sequential along the axis (scalar_ops' ArgMin,
// ArgMax, Cumsum, ... rows), every value computed before the first write.
#include <vector>

#include "numeric_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "scalar_ops.h"

namespace stridekit::reference {

void ArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
               int32_t axis, const sk_view& out, void* out_data) {
  const int a =
      CheckArgReduceArguments(op, t, in, in_data, axis, out, out_data);
  RunArgReduce(op, t, in, in_data, a, out, out_data);
}

void RunArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
                  int axis, const sk_view& out, void* out_data) {
  const bool keepdims = out.ndim == in.ndim;
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (kKindOf<T> & kOrderedKinds) {
      ComputeAndWrite<int64_t>(out, out_data, [&](const Dims& out_index) {
        Dims index(in.ndim, 0);
        for (int d = 0, j = 0; d < in.ndim; ++d) {
          if (d != axis) index[d] = out_index[j];
          if (keepdims || d != axis) ++j;
        }
        T best = ReadAt<T>(in, in_data, index);
        int64_t at = 0;
        for (int64_t k = 1; k < in.shape[axis]; ++k) {
          index[axis] = k;
          const T x = ReadAt<T>(in, in_data, index);
          const bool better = op == ArgOp::kArgMin
                                  ? scalar_ops::ArgMin(x, best)
                                  : scalar_ops::ArgMax(x, best);
          if (better) best = x, at = k;
        }
        return at;
      });
    }
  });
}

void Scan(ScanOp op, DType t, const sk_view& in, const void* in_data,
          int32_t axis, const sk_view& out, void* out_data) {
  const int a = CheckScanArguments(op, t, in, in_data, axis, out, out_data);
  RunScan(op, t, in, in_data, a, out, out_data);
}

void RunScan(ScanOp op, DType t, const sk_view& in, const void* in_data,
             int axis, const sk_view& out, void* out_data) {
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    // The results in C order of the shape: element p's predecessor along
    // the axis is p - step.
    const int64_t count = Numel(DimsView(in.shape, size_t(in.ndim)));
    int64_t step = 1;
    for (int d = in.ndim - 1; d > axis; --d) step *= in.shape[d];
    std::vector<T> values(static_cast<size_t>(count));
    Dims index(in.ndim, 0);
    for (int64_t p = 0; p < count; ++p, NextIndex(in, index)) {
      const T x = ReadAt<T>(in, in_data, index);
      values[size_t(p)] =
          index[axis] == 0 ? scalar_ops::ScanFirst(x)
                           : scalar_ops::Scan(op, values[size_t(p - step)], x);
    }
    WriteStaged(out, out_data,
                reinterpret_cast<const unsigned char*>(values.data()),
                sizeof(T));
  });
}

}  // namespace stridekit::reference
