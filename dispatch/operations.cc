// The Operations of the two kinds of executor (dispatch/executor.h).
#include "cast_reference.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "index_reference.h"
#include "reference_kernels.h"
#include "scalar_ops.h"

namespace stridekit::dispatch {

Operations EngineOperations() {
  return {EngineCopy,    EngineBinary,    EngineUnary,     EngineReduce,
          EngineCast,    EngineEinsum,    EngineArgReduce, EngineScan,
          EngineCompare, EnginePredicate, EngineWhere};
}

Operations ReferenceOperations() {
  // The reference loops, single-threaded, noted as the reference's code.
  return {
      [](const Executor&, size_t elem_size, const sk_view& src,
         const void* src_data, const sk_view& dst, void* dst_data,
         const void* fill, const CopyOptions&) {
        reference::RunCopy(elem_size, src, src_data, dst, dst_data, fill);
        NoteKernelRan(0);
      },
      [](const Executor&, BinaryOp op, DType t, const sk_view& a,
         const void* a_data, const sk_view& b, const void* b_data,
         const sk_view& out, void* out_data, const NumericOptions&) {
        reference::RunBinary(op, t, a, a_data, b, b_data, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, UnaryOp op, DType t, const sk_view& a,
         const void* a_data, const sk_view& out, void* out_data,
         const NumericOptions&) {
        reference::RunUnary(op, t, a, a_data, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, ReduceOp op, DType t, const sk_view& in,
         const void* in_data, DimsView reduced, const sk_view& out,
         void* out_data, const NumericOptions&) {
        reference::RunReduce(op, t, in, in_data, reduced, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, DType src_t, const sk_view& src, const void* src_data,
         DType dst_t, const sk_view& dst, void* dst_data, const CopyOptions&) {
        reference::RunCast(src_t, src, src_data, dst_t, dst, dst_data);
        NoteKernelRan(0);
      },
      [](const Executor&, const Projections& p, DType t,
         std::span<const sk_view> operands, std::span<const void* const> datas,
         const sk_view& out, void* out_data, const NumericOptions&) {
        reference::RunEinsum(p, t, operands, datas, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, ArgOp op, DType t, const sk_view& in,
         const void* in_data, int axis, const sk_view& out, void* out_data,
         const NumericOptions&) {
        reference::RunArgReduce(op, t, in, in_data, axis, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, ScanOp op, DType t, const sk_view& in,
         const void* in_data, int axis, const sk_view& out, void* out_data,
         const NumericOptions&) {
        reference::RunScan(op, t, in, in_data, axis, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, CompareOp op, DType t, const sk_view& a,
         const void* a_data, const sk_view& b, const void* b_data,
         const sk_view& out, void* out_data, const NumericOptions&) {
        reference::RunCompare(op, t, a, a_data, b, b_data, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, PredicateOp op, DType t, const sk_view& a,
         const void* a_data, const sk_view& out, void* out_data,
         const NumericOptions&) {
        reference::RunPredicate(op, t, a, a_data, out, out_data);
        NoteKernelRan(0);
      },
      [](const Executor&, DType t, const sk_view& cond, const void* cond_data,
         const sk_view& a, const void* a_data, const sk_view& b,
         const void* b_data, const sk_view& out, void* out_data,
         const NumericOptions&) {
        reference::RunWhere(t, cond, cond_data, a, a_data, b, b_data, out,
                            out_data);
        NoteKernelRan(0);
      },
  };
}

TargetKernels ReferenceKernels() {
  TargetKernels k{};
  k.ravel_batch = [](int64_t n, const int64_t* indices, DimsView strides,
                     int64_t offset, int64_t* out) -> int64_t {
    reference::RavelBatch(n, indices, strides, offset, out);
    return 0;
  };
  k.unravel_batch = [](int64_t n, const int64_t* flat, DimsView shape,
                       int64_t numel, int64_t* out) -> int64_t {
    reference::UnravelBatch(n, flat, shape, numel, out);
    return 0;
  };
  k.view_offsets = [](const sk_view& view, int64_t begin, int64_t count,
                      int64_t* out) -> int64_t {
    reference::ViewOffsets(view, begin, count, out);
    return 0;
  };
  k.multiply_add = [](DType t, const void* a, const void* b, const void* c,
                      void* out, int64_t n) -> int64_t {
    const auto rows = [&](auto zero) {
      using T = decltype(zero);
      for (int64_t i = 0; i < n; ++i) {
        static_cast<T*>(out)[i] = scalar_ops::MulAdd(
            static_cast<const T*>(a)[i], static_cast<const T*>(b)[i],
            static_cast<const T*>(c)[i]);
      }
    };
    if (t == DType::kFloat32) rows(float{});
    if (t == DType::kFloat64) rows(double{});
    return 0;
  };
  return k;
}

}  // namespace stridekit::dispatch
