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

#endif  // STRIDEKIT_SIMD_DISPATCH_TABLE_H_
