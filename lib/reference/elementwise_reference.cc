// The reference elementwise kernels: the plainest correct loops, one element
// at a time through each view's index mapping (the oracle of the
// equivalence tests and what the "reference" target runs).
#include "numeric_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "scalar_ops.h"

namespace stridekit::reference {
namespace {

template <typename T>
T ApplyBinary(BinaryOp op, T a, T b) {
  switch (op) {
#define STRIDEKIT_BINARY_CASE(Name, value, name, kinds, prechecked)         \
  case BinaryOp::k##Name:                                                   \
    if constexpr (prechecked && scalar_ops::kIsInt<T>) {                    \
      scalar_ops::OperandCheck<BinaryOp::k##Name>::Run(a, b);               \
    }                                                                       \
    if constexpr (((kinds)&kKindOf<T>) != 0) return scalar_ops::Name(a, b); \
    break;
    STRIDEKIT_BINARY_OPS(STRIDEKIT_BINARY_CASE)
#undef STRIDEKIT_BINARY_CASE
  }
  return T{};
}

template <typename T>
T ApplyUnary(UnaryOp op, T a) {
  switch (op) {
#define STRIDEKIT_UNARY_CASE(Name, value, name, kinds, prechecked)       \
  case UnaryOp::k##Name:                                                 \
    if constexpr (prechecked && scalar_ops::kIsInt<T>) {                 \
      scalar_ops::UnaryOperandCheck<UnaryOp::k##Name>::Run(a);           \
    }                                                                    \
    if constexpr (((kinds)&kKindOf<T>) != 0) return scalar_ops::Name(a); \
    break;
    STRIDEKIT_UNARY_OPS(STRIDEKIT_UNARY_CASE)
#undef STRIDEKIT_UNARY_CASE
  }
  return T{};
}

}  // namespace

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data) {
  CheckBinaryArguments(op, t, a, a_data, b, b_data, out, out_data);
  RunBinary(op, t, a, a_data, b, b_data, out, out_data);
}

void RunBinary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& b, const void* b_data, const sk_view& out,
               void* out_data) {
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<T>(out, out_data, [&](const Dims& index) {
      return ApplyBinary(op, ReadBroadcast<T>(a, a_data, out, index),
                         ReadBroadcast<T>(b, b_data, out, index));
    });
  });
}

void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data) {
  CheckUnaryArguments(op, t, a, a_data, out, out_data);
  RunUnary(op, t, a, a_data, out, out_data);
}

void RunUnary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
              const sk_view& out, void* out_data) {
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<T>(out, out_data, [&](const Dims& index) {
      return ApplyUnary(op, ReadBroadcast<T>(a, a_data, out, index));
    });
  });
}

}  // namespace stridekit::reference
