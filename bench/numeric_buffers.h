// The buffers of a numeric case (numeric_cases.h) measured against its copy
// reference (copy_reference.h), shared by numeric_bench and iter_bench: the
// inputs a, b and cond in one buffer (each at a page boundary plus a few
// cache lines, so no 4K aliasing), the output in another with room for the
// reference's destination, so that the reference moves its bytes from the
// case's inputs to its output and meets the cache state the case meets.
#ifndef STRIDEKIT_BENCH_NUMERIC_BUFFERS_H_
#define STRIDEKIT_BENCH_NUMERIC_BUFFERS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "bench_buffer.h"
#include "copy_reference.h"
#include "numeric_cases.h"

namespace stridekit::bench {

// a and b: n * n elements of es bytes (a zero bytes, b bytes of 5); cond,
// when asked for, n * n bools (1); out: at least n * n elements (bytes of
// 11). ref: the copy reference of `traffic` on `threads` threads.
struct NumericBuffers {
  CopyReference ref;
  Buffer in, out;
  unsigned char *a, *b, *cond;

  NumericBuffers(int64_t n, int64_t es, bool with_cond, Traffic traffic,
                 int threads)
      : ref(CopyReference::For(traffic.read, traffic.written)),
        in(2 * Slot(n * n * es) + 17 * 64 + (with_cond ? n * n : 0), 0),
        out(std::max(n * n * es, ref.DstBytes()), 11),
        a(in.data),
        b(a + Slot(n * n * es) + 5 * 64),
        cond(b + Slot(n * n * es) + 12 * 64) {
    std::memset(b, 5, size_t(n * n * es));
    if (with_cond) std::memset(cond, 1, size_t(n * n));
    ref.src = in.data;
    ref.dst = out.data;
    ref.threads = threads;
  }

 private:
  // `bytes` rounded up to a page.
  static int64_t Slot(int64_t bytes) { return (bytes + 4095) / 4096 * 4096; }
};

}  // namespace stridekit::bench

#endif  // STRIDEKIT_BENCH_NUMERIC_BUFFERS_H_
