#include "numeric_checks.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "copy_checks.h"
#include "numeric_types.h"
#include "strided_layout.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

template <typename List>
void CheckDTypeIn(DType t, const char* op) {
  if (!InTypes<List>(t)) {
    Fail(ErrorKind::kUnsupported, op, ": dtype ",
         IsValidDType(int32_t(t)) ? DTypeName(t) : "(unknown)",
         " is not supported (", DTypeNames<List>(), ")");
  }
}

void CheckNumericDType(DType t, const char* op) {
  CheckDTypeIn<NumericTypes>(t, op);
}

namespace {

// The row of `op`; throws naming `family` for a value no row has.
template <typename Op>
const OpInfo<Op>& RowOf(Op op, const char* family) {
  const OpInfo<Op>* row = FindOp(op);
  if (row == nullptr) {
    Fail(ErrorKind::kInvalidArgument, family, ": unknown op ", int32_t(op));
  }
  return *row;
}

// Throws kUnsupported unless t is numeric and of a kind `row` accepts.
template <typename Op>
void CheckOpDType(const OpInfo<Op>& row, DType t) {
  CheckNumericDType(t, row.name);
  const uint32_t kind = KindOf(t);
  if ((row.kinds & kind) == 0) {
    Fail(ErrorKind::kUnsupported, row.name, ": ",
         kind == kIntegerKinds ? "integer"
         : kind == kFloatKinds ? "float"
         : kind == kBoolKinds  ? "bool"
                               : "complex",
         " dtype ", DTypeName(t), " is not supported",
         std::string_view(row.name) == "mean"
             ? " (NumPy's mean returns float64 for it: cast first)"
         : kind == kIntegerKinds
             ? " (NumPy returns floats; stridekit keeps the dtype)"
             : "");
  }
}

}  // namespace

const char* OpName(BinaryOp op) { return RowOf(op, "binary").name; }
const char* OpName(UnaryOp op) { return RowOf(op, "unary").name; }
const char* OpName(ReduceOp op) { return RowOf(op, "reduce").name; }
const char* OpName(ArgOp op) { return RowOf(op, "arg_reduce").name; }
const char* OpName(ScanOp op) { return RowOf(op, "scan").name; }

const OpInfo<BinaryOp>& CheckBinaryArguments(
    BinaryOp op, DType t, const sk_view& a, const void* a_data,
    const sk_view& b, const void* b_data, const sk_view& out,
    const void* out_data, int64_t* dense) {
  const OpInfo<BinaryOp>& row = RowOf(op, "binary");
  CheckOpDType(row, t);
  const sk_view* views[3] = {&out, &a, &b};
  const void* datas[3] = {out_data, a_data, b_data};
  const size_t es = DTypeSize(t);
  const size_t sizes[3] = {es, es, es};
  const int64_t count = DenseLayoutCount(views, datas, sizes);
  if (dense != nullptr) *dense = count;
  if (count > 0) return row;
  CheckCopyArguments(DTypeSize(t), a, a_data, out, out_data, row.name);
  CheckLayout(b, DTypeSize(t), row.name);
  CheckSource(b, b_data, out, row.name);
  return row;
}

const OpInfo<UnaryOp>& CheckUnaryArguments(UnaryOp op, DType t,
                                           const sk_view& a, const void* a_data,
                                           const sk_view& out,
                                           const void* out_data,
                                           int64_t* dense) {
  const OpInfo<UnaryOp>& row = RowOf(op, "unary");
  CheckOpDType(row, t);
  const sk_view* views[2] = {&out, &a};
  const void* datas[2] = {out_data, a_data};
  const size_t es = DTypeSize(t);
  const size_t sizes[2] = {es, es};
  const int64_t count = DenseLayoutCount(views, datas, sizes);
  if (dense != nullptr) *dense = count;
  if (count > 0) return row;
  CheckCopyArguments(DTypeSize(t), a, a_data, out, out_data, row.name);
  return row;
}

Dims CheckReduceArguments(ReduceOp op, DType t, const sk_view& in,
                          const void* in_data, std::span<const int32_t> axes,
                          const sk_view& out, const void* out_data) {
  const OpInfo<ReduceOp>& row = RowOf(op, "reduce");
  const char* name = row.name;
  CheckOpDType(row, t);
  const int64_t elem_size = int64_t(DTypeSize(t));
  CheckLayout(in, elem_size, name);
  CheckLayout(out, int64_t(DTypeSize(ReduceOutputDType(op, t))), name);
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

namespace {

// `axis` of `in` (negative counts from the end) as 0 .. ndim - 1.
int AxisOf(int32_t axis, const sk_view& in, const char* name) {
  if (axis < -in.ndim || axis >= in.ndim) {
    Fail(ErrorKind::kInvalidArgument, name, ": axis ", axis,
         " is out of bounds for array of dimension ", in.ndim);
  }
  return axis < 0 ? axis + in.ndim : axis;
}

}  // namespace

int CheckArgReduceArguments(ArgOp op, DType t, const sk_view& in,
                            const void* in_data, int32_t axis,
                            const sk_view& out, const void* out_data) {
  const OpInfo<ArgOp>& row = RowOf(op, "arg_reduce");
  const char* name = row.name;
  CheckOpDType(row, t);
  CheckLayout(in, int64_t(DTypeSize(t)), name);
  CheckLayout(out, int64_t(sizeof(int64_t)), name);
  const int a = AxisOf(axis, in, name);
  const bool keepdims = out.ndim == in.ndim;
  bool ok = keepdims || out.ndim == in.ndim - 1;
  for (int d = 0, j = 0; ok && d < in.ndim; ++d) {
    if (d == a && !keepdims) continue;
    ok = out.shape[j++] == (d == a ? 1 : in.shape[d]);
  }
  if (!ok) {
    Fail(ErrorKind::kInvalidArgument, name, ": output shape ",
         ToString(DimsView(out.shape, size_t(out.ndim))),
         " does not match input shape ",
         ToString(DimsView(in.shape, size_t(in.ndim))), " without axis ", a,
         " (with or without keepdims)");
  }
  if (in.shape[a] == 0) {
    Fail(ErrorKind::kInvalidArgument, name, ": attempt to get ", name,
         " of an empty sequence (axis ", a, " has length 0)");
  }
  CheckDistinctPositions(out, name);
  CheckData(out, out_data, name, "destination");
  if (Numel(DimsView(out.shape, size_t(out.ndim))) > 0) {
    CheckData(in, in_data, name, "source");
  }
  return a;
}

int CheckScanArguments(ScanOp op, DType t, const sk_view& in,
                       const void* in_data, int32_t axis, const sk_view& out,
                       const void* out_data) {
  const OpInfo<ScanOp>& row = RowOf(op, "scan");
  const char* name = row.name;
  CheckOpDType(row, t);
  const int64_t elem_size = int64_t(DTypeSize(t));
  CheckLayout(in, elem_size, name);
  CheckLayout(out, elem_size, name);
  const int a = AxisOf(axis, in, name);
  const DimsView in_shape(in.shape, size_t(in.ndim));
  const DimsView out_shape(out.shape, size_t(out.ndim));
  if (!std::equal(in_shape.begin(), in_shape.end(), out_shape.begin(),
                  out_shape.end())) {
    Fail(ErrorKind::kInvalidArgument, name, ": output shape ",
         ToString(out_shape), " is not the input shape ", ToString(in_shape));
  }
  CheckDistinctPositions(out, name);
  CheckData(out, out_data, name, "destination");
  if (Numel(in_shape) > 0) CheckData(in, in_data, name, "source");
  return a;
}

Projections CheckEinsumArguments(
    std::string_view spec, DType t, std::span<const sk_view> operands,
    std::span<const void* const> datas, const sk_view& out,
    const void* out_data, std::optional<std::span<const RowLengths>> rows) {
  constexpr const char* kOp = "einsum";
  CheckDTypeIn<EinsumTypes>(t, kOp);
  if (operands.size() != datas.size()) {
    Fail(ErrorKind::kInvalidArgument, kOp, ": ", operands.size(),
         " operand views but ", datas.size(), " data pointers");
  }
  const size_t elem_size = DTypeSize(t);
  // The operands' shapes, on the stack unless there are very many.
  const bool few = operands.size() <= size_t(kMaxRank);
  InlineVector<DimsView, kMaxRank> inline_shapes;
  std::vector<DimsView> heap_shapes;
  for (const sk_view& v : operands) {
    CheckLayout(v, elem_size, kOp);
    const DimsView shape(v.shape, size_t(v.ndim));
    few ? inline_shapes.push_back(shape) : heap_shapes.push_back(shape);
  }
  const std::span<const DimsView> shapes =
      few ? std::span<const DimsView>(inline_shapes) : heap_shapes;
  CheckLayout(out, elem_size, kOp);
  CheckDistinctPositions(out, kOp);
  Projections p = EinsumSpecProjections(spec, shapes, rows);
  const DimsView out_shape(out.shape, size_t(out.ndim));
  if (!std::equal(out_shape.begin(), out_shape.end(), p.result_shape.begin(),
                  p.result_shape.end())) {
    Fail(ErrorKind::kInvalidArgument, kOp, ": out has shape ",
         ToString(out_shape), " but \"", spec, "\" gives ",
         ToString(p.result_shape));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    CheckData(operands[i], datas[i], kOp, "operand");
  }
  CheckData(out, out_data, kOp, "out");
  const auto check_map = [&](const AxisMap& map) {
    for (const AxisIndex& index : map) {
      if (index.kind == AxisIndex::Kind::kSliceIndex) {
        Fail(ErrorKind::kUnsupported, kOp,
             ": batch-slice indices are not executable here");
      }
    }
  };
  check_map(p.result_map);
  for (const AxisMap& map : p.operand_maps) check_map(map);
  return p;
}

// ---- The bool-output families.

const char* OpName(CompareOp op) { return RowOf(op, "compare").name; }
const char* OpName(PredicateOp op) { return RowOf(op, "unary").name; }

void CheckCompareArguments(CompareOp op, DType t, const sk_view& a,
                           const void* a_data, const sk_view& b,
                           const void* b_data, const sk_view& out,
                           const void* out_data) {
  const OpInfo<CompareOp>& row = RowOf(op, "compare");
  CheckNumericDType(t, row.name);
  if (KindOf(t) == kComplexKinds && (row.kinds & kComplexKinds) == 0) {
    Fail(ErrorKind::kUnsupported, row.name, ": complex dtype ", DTypeName(t),
         " has no order (NumPy 1.24 orders complex lexicographically; "
         "stridekit refuses)");
  }
  CheckOpDType(row, t);
  const sk_view* views[3] = {&out, &a, &b};
  const void* datas[3] = {out_data, a_data, b_data};
  const size_t sizes[3] = {1, DTypeSize(t), DTypeSize(t)};
  if (DenseLayoutCount(views, datas, sizes) > 0) return;
  CheckLayout(a, DTypeSize(t), row.name);
  CheckLayout(b, DTypeSize(t), row.name);
  CheckLayout(out, 1, row.name);
  CheckSourceAndDestination(a, a_data, out, out_data, row.name);
  CheckSource(b, b_data, out, row.name);
}

void CheckPredicateArguments(PredicateOp op, DType t, const sk_view& a,
                             const void* a_data, const sk_view& out,
                             const void* out_data) {
  const OpInfo<PredicateOp>& row = RowOf(op, "unary");
  CheckOpDType(row, t);
  const sk_view* views[2] = {&out, &a};
  const void* datas[2] = {out_data, a_data};
  const size_t sizes[2] = {1, DTypeSize(t)};
  if (DenseLayoutCount(views, datas, sizes) > 0) return;
  CheckLayout(a, DTypeSize(t), row.name);
  CheckLayout(out, 1, row.name);
  CheckSourceAndDestination(a, a_data, out, out_data, row.name);
}

void CheckWhereArguments(DType t, const sk_view& cond, const void* cond_data,
                         const sk_view& a, const void* a_data, const sk_view& b,
                         const void* b_data, const sk_view& out,
                         const void* out_data) {
  const char* name = "where";
  CheckNumericDType(t, name);
  CheckLayout(cond, 1, name);
  CheckLayout(a, DTypeSize(t), name);
  CheckLayout(b, DTypeSize(t), name);
  CheckLayout(out, DTypeSize(t), name);
  CheckSourceAndDestination(cond, cond_data, out, out_data, name);
  CheckSource(a, a_data, out, name);
  CheckSource(b, b_data, out, name);
}

}  // namespace stridekit
