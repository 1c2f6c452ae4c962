// The buffers every C++ benchmark measures on, allocated like NumPy's
// arrays so that both sides of a comparison get the same kind of memory:
// on Linux, buffers of 4 MiB and more are advised to use transparent huge
// pages (NumPy's default_malloc does the same madvise), which decides the
// TLB cost of strided access at L3 and DRAM sizes.
#ifndef STRIDEKIT_BENCH_BENCH_BUFFER_H_
#define STRIDEKIT_BENCH_BENCH_BUFFER_H_

#include <cstdint>
#include <cstring>
#include <memory>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace stridekit::bench {

// A buffer of n bytes set to `fill`, whose data start `shift` cache lines
// past the allocation: large allocations all start at the same page
// offset, and operands at equal offsets modulo 4 KiB make loads falsely
// wait on stores (4K aliasing), which would measure the allocator rather
// than the kernel.
struct Buffer {
  std::unique_ptr<unsigned char[]> storage;
  unsigned char* data;
  explicit Buffer(int64_t n, int shift = 0, unsigned char fill = 0)
      : storage(new unsigned char[size_t(n) + 4096]),
        data(storage.get() + 64 * shift) {
    const size_t size = size_t(n) + 4096;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= (size_t{1} << 22)) {
      const uintptr_t page = 4096;
      const uintptr_t lo = (uintptr_t(storage.get()) + page - 1) & ~(page - 1);
      const uintptr_t hi = (uintptr_t(storage.get()) + size) & ~(page - 1);
      if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
    }
#endif
    std::memset(storage.get(), fill, size);  // Fault pages in.
  }
};

}  // namespace stridekit::bench

#endif  // STRIDEKIT_BENCH_BENCH_BUFFER_H_
