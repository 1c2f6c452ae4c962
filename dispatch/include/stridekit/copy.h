// The copy family over views (docs/c_abi.md "Data kernels"): element i of view
// v lives at data + (v.offset + sum_d i_d * v.strides[d]) * elem_size.
//
// Copy moves src into dst: src broadcasts to dst's shape (NumPy rules),
// masked-out src positions read `fill` (zero bytes when null), masked-out dst
// positions are not written, and an src overlapping dst in memory behaves as
// if src were first copied to a temporary. Element sizes 1, 2, 4, 8 and 16.
// Fill writes `value` to every valid position of dst.
//
// Failure guarantee: every check runs, and an overlapping source's temporary
// is allocated, before the first write, so a thrown error (including
// kNoMemory) leaves dst untouched.
//
// These run on the active target (see targets.h); the "reference" target runs
// the plain per-element loops the equivalence tests compare against.
#ifndef STRIDEKIT_COPY_H_
#define STRIDEKIT_COPY_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstddef>

#include "stridekit/buffer.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

namespace stridekit {

struct CopyOptions {
  // Threads the copy may use; 1 runs on the calling thread.
  int threads = 1;
  // Destinations of at least this many bytes are written with non-temporal
  // stores (they bypass the cache; worth it only far beyond the L2 size).
  int64_t stream_min_bytes = int64_t{64} << 20;
};

void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill = nullptr,
          const CopyOptions& options = {});
void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value, const CopyOptions& options = {});

// The same on stridekit::View (view.h), the validated C++ view.
inline void Copy(size_t elem_size, const View& src, const void* src_data,
                 const View& dst, void* dst_data, const void* fill = nullptr,
                 const CopyOptions& options = {}) {
  Copy(elem_size, src.ToC(), src_data, dst.ToC(), dst_data, fill, options);
}
inline void Fill(size_t elem_size, const View& dst, void* dst_data,
                 const void* value, const CopyOptions& options = {}) {
  Fill(elem_size, dst.ToC(), dst_data, value, options);
}

// A fresh C-contiguous array: its bytes and the view that describes them
// (offset 0, canonical strides, no mask).
struct Materialized {
  Buffer data;
  sk_view view;
};

// Copies the valid elements of src (masked positions read `fill`) into a
// new C-contiguous buffer; kNoMemory if it cannot be allocated.
Materialized Materialize(size_t elem_size, const sk_view& src,
                         const void* src_data, const void* fill = nullptr,
                         const CopyOptions& options = {});

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_COPY_H_
