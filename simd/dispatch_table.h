// Calling an HWY_EXPORT table by an explicit slot, so that the dispatch layer
// (dispatch/targets.cc) decides which target runs without touching Highway's
// global target choice. Every per-target kernel returns the HWY_TARGET it was
// compiled for, which the registry records for tests.
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

// The entry of an HWY_EXPORT `table` for `slot`; a build with a single
// target has a one-entry table.
template <class Table>
auto TableEntry(const Table& table, size_t slot) {
  return std::size(table) == 1 ? table[0] : table[slot];
}

}  // namespace stridekit::simd

// Exports the per-target `int64_t KERNEL(const TASK&)` (declared in
// stridekit::HWY_NAMESPACE) and defines the runner declared as
// `int64_t stridekit::simd::RUNNER(size_t slot, const TASK& task)`, which
// calls the kernel of table slot `slot`. Use at global scope in the
// HWY_ONCE part of the kernel's translation unit (hwy/highway.h included).
#define STRIDEKIT_EXPORT_TASK_KERNEL(KERNEL, RUNNER, TASK)           \
  namespace stridekit {                                              \
  namespace {                                                        \
  HWY_EXPORT(KERNEL);                                                \
  }                                                                  \
  int64_t simd::RUNNER(size_t slot, const TASK& task) {              \
    return simd::TableEntry(HWY_DISPATCH_TABLE(KERNEL), slot)(task); \
  }                                                                  \
  }  // namespace stridekit

#endif  // STRIDEKIT_SIMD_DISPATCH_TABLE_H_
