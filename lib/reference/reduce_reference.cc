// The reference reductions: for each output element, the reduced positions
// in C order, one element at a time; float (and complex) sums, products and
// means accumulate in long double and round once (the accuracy oracle of
// the tests); any and all fold truth values into bool.
#include <type_traits>

#include "numeric_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "scalar_ops.h"

namespace stridekit::reference {
namespace {

// The reference's accumulator of T: long double parts for floats.
template <typename T>
struct ReferenceAccumulator {
  using type = T;
};
template <typename T>
requires(kKindOf<T> == kFloatKinds) struct ReferenceAccumulator<T> {
  using type = long double;
};
template <typename T>
requires kIsComplex<T>
struct ReferenceAccumulator<T> {
  using type = Complex<long double>;
};

template <typename Acc, typename T>
Acc ToAccumulator(T x) {
  if constexpr (kIsComplex<T>) {
    return Acc{x.re, x.im};
  } else if constexpr (kIsHalf<T>) {
    return Acc(scalar_ops::Widen(x));
  } else if constexpr (std::is_same_v<T, Bool>) {
    return scalar_ops::Abs(x);  // 0 or 1: bool results are.
  } else {
    return Acc(x);
  }
}

template <typename T, typename Acc>
T FromAccumulator(Acc x) {
  if constexpr (kIsComplex<T>) {
    using P = decltype(T{}.re);
    return T{P(x.re), P(x.im)};
  } else if constexpr (kIsHalf<T>) {
    return cast::RealFromDouble<T>(double(x));
  } else {
    return static_cast<T>(x);
  }
}

// Calls visit(x) for every reduced element x of the output element at
// `out_index`, in C order; returns how many.
template <typename T, typename Visit>
int64_t VisitReduced(const sk_view& in, const void* in_data, DimsView reduced,
                     const Dims& out_index, bool keepdims, Visit visit) {
  // in's index: kept axes from out_index, reduced axes counted by `sub`.
  Dims index(in.ndim, 0);
  sk_view sub{};
  for (int d = 0, j = 0; d < in.ndim; ++d) {
    if (!reduced[d]) {
      index[d] = out_index[j];
      sub.shape[d] = 1;
    } else {
      sub.shape[d] = in.shape[d];
    }
    if (keepdims || !reduced[d]) ++j;
  }
  sub.ndim = in.ndim;
  const int64_t count = Numel(DimsView(sub.shape, size_t(sub.ndim)));
  if (count == 0) return 0;
  Dims counter(in.ndim, 0);
  do {
    for (int d = 0; d < in.ndim; ++d) {
      if (reduced[d]) index[d] = counter[d];
    }
    visit(ReadAt<T>(in, in_data, index));
  } while (NextIndex(sub, counter));
  return count;
}

// Sum, prod, min, max and mean (the sum divided by the count, rounded
// once; NaN for no elements).
template <typename T>
T ReduceOne(ReduceOp op, const sk_view& in, const void* in_data,
            DimsView reduced, const Dims& out_index, bool keepdims) {
  using Acc = typename ReferenceAccumulator<T>::type;
  const ReduceOp kernel_op = KernelReduceOp(op);
  Acc acc = scalar_ops::ReduceIdentity<Acc>(kernel_op);
  bool first = true;
  const int64_t count =
      VisitReduced<T>(in, in_data, reduced, out_index, keepdims, [&](T x) {
        acc = first ? ToAccumulator<Acc>(x)
                    : scalar_ops::Reduce<Acc>(kernel_op, acc,
                                              ToAccumulator<Acc>(x));
        first = false;
      });
  // A single element sums to itself plus zero, as in NumPy (-0.0 -> +0.0).
  if (kernel_op == ReduceOp::kSum && count > 0) {
    acc = scalar_ops::Add<Acc>(acc, scalar_ops::ReduceIdentity<Acc>(kernel_op));
  }
  if constexpr (kKindOf<T> == kFloatKinds) {
    if (op == ReduceOp::kMean) acc = acc / Acc(count);  // 0 / 0 is NaN.
  }
  return FromAccumulator<T>(acc);
}

// Any (no elements: false) and all (no elements: true) of truth values.
template <typename T>
Bool TruthOne(ReduceOp op, const sk_view& in, const void* in_data,
              DimsView reduced, const Dims& out_index, bool keepdims) {
  const bool all = op == ReduceOp::kAll;
  bool result = all;
  VisitReduced<T>(in, in_data, reduced, out_index, keepdims, [&](T x) {
    result =
        all ? result && scalar_ops::IsTrue(x) : result || scalar_ops::IsTrue(x);
  });
  return scalar_ops::MakeBool(result);
}

}  // namespace

void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data) {
  const Dims reduced =
      CheckReduceArguments(op, t, in, in_data, axes, out, out_data);
  RunReduce(op, t, in, in_data, reduced, out, out_data);
}

void RunReduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
               DimsView reduced, const sk_view& out, void* out_data) {
  const bool keepdims = out.ndim == in.ndim;
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    if (op == ReduceOp::kAny || op == ReduceOp::kAll) {
      ComputeAndWrite<Bool>(out, out_data, [&](const Dims& out_index) {
        return TruthOne<T>(op, in, in_data, reduced, out_index, keepdims);
      });
      return;
    }
    ComputeAndWrite<T>(out, out_data, [&](const Dims& out_index) {
      return ReduceOne<T>(op, in, in_data, reduced, out_index, keepdims);
    });
  });
}

}  // namespace stridekit::reference
