// Operands and boxes in a destination's index space: how the dispatched
// kernels resolve broadcasting and masks on metadata before planning. A
// masked view is valid on a box (the product of its per-axis [begin, end)),
// so "where every operand is valid" is an intersection of boxes.
#ifndef STRIDEKIT_DISPATCH_OPERAND_BOX_H_
#define STRIDEKIT_DISPATCH_OPERAND_BOX_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "stridekit/dims.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/stridekit.h"

namespace stridekit {

// A box [begin, end) per axis of the destination's index space.
struct Box {
  Dims begin, end;
  bool empty() const;
  Dims Shape() const;  // end - begin per axis.
  bool operator==(const Box& other) const = default;
};

// The positions of v where its mask (if any) holds.
Box ValidBox(const sk_view& v);

// The view itself as an operand over its own shape.
Operand OperandOf(const sk_view& v, const void* data);

// `src` broadcast to dst's rank (NumPy rules; the caller checked them), and
// in `valid` the box of dst positions where src is valid.
Operand AlignSource(const sk_view& src, const void* data, const sk_view& dst,
                    Box& valid);

// a ∩ b, kept inside a even when empty (complements rely on that).
Box Intersect(const Box& a, const Box& b);

// `box` (non-empty) split along `axis` (by default its longest axis) into at
// most `parts` non-empty boxes of nearly equal size, in order, with
// boundaries at multiples of `align` (> 0) positions from the box's start.
std::vector<Box> SplitBox(const Box& box, int parts, int axis = -1,
                          int64_t align = 1);

// `box` split for `parts` threads, each part writing a compact region of
// the destination without cutting the runs either side reads or writes
// contiguously: the axis on which `dst_strides` move slowest among those
// long enough for every part to get whole blocks of kThreadBlock positions
// (whole cache lines and transpose tiles), else the longest axis; but an
// axis outer on both sides (the largest of min(|dst stride|, |src stride|),
// a broadcast source axis counting by the destination's) instead when there
// is one other than that and either no axis is that long (a permutation of
// short axes: cutting either side's innermost axes would break the tiles
// the copy engine fuses from them) or it gives parts within an eighth of
// each other. Never along an axis of destination stride 0 (an iterator's
// reduction, whose positions accumulate into one element). One box when
// parts <= 1.
inline constexpr int64_t kThreadBlock = 64;
std::vector<Box> ThreadBoxes(const Box& box, const Dims& dst_strides,
                             const Dims& src_strides, int parts);

// The parts a call over `elements` positions uses with `threads` threads:
// at most `threads`, and at least kMinElementsPerThread positions each.
int ThreadParts(int threads, int64_t elements);

// Element offset of the box's first position.
int64_t BoxOffset(const Operand& op, const Box& box);

// Byte range [lo, hi) an operand touches over a non-empty box.
std::pair<const unsigned char*, const unsigned char*> ByteRange(
    const Operand& op, const Box& box, size_t elem_size);

// True when a and b address the same element at every position of `box`.
bool SameMapping(const Operand& a, const Operand& b, const Box& box,
                 size_t elem_size);

// True when a and b share a byte over the non-empty `box`, other than by
// the same mapping (the case that needs a temporary).
bool OverlapsOtherwise(const Operand& a, const Operand& b, const Box& box,
                       size_t elem_size);

}  // namespace stridekit

#endif  // STRIDEKIT_DISPATCH_OPERAND_BOX_H_
