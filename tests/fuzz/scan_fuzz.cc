// Fuzzes sk_arg_reduce and sk_scan with arbitrary views, axes and values.
// Accepted views run over heap buffers sized exactly to the span this
// harness computes independently (AddressSanitizer flags any access outside
// it); the active target must accept exactly what the scalar reference
// target accepts and give the same result: arg reductions bit for bit,
// scans up to NaN payloads (both walk the axis sequentially).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "fuzz_input.h"
#include "numeric_dtypes.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::BackView;
using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::NumericDTypes;
using stridekit::fuzz::Print;
using stridekit::fuzz::SameUpToNaNOf;
using stridekit::fuzz::ValidRange;

namespace {

[[noreturn]] void Die(const char* what, bool scan, int op, int axis,
                      sk_status a, sk_status b, const sk_view* views) {
  std::fprintf(
      stderr, "scan_fuzz: %s (%s op %d axis %d, status %d vs %d: %s)\n", what,
      scan ? "scan" : "arg_reduce", op, axis, int(a), int(b), sk_last_error());
  Print("in", views[0]);
  Print("out", views[1]);
  abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const bool tame = in.Byte() % 8 != 0;
  const std::vector<sk_dtype>& numeric = NumericDTypes();
  const sk_dtype dtype = in.Byte() % 16 == 0
                             ? sk_dtype(in.Range(0, 15))
                             : numeric[in.Byte() % numeric.size()];
  const bool scan = in.Byte() % 2 == 0;
  // Known ops from the op table (enum values outside a C enum's range are
  // not representable in this C++ harness without UB).
  const uint8_t pick = in.Byte();
  const int32_t op =
      scan ? int32_t(
                 stridekit::kScanOps[pick % std::size(stridekit::kScanOps)].op)
           : int32_t(
                 stridekit::kArgOps[pick % std::size(stridekit::kArgOps)].op);
  sk_view views[2] = {in.View(tame), in.View(tame)};
  int32_t axis = int32_t(in.Range(-5, 5));
  // Mostly an output that fits: in's shape (scans) or in's less the axis.
  const int ndim = views[0].ndim;
  if (in.Byte() % 4 != 0 && ndim > 0 && ndim <= SK_MAX_NDIM) {
    axis = int32_t(in.Range(-ndim, ndim - 1));
    const int a = axis < 0 ? axis + ndim : axis;
    const bool keepdims = in.Byte() % 4 == 0;
    int j = 0;
    for (int d = 0; d < ndim; ++d) {
      if (!scan && d == a && !keepdims) continue;
      views[1].shape[j++] = !scan && d == a ? 1 : views[0].shape[d];
    }
    views[1].ndim = j;
  }
  const size_t es = sk_dtype_size(dtype);
  const size_t out_es = scan ? es : sizeof(int64_t);
  std::vector<unsigned char> bufs[2];
  const bool backed = es != 0 && BackView(in, views[0], es, bufs[0]) &&
                      BackView(in, views[1], out_es, bufs[1]);
  auto run = [&](void* in_data, void* out_data) {
    return scan ? sk_scan(sk_scan_op(op), dtype, &views[0], in_data, axis,
                          &views[1], out_data)
                : sk_arg_reduce(sk_arg_op(op), dtype, &views[0], in_data, axis,
                                &views[1], out_data);
  };
  if (!backed) {
    (void)run(nullptr, nullptr);  // Only failing (or touching nothing).
    return 0;
  }
  // The active target and the reference, on separate outputs.
  std::vector<unsigned char> out_ref = bufs[1];
  const sk_status active = run(bufs[0].data(), bufs[1].data());
  if (sk_target_force("reference") != SK_OK) abort();
  const sk_status reference = run(bufs[0].data(), out_ref.data());
  sk_target_force(nullptr);
  if ((active == SK_OK) != (reference == SK_OK)) {
    Die("the active target and the reference disagree on accepting", scan, op,
        axis, active, reference, views);
  }
  const bool same = bufs[1] == out_ref ||
                    (scan && SameUpToNaNOf(dtype, bufs[1], out_ref, false));
  if (active == SK_OK && !same) {
    Die("the active target's result differs from the reference", scan, op, axis,
        active, reference, views);
  }
  return 0;
}
