// Runtime target selection for the SIMD-dispatched kernels (simdjson style).
// A target is a Highway instruction-set target compiled into the library and
// supported by this CPU ("AVX3", "AVX2", "SSE4", "SCALAR", "NEON",
// "SVE", "SVE2", "SVE_256", "SVE2_128", ...) or "reference", the scalar
// reference implementations. The environment variable STRIDEKIT_TARGET names
// the target at start-up; an unknown or unavailable name there is an error
// that every dispatched call reports (kind kUnsupported), never a silent
// fallback.
//
// Thread safety: reading and forcing the selection are race-free from any
// thread. Forcing is global and may happen while other threads run kernels:
// a call selects its target once when it starts and runs on it to the end
// (every part, every nested copy); calls that start later run the new one.
#ifndef STRIDEKIT_TARGETS_H_
#define STRIDEKIT_TARGETS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <string_view>
#include <vector>

namespace stridekit {

// The name of the target dispatched kernels run, or "unsupported" while an
// invalid STRIDEKIT_TARGET is in force.
std::string_view ActiveTarget();

// Names of the available targets, best first, "reference" last.
std::vector<std::string_view> AvailableTargets();

// Makes every dispatched kernel run the target `name` (compared ignoring
// case). Throws kUnsupported, listing the available targets, if no available
// target has that name; the selection is then unchanged.
void ForceTarget(std::string_view name);

// Returns to the best available target (also after an invalid
// STRIDEKIT_TARGET).
void ResetTarget();

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_TARGETS_H_
