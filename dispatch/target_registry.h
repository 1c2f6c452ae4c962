// The registry behind stridekit/targets.h, for the dispatched entry points.
#ifndef STRIDEKIT_DISPATCH_TARGET_REGISTRY_H_
#define STRIDEKIT_DISPATCH_TARGET_REGISTRY_H_

#include <stddef.h>
#include <stdint.h>

namespace stridekit::dispatch {

// A runnable target: a Highway target with its HWY_EXPORT table slot, or the
// reference (hwy_target 0).
struct Target {
  const char* name;
  int64_t hwy_target;
  size_t table_slot;
  bool IsReference() const { return hwy_target == 0; }
};

// The target dispatched kernels must run. Throws kUnsupported, prefixed with
// `op`, while an invalid STRIDEKIT_TARGET is in force.
const Target& SelectedTarget(const char* op);

// Records for LastKernelTarget() that the code of `hwy_target` (0: the
// reference) ran a kernel on this thread.
void NoteKernelRan(int64_t hwy_target);

// The available targets, best first, reference last.
int32_t TargetCount();
const char* TargetName(int32_t i);  // nullptr when i is out of range.
// ActiveTarget() as a NUL-terminated string of static storage.
const char* ActiveTargetName();

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_TARGET_REGISTRY_H_
