// The dispatched cast: checks, masks, broadcasting and overlap are resolved
// here on metadata as for Copy (dispatch/copy.cc), then each box is planned
// and its rows converted by the active target's cast executor
// (simd/cast.cc). Equal dtypes and same-size integers are copies.
#include "stridekit/cast.h"

#include "allocation.h"
#include "cast_reference.h"
#include "dispatch/copy_internal.h"
#include "dispatch/operand_box.h"
#include "dispatch/target_registry.h"
#include "simd/cast_task.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// dst[box] = src[box] converted, both fully valid there.
void CastBox(size_t slot, DType src_t, const Operand& src, DType dst_t,
             const Operand& dst, const Box& box, const CopyOptions& options) {
  const Dims shape = box.Shape();
  OperandLayout layouts[2];
  const Operand* ops[2] = {&dst, &src};
  for (int i = 0; i < 2; ++i) {
    layouts[i].offset = BoxOffset(*ops[i], box);
    for (int d = 0; d < box.begin.size(); ++d) {
      const bool moves = box.end[d] - box.begin[d] > 1;
      layouts[i].strides.push_back(moves ? ops[i]->strides[d] : 0);
    }
  }
  const IterationPlan plan = IterationPlan::Make(shape, layouts);
  if (plan.empty()) return;
  const CastTask task{&plan,
                      src.data,
                      const_cast<unsigned char*>(dst.data),
                      src_t,
                      dst_t,
                      0,
                      plan.outer_size()};
  RunPartitioned(plan, options.threads, [&](int64_t begin, int64_t end) {
    CastTask part = task;
    part.begin = begin;
    part.end = end;
    dispatch::NoteKernelRan(simd::RunCastTask(slot, part));
  });
}

// dst = 0 at every position of `outer` outside `inner` (the cast of a
// masked-out source position's zero is zero bits for every dtype).
void ZeroOutside(size_t slot, size_t elem_size, const Operand& dst,
                 const Box& outer, const Box& inner,
                 const CopyOptions& options) {
  static const unsigned char kZeros[16] = {};
  const Operand zero{kZeros, 0, Dims(outer.begin.size(), 0)};
  Box slab = outer;
  for (int d = 0; d < outer.begin.size(); ++d) {
    slab.end[d] = inner.begin[d];
    if (!slab.empty()) CopyBox(slot, elem_size, zero, dst, slab, options);
    slab.begin[d] = inner.end[d];
    slab.end[d] = outer.end[d];
    if (!slab.empty()) CopyBox(slot, elem_size, zero, dst, slab, options);
    slab.begin[d] = inner.begin[d];
    slab.end[d] = inner.end[d];
  }
}

// True when converting src into dst over `box` element by element could
// read a byte after it was written: they share a byte other than by the
// same mapping of equal-size elements.
bool NeedsTemporary(const Operand& src, size_t src_size, const Operand& dst,
                    size_t dst_size, const Box& box) {
  const auto [src_lo, src_hi] = ByteRange(src, box, src_size);
  const auto [dst_lo, dst_hi] = ByteRange(dst, box, dst_size);
  if (src_hi <= dst_lo || dst_hi <= src_lo) return false;
  return !(src_size == dst_size && SameMapping(src, dst, box, src_size));
}

// src over `box` (where it is valid) copied into a new C-contiguous
// temporary, as MaterializeBox does but allocated under this operation's
// name; axes on which src is broadcast stay stride 0 (one element).
Temporary SourceTemporary(size_t slot, size_t elem_size, const Operand& src,
                          const Box& box, const CopyOptions& options) {
  const int n = box.begin.size();
  Box region = box;
  Dims shape;
  for (int d = 0; d < n; ++d) {
    if (src.strides[d] == 0) region.end[d] = box.begin[d] + 1;
    shape.push_back(region.end[d] - region.begin[d]);
  }
  Temporary t;
  t.bytes = AllocateBuffer(CheckedMul(Numel(shape), int64_t(elem_size), "cast"),
                           "cast");
  Dims strides = CContiguousStrides(shape);
  for (int d = 0; d < n; ++d) {
    if (shape[d] == 1) strides[d] = 0;
  }
  t.op = Operand{t.bytes.get(), 0, strides};
  t.op.offset = -BoxOffset(Operand{nullptr, 0, strides}, box);
  CopyBox(slot, elem_size, src, t.op, region, options);
  return t;
}

}  // namespace

void Cast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
          const sk_view& dst, void* dst_data, const CopyOptions& options) {
  CheckCastArguments(src_t, src, src_data, dst_t, dst, dst_data);
  const size_t src_size = DTypeSize(src_t);
  const size_t dst_size = DTypeSize(dst_t);
  if (src_t == dst_t ||
      (IsInteger(src_t) && IsInteger(dst_t) && src_size == dst_size)) {
    Copy(dst_size, src, src_data, dst, dst_data, nullptr, options);
    return;
  }
  const dispatch::Target& selected = dispatch::SelectedTarget("cast");
  if (selected.IsReference()) {
    reference::Cast(src_t, src, src_data, dst_t, dst, dst_data);
    dispatch::NoteKernelRan(0);
    return;
  }
  const size_t slot = selected.table_slot;
  const Box target = ValidBox(dst);
  if (target.empty()) return;
  Box src_valid;
  Operand from = AlignSource(src, src_data, dst, src_valid);
  const Operand to = OperandOf(dst, dst_data);
  const Box body = Intersect(target, src_valid);

  Temporary temporary;
  if (!body.empty()) {
    if (NeedsTemporary(from, src_size, to, dst_size, body)) {
      temporary = SourceTemporary(slot, src_size, from, body, options);
      from = temporary.op;
    }
    CastBox(slot, src_t, from, dst_t, to, body, options);
  }
  if (!(body == target)) ZeroOutside(slot, dst_size, to, target, body, options);
}

}  // namespace stridekit
