// Einsum's direct plan (dispatch/einsum_direct.cc): a small contraction as
// one loop nest resolved when the plan is made.
#ifndef STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_
#define STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_

#include <cstdint>

#include "stridekit/dims.h"

namespace stridekit::dispatch {

struct PlanState;

// Operands a direct nest takes.
inline constexpr int kMaxDirectTerms = 4;

// The nest: `loops` loops of `sizes` (outermost first); row 0 of `strides`
// and `offsets` is out's (0 along summed loops), row t + 1 operand t's, in
// elements; lo and hi bound each one's bytes from its data pointer.
struct DirectEinsum {
  int terms = 0;
  int loops = 0;
  int64_t sizes[kMaxRank];
  int64_t strides[kMaxDirectTerms + 1][kMaxRank];
  int64_t offsets[kMaxDirectTerms + 1];
  int64_t lo[kMaxDirectTerms + 1], hi[kMaxDirectTerms + 1];
};

// Resolves s.direct_einsum when the call allows it (a Highway target, no
// masks, out a permutation of the result loops, a small product space
// whose sums stay below the engine's dot-product length).
void ResolveDirectEinsum(PlanState& s);
// Runs it unless an operand shares memory with out (false: run the engine).
bool RunDirectEinsum(const PlanState& s, const void* const* inputs, void* out);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_
