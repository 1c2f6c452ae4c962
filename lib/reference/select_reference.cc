// The reference kernels of the bool-output families (comparisons,
// predicates) and of where: one element at a time through each view's
// index mapping (the oracle of the equivalence tests and what the
// "reference" target runs).
#include <cstring>

#include "compare_scalar.h"
#include "numeric_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "scalar_ops.h"

namespace stridekit::reference {
namespace {

// Sixteen bytes moved as a unit (complex128 under where).
struct Bytes16 {
  uint64_t lo, hi;
};

// Calls fn(U{}) with the unsigned storage of `size` bytes.
template <typename Fn>
void VisitElementSize(size_t size, Fn&& fn) {
  switch (size) {
    case 1:
      return fn(uint8_t{});
    case 2:
      return fn(uint16_t{});
    case 4:
      return fn(uint32_t{});
    case 8:
      return fn(uint64_t{});
    default:
      return fn(Bytes16{});
  }
}

}  // namespace

void Compare(CompareOp op, DType t, const sk_view& a, const void* a_data,
             const sk_view& b, const void* b_data, const sk_view& out,
             void* out_data) {
  CheckCompareArguments(op, t, a, a_data, b, b_data, out, out_data);
  RunCompare(op, t, a, a_data, b, b_data, out, out_data);
}

void RunCompare(CompareOp op, DType t, const sk_view& a, const void* a_data,
                const sk_view& b, const void* b_data, const sk_view& out,
                void* out_data) {
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<uint8_t>(out, out_data, [&](const Dims& index) {
      return uint8_t(
          compare_ops::Compare(op, ReadBroadcast<T>(a, a_data, out, index),
                               ReadBroadcast<T>(b, b_data, out, index)));
    });
  });
}

void Predicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& out, void* out_data) {
  CheckPredicateArguments(op, t, a, a_data, out, out_data);
  RunPredicate(op, t, a, a_data, out, out_data);
}

void RunPredicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
                  const sk_view& out, void* out_data) {
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<uint8_t>(out, out_data, [&](const Dims& index) {
      return uint8_t(
          compare_ops::Predicate(op, ReadBroadcast<T>(a, a_data, out, index)));
    });
  });
}

void Where(DType t, const sk_view& cond, const void* cond_data,
           const sk_view& a, const void* a_data, const sk_view& b,
           const void* b_data, const sk_view& out, void* out_data) {
  CheckWhereArguments(t, cond, cond_data, a, a_data, b, b_data, out, out_data);
  RunWhere(t, cond, cond_data, a, a_data, b, b_data, out, out_data);
}

void RunWhere(DType t, const sk_view& cond, const void* cond_data,
              const sk_view& a, const void* a_data, const sk_view& b,
              const void* b_data, const sk_view& out, void* out_data) {
  VisitElementSize(DTypeSize(t), [&](auto zero) {
    using U = decltype(zero);
    ComputeAndWrite<U>(out, out_data, [&](const Dims& index) {
      return ReadBroadcast<uint8_t>(cond, cond_data, out, index) != 0
                 ? ReadBroadcast<U>(a, a_data, out, index)
                 : ReadBroadcast<U>(b, b_data, out, index);
    });
  });
}

}  // namespace stridekit::reference
