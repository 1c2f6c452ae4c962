// The part of the dispatched copy family that other dispatched kernels
// build on: materialising an operand over a box into a temporary.
#ifndef STRIDEKIT_DISPATCH_COPY_INTERNAL_H_
#define STRIDEKIT_DISPATCH_COPY_INTERNAL_H_

#include <cstddef>

#include "allocation.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "stridekit/copy.h"

namespace stridekit {

// A C-contiguous buffer standing in for an operand over a box.
struct Temporary {
  Buffer bytes;
  Operand op;  // Maps the box's positions (destination index space).
};

// A pad's border along the last axis: `before` and `after` elements of
// `fill` (one element) beside each row of a copied box in the destination.
struct RowPads {
  const unsigned char* fill;
  int64_t before, after;
};

// Runs dst[box] = src[box] (both fully valid there) through a plan on
// `ex`'s copy kernel; transposed layouts take the tiled path. With `pads`,
// writes them too where the rows are contiguous and cached (one pass over
// a pad's rows instead of two narrow fills) and returns whether it did.
bool CopyBox(const dispatch::Executor& ex, size_t elem_size, const Operand& src,
             const Operand& dst, const Box& box, const CopyOptions& options,
             const RowPads* pads = nullptr);

// Copies `src` over `box` into a new temporary with `ex`'s copy kernel,
// reading zero where src is not valid (outside
// `src_valid`). Axes on which src has stride 0 and is valid across the
// whole box keep stride 0 in the temporary (one element), so broadcast
// operands are not expanded. Throws kNoMemory naming `op`.
Temporary MaterializeBox(const dispatch::Executor& ex, size_t elem_size,
                         const Operand& src, const Box& src_valid,
                         const Box& box, const CopyOptions& options = {},
                         const char* op = "copy");

// dst[box] = fill (one element, every stride 0) at every position of
// `outer` outside `inner`; with `rows_padded`, except beside inner's rows
// along the last axis (written by CopyBox's pads).
void FillOutside(const dispatch::Executor& ex, size_t elem_size,
                 const Operand& fill, const Operand& dst, const Box& outer,
                 const Box& inner, const CopyOptions& options,
                 bool rows_padded = false);

}  // namespace stridekit

#endif  // STRIDEKIT_DISPATCH_COPY_INTERNAL_H_
