// The part of the dispatched copy family that other dispatched kernels
// build on: materialising an operand over a box into a temporary, staging a
// transposed input chunk by chunk.
#ifndef STRIDEKIT_DISPATCH_COPY_INTERNAL_H_
#define STRIDEKIT_DISPATCH_COPY_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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

// An input read across the rows of the output it feeds (transposed against
// it) would be read by gathers, one cache line per element; from
// kStageMinBytes on, a kernel runs each part by chunks of about
// kStageChunkBytes of that input, each first transposed into the part's
// scratch (C order over the chunk) by the copy engine's tiled transpose, so
// that every stream is sequential.
inline constexpr int64_t kStageMinBytes = int64_t{16} << 10;
inline constexpr int64_t kStageChunkBytes = int64_t{1} << 20;

// True when `in` is read across `out`'s rows over `box` (the tiled plan of
// the two makes it its transposed operand).
bool ReadAcrossRows(const Operand& in, const Operand& out, const Box& box);

// The chunks of each part (kStageChunkBytes of elem_size elements at most)
// and one scratch per part for its largest chunk, allocated before anything
// is written (throws kNoMemory naming `op`).
struct Staging {
  std::vector<std::vector<Box>> chunks;
  std::vector<Buffer> scratch;
};
Staging PlanStaging(std::span<const Box> parts, size_t elem_size,
                    const char* op);

// src over `chunk` copied into `scratch` in C order (the copy engine's tiled
// transpose, on the calling thread); returns the operand that maps the
// chunk's positions there.
Operand StageChunk(const dispatch::Executor& ex, size_t elem_size,
                   const Operand& src, const Box& chunk,
                   unsigned char* scratch);

// dst[box] = fill (one element, every stride 0) at every position of
// `outer` outside `inner`; with `rows_padded`, except beside inner's rows
// along the last axis (written by CopyBox's pads).
void FillOutside(const dispatch::Executor& ex, size_t elem_size,
                 const Operand& fill, const Operand& dst, const Box& outer,
                 const Box& inner, const CopyOptions& options,
                 bool rows_padded = false);

}  // namespace stridekit

#endif  // STRIDEKIT_DISPATCH_COPY_INTERNAL_H_
