// The registry of runnable targets behind stridekit/targets.h and the C
// ABI's target functions (the executors themselves: dispatch/executor.h),
// and the test hooks that report which target's code ran.
#ifndef STRIDEKIT_DISPATCH_TARGET_REGISTRY_H_
#define STRIDEKIT_DISPATCH_TARGET_REGISTRY_H_

#include <stdint.h>

#include <string_view>

namespace stridekit {
namespace dispatch {

// The available targets, best first, reference last.
int32_t TargetCount();
const char* TargetName(int32_t i);  // nullptr when i is out of range.
// ActiveTarget() as a NUL-terminated string of static storage.
const char* ActiveTargetName();

}  // namespace dispatch

// Test hook: the target whose code ran the last dispatched kernel call that
// succeeded on this thread, "" before the first.
std::string_view LastKernelTarget();
// Test hook: makes LastKernelTarget() "" on this thread until the next
// successful dispatched call.
void ClearLastKernelTarget();

}  // namespace stridekit

#endif  // STRIDEKIT_DISPATCH_TARGET_REGISTRY_H_
