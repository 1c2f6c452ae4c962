// Einsum's direct plans, resolved when the plan is made: a small
// contraction as one loop nest (dispatch/einsum_direct.cc), and a
// contraction that is one matrix product written into out, its kernel task
// prepared by the engine (dispatch/einsum.cc).
#ifndef STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_
#define STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_

#include <array>
#include <cstdint>
#include <vector>

#include "simd/contraction/contraction_task.h"
#include "simd/contraction/einsum_nest_task.h"

namespace stridekit::dispatch {

struct PlanState;

// The engine's one matrix product of a two-operand einsum into out, with
// no pointer bound: the kernel's task, its offset tables, and where the
// operands start. Execution binds the pointers and runs it as the engine
// would (the same task: the same bits), unless an operand shares memory
// with out.
struct PreparedProduct {
  GemmTask task{};                   // Pointers unset (bound on execution).
  int a_operand = 0, b_operand = 1;  // Operands read as A and B.
  int64_t a_byte = 0, b_byte = 0, c_byte = 0;  // From each data pointer.
  // a_batch, b_batch, c_batch, a_m, a_k, b_k, b_n, c_m; an empty a_k or b_k
  // is the task's step instead.
  std::array<std::vector<int64_t>, 8> tables;
  // Byte extents of out (0) and the operands (1, 2) from their pointers.
  int64_t lo[3] = {}, hi[3] = {};
};

// Resolves s.direct_einsum when the call allows it (a Highway target, no
// masks, out a permutation of the result loops, a small product space
// whose sums stay below the engine's dot-product length).
void ResolveDirectEinsum(PlanState& s);
// Byte extents from each data pointer of out (0) and the operands (1..n),
// for the overlap tests of execution (n <= kMaxDirectTerms).
void EinsumByteExtents(const PlanState& s, int64_t* lo, int64_t* hi);
// Runs it unless an operand shares memory with out (false: run the engine).
bool RunDirectEinsum(const PlanState& s, const void* const* inputs, void* out);

// Resolves s.prepared_product where the engine would run the whole call as
// one matrix product into out (two unmasked operands, out unmasked and a
// permutation of the result loops, nothing summed over one operand alone,
// out contiguous along the product's columns or rows). Not for the
// reference target, nor where the direct nest applies.
void PrepareEinsumProduct(PlanState& s);
// Runs it on `threads` unless an operand shares memory with out (false:
// run the engine).
bool RunPreparedProduct(const PlanState& s, const void* const* inputs,
                        void* out, int threads);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_EINSUM_DIRECT_H_
