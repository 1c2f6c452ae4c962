// The dispatched copy family: checks, masks, broadcasting and overlap are
// resolved here on metadata, then each resulting box is planned and run by
// the active target's executor (simd/copy.cc).
#include "stridekit/copy.h"

#include <cstring>

#include "copy_checks.h"
#include "dispatch/target_registry.h"
#include "simd/copy_task.h"
#include "strided_layout.h"
#include "stridekit/allocation.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// An operand over the destination's shape: strides 0 on broadcast axes.
struct Operand {
  const unsigned char* data;
  int64_t offset;
  Dims strides;
};

// A box [begin, end) per axis of the destination's index space.
struct Box {
  Dims begin, end;
  bool empty() const {
    for (int d = 0; d < begin.size(); ++d) {
      if (begin[d] >= end[d]) return true;
    }
    return false;
  }
};

Box ValidBox(const sk_view& v) {
  Box box{Dims(v.ndim, 0), Dims(DimsView(v.shape, size_t(v.ndim)))};
  if (v.has_mask) {
    box.begin.assign(DimsView(v.mask_begin, size_t(v.ndim)));
    box.end.assign(DimsView(v.mask_end, size_t(v.ndim)));
  }
  return box;
}

// The source broadcast to the destination's rank, and its valid box there.
Operand AlignSource(const sk_view& src, const void* data, const sk_view& dst,
                    Box& valid) {
  Operand op{static_cast<const unsigned char*>(data), src.offset,
             Dims(dst.ndim, 0)};
  valid = Box{Dims(dst.ndim, 0), Dims(DimsView(dst.shape, size_t(dst.ndim)))};
  const int lead = dst.ndim - src.ndim;
  for (int j = 0; j < src.ndim; ++j) {
    const int d = j + lead;
    if (src.shape[j] == 1 && dst.shape[d] != 1) {
      if (!AxisValid(src, j, 0)) valid.end[d] = 0;  // Nothing valid.
      continue;
    }
    op.strides[d] = src.strides[j];
    if (src.has_mask) {
      valid.begin[d] = src.mask_begin[j];
      valid.end[d] = src.mask_end[j];
    }
  }
  return op;
}

// a ∩ b, kept inside a even when empty (FillOutside relies on that).
Box Intersect(const Box& a, const Box& b) {
  Box r = a;
  for (int d = 0; d < a.begin.size(); ++d) {
    r.begin[d] = std::min(std::max(a.begin[d], b.begin[d]), a.end[d]);
    r.end[d] = std::max(r.begin[d], std::min(a.end[d], b.end[d]));
  }
  return r;
}

int64_t BoxOffset(const Operand& op, const Box& box) {
  int64_t offset = op.offset;
  for (int d = 0; d < box.begin.size(); ++d) {
    offset += box.begin[d] * op.strides[d];
  }
  return offset;
}

// Byte range [lo, hi) an operand touches over a non-empty box.
std::pair<const unsigned char*, const unsigned char*> ByteRange(
    const Operand& op, const Box& box, size_t elem_size) {
  int64_t lo = BoxOffset(op, box), hi = lo;
  for (int d = 0; d < box.begin.size(); ++d) {
    const int64_t extent = (box.end[d] - box.begin[d] - 1) * op.strides[d];
    (extent < 0 ? lo : hi) += extent;
  }
  return {op.data + lo * int64_t(elem_size),
          op.data + (hi + 1) * int64_t(elem_size)};
}

// Runs dst[box] = src[box] through a plan on the target in table slot
// `slot`.
void CopyBox(size_t slot, size_t elem_size, const Operand& src,
             const Operand& dst, const Box& box, const CopyOptions& options) {
  Dims shape;
  OperandLayout layouts[2];
  const Operand* ops[2] = {&dst, &src};
  // Kernels move lanes of at most 8 bytes, aligned in both buffers (an
  // unaligned element moves bytewise): an element is `scale` lanes.
  const uintptr_t addresses = reinterpret_cast<uintptr_t>(src.data) |
                              reinterpret_cast<uintptr_t>(dst.data);
  size_t lane_size = elem_size < 8 ? elem_size : 8;
  while (addresses % lane_size != 0) lane_size /= 2;
  const int64_t scale = int64_t(elem_size / lane_size);
  for (int d = 0; d < box.begin.size(); ++d) {
    shape.push_back(box.end[d] - box.begin[d]);
  }
  for (int i = 0; i < 2; ++i) {
    layouts[i].offset = BoxOffset(*ops[i], box) * scale;
    for (int d = 0; d < box.begin.size(); ++d) {
      // A single-position axis's stride is arbitrary and may not scale.
      const bool moves = box.end[d] - box.begin[d] > 1;
      layouts[i].strides.push_back(moves ? ops[i]->strides[d] * scale : 0);
    }
    if (scale > 1) layouts[i].strides.push_back(1);
  }
  if (scale > 1) shape.push_back(scale);
  const IterationPlan plan = IterationPlan::Make(shape, layouts);
  if (plan.empty()) return;
  const bool stream =
      plan.inner_kind(0) == InnerKind::kContiguous &&
      plan.numel() >= options.stream_min_bytes / int64_t(lane_size);
  const CopyTask task{&plan,     src.data, const_cast<unsigned char*>(dst.data),
                      lane_size, 0,        plan.outer_size(),
                      stream};
  RunPartitioned(plan, options.threads, [&](int64_t begin, int64_t end) {
    CopyTask part = task;
    part.begin = begin;
    part.end = end;
    dispatch::NoteKernelRan(simd::RunCopyTask(slot, part));
  });
}

// dst[region] = fill for every position of `outer` outside `inner`: the
// complement of a box in a box is at most two slabs per axis.
void FillOutside(size_t slot, size_t elem_size, const Operand& fill,
                 const Operand& dst, const Box& outer, const Box& inner,
                 const CopyOptions& options) {
  Box slab = outer;
  for (int d = 0; d < outer.begin.size(); ++d) {
    slab.end[d] = inner.begin[d];
    if (!slab.empty()) CopyBox(slot, elem_size, fill, dst, slab, options);
    slab.begin[d] = inner.end[d];
    slab.end[d] = outer.end[d];
    if (!slab.empty()) CopyBox(slot, elem_size, fill, dst, slab, options);
    slab.begin[d] = inner.begin[d];
    slab.end[d] = inner.end[d];
  }
}

// A C-contiguous buffer standing in for an overlapping source.
struct Temporary {
  Buffer bytes;
  Operand op;
};

Temporary CopyToTemporary(size_t slot, size_t elem_size, const Operand& src,
                          const Box& box, const CopyOptions& options) {
  const int n = box.begin.size();
  Dims shape;
  for (int d = 0; d < n; ++d) shape.push_back(box.end[d] - box.begin[d]);
  const int64_t count = Numel(shape);
  Temporary t;
  t.bytes = AllocateBuffer(count * int64_t(elem_size), "copy");
  // Strides over the full destination index space, so box offsets apply.
  const Dims strides = CContiguousStrides(shape);
  t.op = Operand{t.bytes.get(), 0, strides};
  t.op.offset = -BoxOffset(Operand{nullptr, 0, strides}, box);
  CopyBox(slot, elem_size, src, t.op, box, options);
  return t;
}

}  // namespace

void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill,
          const CopyOptions& options) {
  CheckCopyArguments(elem_size, src, src_data, dst, dst_data, "copy");
  const dispatch::Target& selected = dispatch::SelectedTarget("copy");
  if (selected.IsReference()) {
    reference::Copy(elem_size, src, src_data, dst, dst_data, fill);
    dispatch::NoteKernelRan(0);
    return;
  }
  const size_t slot = selected.table_slot;
  const Box target = ValidBox(dst);
  if (target.empty()) return;
  Box src_valid;
  Operand from = AlignSource(src, src_data, dst, src_valid);
  const Operand to{static_cast<const unsigned char*>(dst_data), dst.offset,
                   Dims(DimsView(dst.strides, size_t(dst.ndim)))};
  const Box body = Intersect(target, src_valid);

  Temporary temporary;
  if (!body.empty()) {
    const auto [src_lo, src_hi] = ByteRange(from, body, elem_size);
    const auto [dst_lo, dst_hi] = ByteRange(to, body, elem_size);
    const bool same_mapping = from.data + from.offset * int64_t(elem_size) ==
                                  to.data + to.offset * int64_t(elem_size) &&
                              from.strides == to.strides;
    if (src_lo < dst_hi && dst_lo < src_hi && !same_mapping) {
      temporary = CopyToTemporary(slot, elem_size, from, body, options);
      from = temporary.op;
    }
    CopyBox(slot, elem_size, from, to, body, options);
  }
  if (!(body.begin == target.begin && body.end == target.end)) {
    static const unsigned char kZeros[16] = {};
    const Operand fill_op{
        static_cast<const unsigned char*>(fill ? fill : kZeros), 0,
        Dims(dst.ndim, 0)};
    FillOutside(slot, elem_size, fill_op, to, target, body, options);
  }
}

Materialized Materialize(size_t elem_size, const sk_view& src,
                         const void* src_data, const void* fill,
                         const CopyOptions& options) {
  CheckStridedLayout(src, "materialize");
  const DimsView shape(src.shape, size_t(src.ndim));
  const Dims strides = CContiguousStrides(shape);
  Materialized out{nullptr, sk_view{}};
  out.view.ndim = src.ndim;
  for (int d = 0; d < src.ndim; ++d) {
    out.view.shape[d] = shape[d];
    out.view.strides[d] = strides[d];
  }
  const int64_t bytes =
      CheckedMul(Numel(shape), int64_t(elem_size), "materialize");
  out.data = AllocateBuffer(bytes, "materialize");
  Copy(elem_size, src, src_data, out.view, out.data.get(), fill, options);
  return out;
}

void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value, const CopyOptions& options) {
  CheckFillArguments(elem_size, dst, dst_data, value);
  const sk_view scalar{};
  Copy(elem_size, scalar, value, dst, dst_data, nullptr, options);
}

}  // namespace stridekit
