#include "numeric_checks.h"

#include "copy_checks.h"
#include "strided_layout.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

void CheckNumericDType(DType t, const char* op) {
  if (t != DType::kFloat32 && t != DType::kFloat64 && t != DType::kInt32 &&
      t != DType::kInt64) {
    Fail(ErrorKind::kUnsupported, op, ": dtype ",
         IsValidDType(int32_t(t)) ? DTypeName(t) : "(unknown)",
         " is not supported (Float32, Float64, Int32, Int64)");
  }
}

const char* OpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "add";
    case BinaryOp::kSub:
      return "subtract";
    case BinaryOp::kMul:
      return "multiply";
    case BinaryOp::kDiv:
      return "divide";
    case BinaryOp::kMin:
      return "minimum";
    case BinaryOp::kMax:
      return "maximum";
  }
  Fail(ErrorKind::kInvalidArgument, "binary: unknown op ", int32_t(op));
}

const char* OpName(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg:
      return "negative";
    case UnaryOp::kAbs:
      return "absolute";
    case UnaryOp::kSqrt:
      return "sqrt";
    case UnaryOp::kSquare:
      return "square";
  }
  Fail(ErrorKind::kInvalidArgument, "unary: unknown op ", int32_t(op));
}

const char* OpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kProd:
      return "prod";
    case ReduceOp::kMin:
      return "min";
    case ReduceOp::kMax:
      return "max";
  }
  Fail(ErrorKind::kInvalidArgument, "reduce: unknown op ", int32_t(op));
}

void CheckBinaryArguments(BinaryOp op, DType t, const sk_view& a,
                          const void* a_data, const sk_view& b,
                          const void* b_data, const sk_view& out,
                          const void* out_data) {
  const char* name = OpName(op);
  CheckNumericDType(t, name);
  CheckCopyArguments(DTypeSize(t), a, a_data, out, out_data, name);
  CheckCopyArguments(DTypeSize(t), b, b_data, out, out_data, name);
}

void CheckUnaryArguments(UnaryOp op, DType t, const sk_view& a,
                         const void* a_data, const sk_view& out,
                         const void* out_data) {
  const char* name = OpName(op);
  CheckNumericDType(t, name);
  if (op == UnaryOp::kSqrt && IsInteger(t)) {
    Fail(ErrorKind::kUnsupported, name, ": integer dtype ", DTypeName(t),
         " is not supported (NumPy returns floats; stridekit keeps the "
         "dtype)");
  }
  CheckCopyArguments(DTypeSize(t), a, a_data, out, out_data, name);
}

Dims CheckReduceArguments(ReduceOp op, DType t, const sk_view& in,
                          const void* in_data, std::span<const int32_t> axes,
                          const sk_view& out, const void* out_data) {
  const char* name = OpName(op);
  CheckNumericDType(t, name);
  const int64_t elem_size = int64_t(DTypeSize(t));
  CheckLayout(in, elem_size, name);
  CheckLayout(out, elem_size, name);
  Dims reduced(in.ndim, 0);
  for (const int32_t axis : axes) {
    if (axis < -in.ndim || axis >= in.ndim) {
      Fail(ErrorKind::kInvalidArgument, name, ": axis ", axis,
           " is out of bounds for array of dimension ", in.ndim);
    }
    const int d = axis < 0 ? axis + in.ndim : axis;
    if (reduced[d]) {
      Fail(ErrorKind::kInvalidArgument, name, ": duplicate value in 'axis' (",
           d, ")");
    }
    reduced[d] = 1;
  }
  const DimsView in_shape(in.shape, size_t(in.ndim));
  const DimsView out_shape(out.shape, size_t(out.ndim));
  const bool keepdims = out.ndim == in.ndim;
  bool ok = keepdims || out.ndim == in.ndim - int(axes.size());
  for (int d = 0, j = 0; ok && d < in.ndim; ++d) {
    if (reduced[d] && !keepdims) continue;
    ok = out.shape[j++] == (reduced[d] ? 1 : in.shape[d]);
  }
  if (!ok) {
    Fail(ErrorKind::kInvalidArgument, name, ": output shape ",
         ToString(out_shape), " does not match input shape ",
         ToString(in_shape), " reduced over ", axes.size(),
         " axes (with or without keepdims)");
  }
  if (op == ReduceOp::kMin || op == ReduceOp::kMax) {
    for (int d = 0; d < in.ndim; ++d) {
      if (reduced[d] && in.shape[d] == 0) {
        Fail(ErrorKind::kInvalidArgument, name,
             ": zero-size array to reduction operation ",
             op == ReduceOp::kMin ? "minimum" : "maximum",
             " which has no identity");
      }
    }
  }
  CheckDistinctPositions(out, name);
  CheckData(out, out_data, name, "destination");
  if (Numel(out_shape) > 0) CheckData(in, in_data, name, "source");
  return reduced;
}

}  // namespace stridekit
