// Fuzzes sk_cast: any pair of dtypes (the library's whole dtype list, and
// an unknown value), arbitrary source and destination views (masks,
// broadcast, negative strides, hostile fields) and, sometimes, a source that
// overlaps the destination in one buffer. Accepted views run over heap
// buffers sized exactly to the span this harness computes (AddressSanitizer
// flags any access outside it); the active target's bytes must equal the
// reference target's, bit for bit (cast_scalar.h fixes every result,
// NaNs included), both targets must accept the same calls, and a failed
// call must leave the destination untouched.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_input.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::DTypeCount;
using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::Print;
using stridekit::fuzz::ValidRange;

namespace {

constexpr __int128 kMaxBytes = 1 << 16;

[[noreturn]] void Die(const char* what, sk_status a, sk_status b, sk_dtype from,
                      sk_dtype to, const sk_view& src, const sk_view& dst,
                      bool overlap) {
  std::fprintf(stderr,
               "cast_fuzz: %s (status %d vs %d: %s), dtype %d -> %d%s\n", what,
               int(a), int(b), sk_last_error(), int(from), int(to),
               overlap ? ", overlapping" : "");
  Print("src", src);
  Print("dst", dst);
  abort();
}

// Bytes one past the last element of v (element size es), or -1 when the
// harness cannot back v.
__int128 BackedBytes(const sk_view& v, size_t es) {
  __int128 lo, hi;
  if (es == 0 || !ValidRange(v, lo, hi) || lo < 0) return -1;
  const __int128 bytes = (hi + 1) * __int128(es);
  return bytes > kMaxBytes ? -1 : bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  static const int32_t kDTypes = DTypeCount();
  const bool tame = in.Byte() % 8 != 0;
  // Values beyond the list (DTypeCount) are unknown dtypes.
  auto pick_dtype = [&] {
    return sk_dtype(in.Byte() % 32 == 0 ? in.Range(0, kDTypes)
                                        : in.Range(0, kDTypes - 1));
  };
  const sk_dtype from = pick_dtype(), to = pick_dtype();
  sk_view src = in.View(tame), dst = in.View(tame);
  const uint8_t layout = in.Byte();
  if (layout % 2 == 0) {  // Often a plain C-contiguous destination.
    dst.has_mask = 0;
    int64_t stride = 1;
    const int n = std::clamp(dst.ndim, 0, SK_MAX_NDIM);
    for (int d = n - 1; d >= 0; --d) {
      dst.strides[d] = stride;
      if (__builtin_mul_overflow(stride, std::max<int64_t>(dst.shape[d], 1),
                                 &stride)) {
        stride = 1;
      }
    }
  }
  if (layout % 4 < 2 && src.ndim >= 0 && src.ndim <= dst.ndim &&
      dst.ndim <= SK_MAX_NDIM) {
    // Mostly a source that broadcasts to the destination: its trailing
    // axes are the destination's, or 1 (stride kept: broadcast needs none).
    const int lead = dst.ndim - src.ndim;
    for (int d = 0; d < src.ndim; ++d) {
      src.shape[d] = in.Byte() % 4 == 0 ? 1 : dst.shape[lead + d];
    }
  }
  const bool overlap = layout % 8 == 7;
  const size_t from_size = sk_dtype_size(from), to_size = sk_dtype_size(to);
  const __int128 src_bytes = BackedBytes(src, from_size);
  const __int128 dst_bytes = BackedBytes(dst, to_size);
  if (src_bytes < 0 || dst_bytes < 0) {
    // Unbacked: only failing (or touching no memory) is allowed.
    (void)sk_cast(from, &src, nullptr, to, &dst, nullptr);
    return 0;
  }
  // Overlapping: one buffer holds both views.
  std::vector<unsigned char> src_buffer(overlap ? 0 : size_t(src_bytes)),
      dst_buffer(overlap ? size_t(std::max(src_bytes, dst_bytes))
                         : size_t(dst_bytes));
  in.Fill(src_buffer.data(), src_buffer.size());
  in.Fill(dst_buffer.data(), dst_buffer.size());
  const std::vector<unsigned char> dst_before = dst_buffer;
  std::vector<unsigned char> src_ref = src_buffer, dst_ref = dst_buffer;
  auto run = [&](std::vector<unsigned char>& s, std::vector<unsigned char>& d) {
    return sk_cast(from, &src, overlap ? d.data() : s.data(), to, &dst,
                   d.data());
  };
  const sk_status active = run(src_buffer, dst_buffer);
  if (sk_target_force("reference") != SK_OK) abort();
  const sk_status reference = run(src_ref, dst_ref);
  sk_target_force(nullptr);
  if (active != reference) {
    Die("the active target and the reference disagree on accepting", active,
        reference, from, to, src, dst, overlap);
  }
  if (active == SK_OK && dst_buffer != dst_ref) {
    Die("the active target's bytes differ from the reference's", active,
        reference, from, to, src, dst, overlap);
  }
  if (active != SK_OK && dst_buffer != dst_before) {
    Die("a failed cast wrote its destination", active, reference, from, to, src,
        dst, overlap);
  }
  if (src_buffer != src_ref) {
    Die("the source was written", active, reference, from, to, src, dst,
        overlap);
  }
  return 0;
}
