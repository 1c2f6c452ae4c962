// The engine: runs checked calls on a Highway target's kernels
// (Executor::kernels). Masks, broadcasting and overlap are resolved on
// metadata (operand boxes, temporaries), then plans run on the executor's
// kernels, split over threads. Each kernel function's engine is the runner
// its KernelFunction gives for Highway targets; nothing here selects a
// target or checks arguments again (the plans did).
#ifndef STRIDEKIT_DISPATCH_ENGINE_H_
#define STRIDEKIT_DISPATCH_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "dispatch/executor.h"

namespace stridekit::dispatch {

// EngineBinary/EngineUnary with an input read across its rows (transposed
// against the output): register tiles read it in runs of a few elements,
// which cost several times a cheap op's own work once the operands leave L1
// (a transcendental's own work hides them up to DRAM sizes), so parts of at
// least TransposeThroughOutputMinBytes output bytes go through the output
// instead: the copy engine's tiled transpose (long runs) writes the input
// into the output, and the operation then runs in place, all streams
// sequential. Measured on Zen 3 (float32 n x n, one thread, tiles against
// through the output): a.T + b 256^2 0.052 -> 0.035 ms, 1024^2 2.68 ->
// 0.73, 2048^2 17.3 -> 8.4; exp(a.T) 1024^2 0.86 against 0.98, 2048^2 no
// clear difference. Never for checked integer ops (division).
inline constexpr int64_t kTransposeThroughOutputMinBytes = int64_t{64} << 10;
inline constexpr int64_t kTranscendentalThroughOutputMinBytes = int64_t{64}
                                                                << 20;
inline int64_t TransposeThroughOutputMinBytes(bool transcendental) {
  return transcendental ? kTranscendentalThroughOutputMinBytes
                        : kTransposeThroughOutputMinBytes;
}

// The engine's copy and cast, which the other kernel functions' engines
// build on (each kernel function's own engine is its file's).
void EngineCopy(const Executor& ex, size_t elem_size, const sk_view& src,
                const void* src_data, const sk_view& dst, void* dst_data,
                const void* fill, const CopyOptions& options);
void EngineCast(const Executor& ex, DType src_t, const sk_view& src,
                const void* src_data, DType dst_t, const sk_view& dst,
                void* dst_data, const CopyOptions& options);
// EngineCopy on a Highway target's executor, the reference copy loop on
// the reference.
void CopyOn(const Executor& ex, size_t elem_size, const sk_view& src,
            const void* src_data, const sk_view& dst, void* dst_data,
            const void* fill, const CopyOptions& options);
// A copy's or cast's options on the threads the numeric kernels would use
// for its dst (ThreadParts: at least kMinElementsPerThread positions each).
CopyOptions CopyThreads(const sk_view& dst, CopyOptions options);

// A C-contiguous copy of src's valid elements (masked positions read
// `fill`) made with `ex`'s copy (Materialize of copy.h without the checks;
// src must be a valid layout). Throws kNoMemory.
Materialized MaterializeWith(const Executor& ex, size_t elem_size,
                             const sk_view& src, const void* src_data,
                             const void* fill = nullptr,
                             const CopyOptions& options = {});

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_ENGINE_H_
