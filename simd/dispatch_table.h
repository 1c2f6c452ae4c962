// The per-target kernel tables the simd/ families export. Each family's
// translation unit compiles its kernels once per Highway target and exposes
// the HWY_EXPORT table as a KernelTable; dispatch/ picks one entry per
// target: dispatch/targets.cc when it builds that target's Executor
// (TargetKernels), or the kernel function's own file (FamilyKernel). Every
// kernel returns the HWY_TARGET it was compiled for (recorded for tests).
#ifndef STRIDEKIT_SIMD_DISPATCH_TABLE_H_
#define STRIDEKIT_SIMD_DISPATCH_TABLE_H_

#include <stddef.h>
#include <stdint.h>

#include <iterator>

namespace stridekit::simd {

// HWY_TARGETS as compiled into the kernel tables.
int64_t CompiledTargets();

// The slot of `target` (one bit of CompiledTargets()) in an HWY_EXPORT table.
size_t TableSlot(int64_t target);

// An HWY_EXPORT table of kernels of type Fn.
template <typename Fn>
struct KernelTable {
  const Fn* entries;
  size_t size;
  // The entry of `target`; a build with a single target has one entry.
  Fn ForTarget(int64_t target) const {
    return size == 1 ? entries[0] : entries[TableSlot(target)];
  }
};

}  // namespace stridekit::simd

// Exports the per-target KERNEL (declared in stridekit::HWY_NAMESPACE) as
// the table returned by `stridekit::simd::TABLE()`, declared in the family's
// task header. Use at global scope in the HWY_ONCE part of the kernel's
// translation unit (hwy/highway.h included).
#define STRIDEKIT_EXPORT_KERNEL_TABLE(KERNEL, TABLE) \
  namespace stridekit {                              \
  namespace {                                        \
  HWY_EXPORT(KERNEL);                                \
  }                                                  \
  decltype(simd::TABLE()) simd::TABLE() {            \
    return {HWY_DISPATCH_TABLE(KERNEL),              \
            std::size(HWY_DISPATCH_TABLE(KERNEL))};  \
  }                                                  \
  }  // namespace stridekit

#endif  // STRIDEKIT_SIMD_DISPATCH_TABLE_H_
