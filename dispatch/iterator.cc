#include "stridekit/iterator.h"

#include <algorithm>

#include "copy_checks.h"
#include "strided_layout.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/parallel.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// A 2-D tile of Run's tiled walk: edge x edge elements of the widest
// operand in at most kTileBytes, so that the rows of a tile of every
// operand stay in L1 while a transposed input is read across them.
constexpr int64_t kTileBytes = 16 << 10;
constexpr int64_t kMinTileEdge = 8;

int64_t TileEdge(int64_t max_elem_size) {
  int64_t edge = 128;
  // Compared by division: element sizes may be up to 2^63 - 1.
  while (edge > kMinTileEdge && max_elem_size > kTileBytes / (edge * edge)) {
    edge /= 2;
  }
  return edge;
}

bool IsMasked(const sk_view& v) {
  if (!v.has_mask) return false;
  for (int d = 0; d < v.ndim; ++d) {
    if (v.mask_begin[d] != 0 || v.mask_end[d] != v.shape[d]) return true;
  }
  return false;
}

// Re-throws a check's error with the operand it concerns.
[[noreturn]] void FailForOperand(const Error& e, int k) {
  throw Error(e.kind(), StrCat(e.what(), " (operand ", k,
                               k == 0 ? ", the output)" : ")"));
}

// Element offset of the first element of the box starting at `begin`,
// modulo 2^64: exact when the box has an element (ElementOffset).
int64_t BoxOffset(const sk_view& out, const Operand& layout,
                  const int64_t* begin) {
  uint64_t offset = static_cast<uint64_t>(layout.offset);
  for (int d = 0; d < out.ndim; ++d) {
    offset += static_cast<uint64_t>(begin[d]) *
              static_cast<uint64_t>(layout.strides[d]);
  }
  return static_cast<int64_t>(offset);
}

}  // namespace

StridedIterator::StridedIterator(std::span<const IterOperand> operands,
                                 const IteratorOptions& options) {
  const char* op = options.op;
  if (operands.empty() || operands.size() > size_t(kMaxOperands)) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", operands.size(),
         " operands, expected 1 to ", kMaxOperands);
  }
  const int nops = int(operands.size());
  int64_t max_elem_size = 1;
  for (int k = 0; k < nops; ++k) {
    const IterOperand& o = operands[size_t(k)];
    if (o.view == nullptr) {
      Fail(ErrorKind::kInvalidArgument, op, ": the view of operand ", k,
           " is NULL");
    }
    if (o.elem_size == 0 || o.elem_size > size_t(INT64_MAX)) {
      Fail(ErrorKind::kInvalidArgument, op, ": element size ", o.elem_size,
           " of operand ", k, " is not in [1, 2^63)");
    }
    try {
      CheckLayout(*o.view, o.elem_size, op);
    } catch (const Error& e) {
      FailForOperand(e, k);
    }
    if (k > 0 && IsMasked(*o.view)) {
      Fail(ErrorKind::kUnsupported, op, ": input operand ", k,
           " is masked; materialise it first with sk_copy (masked-out "
           "positions then read the fill value)");
    }
    elem_sizes_[k] = int64_t(o.elem_size);
    max_elem_size = std::max(max_elem_size, elem_sizes_[k]);
  }

  // Broadcasting: each input's dims match the output's trailing dims or are
  // 1 (CheckCopyArguments' rule).
  const sk_view& out = *operands[0].view;
  const DimsView out_shape(out.shape, size_t(out.ndim));
  for (int k = 1; k < nops; ++k) {
    const sk_view& in = *operands[size_t(k)].view;
    bool ok = in.ndim <= out.ndim;
    for (int j = 0; ok && j < in.ndim; ++j) {
      const int64_t s = in.shape[j], t = out.shape[j + out.ndim - in.ndim];
      ok = s == t || s == 1;
    }
    if (!ok) {
      Fail(ErrorKind::kInvalidArgument, op, ": cannot broadcast operand ", k,
           " of shape ", ToString(DimsView(in.shape, size_t(in.ndim))),
           " to the output's shape ", ToString(out_shape));
    }
  }

  // The iteration box: the output's valid positions.
  int64_t begin[SK_MAX_NDIM];
  Dims box;
  for (int d = 0; d < out.ndim; ++d) {
    begin[d] = out.has_mask ? out.mask_begin[d] : 0;
    box.push_back(out.has_mask ? out.mask_end[d] - begin[d] : out.shape[d]);
  }
  const bool box_empty = Numel(box) == 0;

  // Each operand over the box: inputs get stride 0 on broadcast axes.
  Operand layouts[kMaxOperands];
  for (int k = 0; k < nops; ++k) {
    const sk_view& v = *operands[size_t(k)].view;
    Operand& layout = layouts[k];
    layout.offset = v.offset;
    for (int d = 0; d < out.ndim; ++d) {
      const int j = d - (out.ndim - v.ndim);
      const bool broadcast = j < 0 || (k > 0 && v.shape[j] == 1);
      layout.strides.push_back(broadcast ? 0 : v.strides[j]);
    }
    if (!box_empty) layout.offset = BoxOffset(out, layout, begin);
    bases_[k] = static_cast<char*>(operands[size_t(k)].data);
  }

  // The output writes each location of the box once, or with reduce_ok
  // each location once per position of its stride-0 axes.
  sk_view written = out;
  written.has_mask = 0;
  written.offset = layouts[0].offset;
  for (int d = 0; d < out.ndim; ++d) {
    written.shape[d] = box[d];
    if (out.strides[d] != 0 || box[d] <= 1 || box_empty) continue;
    if (!options.reduce_ok) {
      Fail(ErrorKind::kInvalidArgument, op,
           ": the output (operand 0) has stride 0 on axis ", d, " of size ",
           out.shape[d],
           ", so it would write one element many times; pass "
           "SK_ITER_REDUCE_OK to iterate a reduction");
    }
    written.shape[d] = 1;
  }
  if (!box_empty) {
    CheckDistinctPositions(written, op);
    for (int k = 0; k < nops; ++k) {
      if (bases_[k] == nullptr) {
        Fail(ErrorKind::kInvalidArgument, op, ": data of operand ", k,
             " is NULL for a non-empty iteration of ", Numel(box), " elements");
      }
    }
  }
  const std::span<const Operand> spans(layouts, size_t(nops));
  plan_ = IterationPlan::Make(box, spans, /*allow_tiles=*/false);
  run_plan_ = options.tiles ? IterationPlan::Make(box, spans, true) : plan_;
  for (int k = 0; k < nops; ++k) {
    byte_strides_[k] = CheckedMul(plan_.inner_stride(k), elem_sizes_[k], op);
  }
  tile_edge_ = TileEdge(max_elem_size);
  chunks_.emplace(plan_);
}

bool StridedIterator::Next(char** ptrs, int64_t* count, int64_t* byte_strides) {
  Chunk chunk;
  if (!chunks_->Next(chunk)) return false;
  for (int k = 0; k < plan_.num_operands(); ++k) {
    ptrs[k] = bases_[k] + chunk.offsets[k] * elem_sizes_[k];
    byte_strides[k] = byte_strides_[k];
  }
  *count = plan_.inner_size();
  return true;
}

void StridedIterator::Reset() { chunks_.emplace(plan_); }

std::string StridedIterator::Describe() const {
  std::string s = plan_.Describe();
  s += " | elem sizes [";
  for (int k = 0; k < plan_.num_operands(); ++k) {
    s += StrCat(k ? "," : "", elem_sizes_[k]);
  }
  s += StrCat("] | chunk ", chunk_size());
  if (run_plan_.tiled()) {
    s += StrCat(" | run: ", run_plan_.Describe(), " tile ", tile_edge_, "x",
                tile_edge_);
  }
  return s;
}

StridedIterator::Split StridedIterator::SplitFor(int parts) const {
  const IterationPlan& p = run_plan_;
  Split split;
  const int64_t outer = p.outer_size();
  if (outer == 0) return split;
  // A reduction's stride-0 output axes are the plan's innermost (its axes
  // are ordered by the output's |stride|): the inner axis and a suffix of
  // the outer ones. Positions along them share output elements and stay in
  // one unit.
  if (p.ndim() > 0 && p.inner_stride(0) == 0) {
    for (int d = p.outer_ndim() - 1; d >= 0 && p.strides(0)[d] == 0; --d) {
      split.group *= p.shape()[d];
    }
    split.units = outer / split.group;
    return split;
  }
  if (outer < parts) {
    // Few outer positions: cut each along the inner axis (in whole tiles
    // along the tile axis of a tiled plan).
    const int64_t length =
        p.tiled() ? (p.shape()[p.ndim() - 2] + tile_edge_ - 1) / tile_edge_
                  : p.inner_size();
    split.blocks = std::min(length, (parts + outer - 1) / outer);
  }
  split.units = outer * split.blocks;
  return split;
}

void StridedIterator::RunSlab(const int64_t* offsets, int64_t first,
                              int64_t last, ChunkLoopFn loop, void* ctx) const {
  const IterationPlan& p = run_plan_;
  const int nops = p.num_operands();
  char* ptrs[kMaxOperands];
  int64_t strides[kMaxOperands];
  for (int k = 0; k < nops; ++k) {
    strides[k] = p.inner_stride(k) * elem_sizes_[k];  // Fits: checked in Make.
  }
  if (!p.tiled()) {
    for (int k = 0; k < nops; ++k) {
      ptrs[k] =
          bases_[k] + (offsets[k] + first * p.inner_stride(k)) * elem_sizes_[k];
    }
    loop(ptrs, last - first, strides, ctx);
    return;
  }
  // Rows [first, last) of the tile axis, in edge x edge tiles.
  const int rows_axis = p.ndim() - 2;
  const int64_t columns = p.inner_size();
  const int64_t edge = tile_edge_;
  for (int64_t r0 = first; r0 < last; r0 += edge) {
    const int64_t r1 = std::min(last, r0 + edge);
    for (int64_t c0 = 0; c0 < columns; c0 += edge) {
      const int64_t n = std::min(edge, columns - c0);
      for (int64_t r = r0; r < r1; ++r) {
        for (int k = 0; k < nops; ++k) {
          ptrs[k] = bases_[k] + (offsets[k] + r * p.strides(k)[rows_axis] +
                                 c0 * p.inner_stride(k)) *
                                    elem_sizes_[k];
        }
        loop(ptrs, n, strides, ctx);
      }
    }
  }
}

void StridedIterator::RunUnits(int64_t begin, int64_t end, const Split& split,
                               ChunkLoopFn loop, void* ctx) const {
  if (begin >= end) return;
  const IterationPlan& p = run_plan_;
  const int64_t length = p.tiled() ? p.shape()[p.ndim() - 2] : p.inner_size();
  Chunk chunk;
  if (split.blocks == 1) {
    ChunkIterator it(p, begin * split.group, end * split.group);
    while (it.Next(chunk)) RunSlab(chunk.offsets, 0, length, loop, ctx);
    return;
  }
  // Block b of a position covers [Bound(b), Bound(b + 1)) of the split
  // axis (whole tiles when tiled).
  auto bound = [&](int64_t b) {
    using Wide = __int128;  // length * b may not fit in int64.
    if (!p.tiled()) return int64_t(Wide(length) * b / split.blocks);
    const int64_t tiles = (length - 1) / tile_edge_ + 1;
    return int64_t(
        std::min<Wide>(length, Wide(tiles) * b / split.blocks * tile_edge_));
  };
  const int64_t first = begin / split.blocks, last = (end - 1) / split.blocks;
  ChunkIterator it(p, first, last + 1);
  for (int64_t o = first; it.Next(chunk); ++o) {
    const int64_t b0 = o == first ? begin % split.blocks : 0;
    const int64_t b1 = o == last ? (end - 1) % split.blocks + 1 : split.blocks;
    RunSlab(chunk.offsets, bound(b0), bound(b1), loop, ctx);
  }
}

void StridedIterator::Run(int parts, ChunkLoopFn loop, void* ctx) const {
  const Split split = SplitFor(std::max(1, parts));
  const int64_t n = std::min<int64_t>(std::max(1, parts), split.units);
  if (n <= 1) {
    RunUnits(0, split.units, split, loop, ctx);
    return;
  }
  RunParallel(int(n), [&](int i) {
    // i * units / n without overflow: units < 2^63 and n <= kMaxThreads.
    const auto at = [&](int64_t j) {
      return int64_t(static_cast<__int128>(split.units) * j / n);
    };
    RunUnits(at(i), at(i + 1), split, loop, ctx);
  });
}

}  // namespace stridekit
