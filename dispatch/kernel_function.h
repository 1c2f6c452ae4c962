// A kernel function of the API (copy, fill, cast, binary, unary, predicate,
// compare, where, reduce, arg_reduce, scan, einsum), registered once by the
// dispatch file that implements it: that file holds its plan (checks, then
// Bind with its KernelFunction), its direct path, its engine, its one-shot
// entry point and its Plan value, so nothing else lists kernel functions.
// Executing a plan runs PlanState::run, the runner Bind chose for the plan's
// executor: the engine on a Highway target, lib/'s reference loops on the
// reference.
#ifndef STRIDEKIT_DISPATCH_KERNEL_FUNCTION_H_
#define STRIDEKIT_DISPATCH_KERNEL_FUNCTION_H_

#include <cstdint>

#include "stridekit/copy.h"

namespace stridekit::dispatch {

struct PlanState;

// Runs a checked, resolved call on data whose pointers were checked
// (options.threads as the caller gave it).
using PlanRunner = void (*)(const PlanState& s, const void* const* inputs,
                            void* out, const CopyOptions& options);

// The order of the one-shot call's NULL-pointer checks, which a plan made
// without pointers repeats on execution.
enum class DataCheckOrder : uint8_t {
  kOutThenInputs,  // Most kernels.
  kInputsThenOut,  // Einsum: its operands, then out.
  kValueThenOut,   // Fill: its value (input 0), then out.
};

// What Plan::Describe says of the plan's dtypes.
enum class DescribedDTypes : uint8_t {
  kOne,                  // "float32".
  kElementSize,          // Copy and fill: "4-byte elements".
  kSourceToDestination,  // Cast: "int8 -> float32".
};

struct KernelFunction {
  const char* name;      // "scan": the first word of Plan::Describe.
  PlanRunner engine;     // On a Highway target's kernels (any thread count).
  PlanRunner reference;  // lib/'s reference loops, single-threaded.
  DataCheckOrder data_order = DataCheckOrder::kOutThenInputs;
  // The NULL-data errors' nouns: "source data is NULL for a non-empty view".
  const char* input_noun = "source";
  const char* out_noun = "destination";
  DescribedDTypes dtypes = DescribedDTypes::kOne;
};

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_KERNEL_FUNCTION_H_
