// Fuzzes sk_binary, sk_unary and sk_reduce with arbitrary views and values.
// Accepted views run over heap buffers sized exactly to the span this harness
// computes independently (AddressSanitizer flags any access outside it); the
// active target's result must equal the scalar reference target's, bit for
// bit for elementwise ops and integer reductions (float reductions: the
// accept/reject decision only, since the summation orders differ).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "fuzz_input.h"
#include "numeric_dtypes.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::BackView;
using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::IsFloatDType;
using stridekit::fuzz::NumericDTypes;
using stridekit::fuzz::Print;
using stridekit::fuzz::SameUpToNaNOf;
using stridekit::fuzz::ValidRange;

namespace {

[[noreturn]] void Die(const char* what, int op, sk_status a, sk_status b,
                      const sk_view* views, int n) {
  std::fprintf(stderr, "numeric_fuzz: %s (op %d, status %d vs %d: %s)\n", what,
               op, int(a), int(b), sk_last_error());
  for (int i = 0; i < n; ++i) Print("view", views[i]);
  abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const bool tame = in.Byte() % 8 != 0;
  // The library's numeric dtypes (its type list), sometimes any value.
  const std::vector<sk_dtype>& numeric = NumericDTypes();
  const sk_dtype dtype = in.Byte() % 16 == 0
                             ? sk_dtype(in.Range(0, 15))
                             : numeric[in.Byte() % numeric.size()];
  const int kind = in.Byte() % 3;  // binary, unary, reduce
  // Unknown op values too, within each enum's bit range (C++ cannot hold
  // others without UB in this harness; C callers' ints are tested in C).
  // Known ops come from the op table (stridekit/ops.h).
  const uint8_t pick = in.Byte();
  const int32_t op =
      in.Byte() % 16 == 0 ? int32_t(in.Range(0, kind == 0 ? 7 : 3))
      : kind == 0
          ? int32_t(
                stridekit::kBinaryOps[pick % std::size(stridekit::kBinaryOps)]
                    .op)
      : kind == 1
          ? int32_t(
                stridekit::kUnaryOps[pick % std::size(stridekit::kUnaryOps)].op)
          : int32_t(
                stridekit::kReduceOps[pick % std::size(stridekit::kReduceOps)]
                    .op);
  sk_view views[3] = {in.View(tame), in.View(tame), in.View(tame)};
  int32_t axes[4];
  int32_t naxes = int32_t(in.Byte() % 5);
  for (auto& a : axes) a = int32_t(in.Range(-4, 4));
  // Mostly shapes that fit together: inputs shaped like the output (their
  // own strides and masks), or an output that is the input less axis 0.
  const int out_ndim = views[2].ndim;
  if (in.Byte() % 4 != 0 && out_ndim >= 0 && out_ndim <= SK_MAX_NDIM) {
    if (kind == 2 && views[0].ndim > 0 && views[0].ndim <= SK_MAX_NDIM) {
      naxes = 1;
      axes[0] = 0;
      views[2].ndim = views[0].ndim - 1;
      for (int d = 0; d < views[2].ndim; ++d) {
        views[2].shape[d] = views[0].shape[d + 1];
      }
    } else if (kind != 2) {
      for (int i = 0; i < 2; ++i) {
        if (in.Byte() % 4 == 0) continue;
        views[i].ndim = out_ndim;
        for (int d = 0; d < out_ndim; ++d)
          views[i].shape[d] = views[2].shape[d];
      }
    }
  }
  const size_t es = sk_dtype_size(dtype);
  std::vector<unsigned char> bufs[3];
  bool backed = es != 0;
  for (int i = 0; i < 3 && backed; ++i)
    backed = BackView(in, views[i], es, bufs[i]);
  if (!backed) {
    // Unbacked: only failing (or touching no memory) is allowed.
    if (kind == 0) {
      (void)sk_binary(sk_binary_op(op), dtype, &views[0], nullptr, &views[1],
                      nullptr, &views[2], nullptr);
    } else if (kind == 1) {
      (void)sk_unary(sk_unary_op(op), dtype, &views[0], nullptr, &views[2],
                     nullptr);
    } else {
      (void)sk_reduce(sk_reduce_op(op), dtype, &views[0], nullptr, naxes, axes,
                      &views[2], nullptr);
    }
    return 0;
  }
  // Run on the active target and on the reference, on separate outputs.
  std::vector<unsigned char> out_ref = bufs[2];
  auto run = [&](std::vector<unsigned char>& out) {
    if (kind == 0) {
      return sk_binary(sk_binary_op(op), dtype, &views[0], bufs[0].data(),
                       &views[1], bufs[1].data(), &views[2], out.data());
    }
    if (kind == 1) {
      return sk_unary(sk_unary_op(op), dtype, &views[0], bufs[0].data(),
                      &views[2], out.data());
    }
    return sk_reduce(sk_reduce_op(op), dtype, &views[0], bufs[0].data(), naxes,
                     axes, &views[2], out.data());
  };
  const sk_status active = run(bufs[2]);
  if (sk_target_force("reference") != SK_OK) abort();
  const sk_status reference = run(out_ref);
  sk_target_force(nullptr);
  if ((active == SK_OK) != (reference == SK_OK)) {
    Die("the active target and the reference disagree on accepting", op, active,
        reference, views, 3);
  }
  // Floats and complex numbers.
  const bool is_float =
      IsFloatDType(dtype) ||
      stridekit::KindOf(stridekit::DType(dtype)) == stridekit::kComplexKinds;
  const bool float_reduce = kind == 2 && is_float;
  // Elementwise results and integer reductions are exact, up to NaN
  // payloads (compilers commute a + b); float min/max reductions also up to
  // the sign of a zero (reduce.h); float sums and products differ in
  // rounding order and are not compared.
  const bool compare = !(float_reduce && op != 2 && op != 3);
  const bool any_zero_sign = float_reduce;
  const bool same = bufs[2] == out_ref ||
                    SameUpToNaNOf(dtype, bufs[2], out_ref, any_zero_sign);
  if (active == SK_OK && compare && !same) {
    Die("the active target's result differs from the reference", op, active,
        reference, views, 3);
  }
  return 0;
}
