// Einsum's direct plan (dispatch/einsum_direct.cc): a small contraction as
// one loop nest resolved when the plan is made.
#ifndef STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_
#define STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_

#include "simd/einsum_nest_task.h"

namespace stridekit::dispatch {

struct PlanState;

// Resolves s.direct_einsum when the call allows it (a Highway target, no
// masks, out a permutation of the result loops, a small product space
// whose sums stay below the engine's dot-product length).
void ResolveDirectEinsum(PlanState& s);
// Runs it unless an operand shares memory with out (false: run the engine).
bool RunDirectEinsum(const PlanState& s, const void* const* inputs, void* out);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_
