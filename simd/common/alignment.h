// Target-independent helpers for aligning vector stores.
#ifndef STRIDEKIT_SIMD_COMMON_ALIGNMENT_H_
#define STRIDEKIT_SIMD_COMMON_ALIGNMENT_H_

#include <cstddef>
#include <cstdint>

namespace stridekit::simd {

// Elements before `to` reaches an `align_bytes` boundary; `count` when `to`
// is not even element-aligned (then no boundary is reachable). Full-width
// stores that straddle cache lines cost about twice as much (AVX-512), and
// non-temporal stores need the boundary.
template <typename T>
inline size_t ElementsToAlignment(const T* to, size_t align_bytes,
                                  size_t count) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(to);
  if (address % sizeof(T) != 0) return count;
  const size_t head = (align_bytes - address % align_bytes) % align_bytes;
  return head / sizeof(T) < count ? head / sizeof(T) : count;
}

}  // namespace stridekit::simd

#endif  // STRIDEKIT_SIMD_COMMON_ALIGNMENT_H_
