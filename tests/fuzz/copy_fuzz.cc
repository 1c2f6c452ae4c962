// Fuzzes sk_copy and sk_fill with arbitrary views. Views that stridekit
// accepts run over a heap buffer sized exactly to the span this harness
// computes independently (in 128-bit arithmetic), so AddressSanitizer flags
// any access outside it; the result must equal the reference's. The same
// copy through sk_iter_run (a memcpy loop over its chunks, on 1 or 3
// threads) must accept the same views (masked sources aside, which it
// rejects) and give the same bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_input.h"
#include "reference_kernels.h"
#include "stridekit/copy.h"
#include "stridekit/error.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::Print;
using stridekit::fuzz::ValidRange;

namespace {

[[noreturn]] void Die(const char* what, sk_status status, const sk_view& src,
                      const sk_view& dst, size_t elem_size) {
  std::fprintf(stderr, "copy_fuzz: %s (status %d: %s), element size %zu\n",
               what, int(status), sk_last_error(), elem_size);
  Print("src", src);
  Print("dst", dst);
  abort();
}

// sk_iter_run's loop for a copy: ctx holds the element size.
void CopyLoop(char* const* ptrs, int64_t count, const int64_t* strides,
              void* ctx) {
  const size_t es = *static_cast<const size_t*>(ctx);
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(ptrs[0] + i * strides[0], ptrs[1] + i * strides[1], es);
  }
}

bool MasksSomething(const sk_view& v) {
  if (v.has_mask != 1 || v.ndim < 0 || v.ndim > SK_MAX_NDIM) return false;
  for (int d = 0; d < v.ndim; ++d) {
    if (v.mask_begin[d] != 0 || v.mask_end[d] != v.shape[d]) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const bool tame = in.Byte() % 8 != 0;
  const sk_dtype kDtypes[] = {SK_INT8, SK_INT16, SK_FLOAT32, SK_FLOAT64,
                              SK_COMPLEX128};
  // Values 0..15 are the enum's range; 15 is no dtype.
  const sk_dtype dtype =
      in.Byte() % 16 == 0 ? sk_dtype(in.Range(0, 15)) : kDtypes[in.Byte() % 5];
  sk_view src = in.View(tame), dst = in.View(tame);
  if (in.Byte() % 2) {  // Often make dst a plain C-contiguous array.
    dst.has_mask = 0;
    int64_t stride = 1;
    const int n = dst.ndim < 0             ? 0
                  : dst.ndim > SK_MAX_NDIM ? SK_MAX_NDIM
                                           : dst.ndim;
    for (int d = n - 1; d >= 0; --d) {
      dst.strides[d] = stride;
      if (__builtin_mul_overflow(stride, dst.shape[d] > 0 ? dst.shape[d] : 1,
                                 &stride)) {
        stride = 1;
      }
    }
  }
  const size_t es = sk_dtype_size(dtype);
  __int128 src_lo, src_hi, dst_lo, dst_hi;
  const bool src_ok = ValidRange(src, src_lo, src_hi);
  const bool dst_ok = ValidRange(dst, dst_lo, dst_hi);
  constexpr __int128 kMaxBytes = 1 << 16;
  if (es == 0 || !src_ok || !dst_ok || src_lo < 0 || dst_lo < 0 ||
      (src_hi + 1) * es > kMaxBytes || (dst_hi + 1) * es > kMaxBytes) {
    // Not a view this harness can back with memory: it may only fail, or
    // succeed without touching memory (empty views).
    unsigned char dummy[16] = {};
    (void)sk_copy(dtype, &src, nullptr, &dst, nullptr, nullptr);
    (void)sk_fill(dtype, &dst, nullptr, dummy);
    return 0;
  }
  const size_t src_bytes = size_t(src_hi + 1) * es;
  const size_t dst_bytes = size_t(dst_hi + 1) * es;
  std::vector<unsigned char> src_buffer(src_bytes), dst_buffer(dst_bytes);
  for (auto& b : src_buffer) b = in.Byte();
  for (auto& b : dst_buffer) b = in.Byte();
  std::vector<unsigned char> want = dst_buffer, iterated = dst_buffer;
  unsigned char fill[16];
  for (auto& b : fill) b = in.Byte();

  const sk_status status =
      sk_copy(dtype, &src, src_buffer.data(), &dst, dst_buffer.data(), fill);
  bool reference_ok = true;
  try {
    stridekit::reference::Copy(es, src, src_buffer.data(), dst, want.data(),
                               fill);
  } catch (const stridekit::Error&) {
    reference_ok = false;
  }
  if ((status == SK_OK) != reference_ok) {
    Die("sk_copy and the reference disagree on accepting the views", status,
        src, dst, es);
  }
  if (status == SK_OK && dst_buffer != want) {
    Die("sk_copy's result differs from the reference", status, src, dst, es);
  }
  if (!MasksSomething(src)) {
    const sk_view* views[] = {&dst, &src};
    size_t sizes[] = {es, es};
    void* datas[] = {iterated.data(), src_buffer.data()};
    if (sk_set_threads(in.Byte() % 2 ? 3 : 1) != SK_OK) {
      Die("sk_set_threads(3) failed", SK_OK, src, dst, es);
    }
    size_t elem_size = es;
    const sk_status iter_status =
        sk_iter_run(2, views, sizes, datas, 0, CopyLoop, &elem_size);
    sk_set_threads(1);
    // sk_copy accepts only element sizes 1..16; the iterator any size.
    if ((iter_status == SK_OK) != (status == SK_OK)) {
      Die("sk_iter_run and sk_copy disagree on accepting the views",
          iter_status, src, dst, es);
    }
    if (status == SK_OK && iterated != dst_buffer) {
      Die("sk_iter_run's copy differs from sk_copy's", SK_OK, src, dst, es);
    }
  }
  if (status == SK_OK &&
      sk_fill(dtype, &dst, dst_buffer.data(), fill) != SK_OK) {
    Die("sk_fill refused a destination sk_copy accepted", SK_OK, src, dst, es);
  }
  return 0;
}
