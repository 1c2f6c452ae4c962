// Fuzzes the plans (sk_plan_*): from fuzzed arguments (hostile views, dtypes
// and ops included) a plan of sk_binary, sk_unary, sk_compare, sk_copy,
// sk_cast or sk_reduce must fail exactly as the one-shot call fails (status
// and message) or, where it is made, execute to the one-shot call's bytes
// and status on buffers sized to the views' spans (AddressSanitizer flags
// any access outside them), twice, on separate copies.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "numeric_dtypes.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::BackView;
using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::NumericDTypes;
using stridekit::fuzz::Print;

namespace {

[[noreturn]] void Die(const char* what, int kind, int op, sk_status a,
                      sk_status b, const std::string& message,
                      const sk_view* views, int n) {
  std::fprintf(
      stderr, "plan_fuzz: %s (kind %d op %d, status %d vs %d: %s / %s)\n", what,
      kind, op, int(a), int(b), message.c_str(), sk_last_error());
  for (int i = 0; i < n; ++i) Print("view", views[i]);
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
  const sk_dtype dtype2 = numeric[in.Byte() % numeric.size()];
  // binary, unary, compare, copy, cast, reduce
  const int kind = in.Byte() % 6;
  // Every op value and the first unknown one (binary 26, unary 35).
  const int32_t op = int32_t(in.Range(0, kind == 0 ? 26 : kind == 1 ? 35 : 6));
  sk_view views[3] = {in.View(tame), in.View(tame), in.View(tame)};
  int32_t axes[2] = {int32_t(in.Range(-3, 3)), int32_t(in.Range(-3, 3))};
  const int32_t naxes = int32_t(in.Byte() % 3);
  // Mostly inputs shaped like the output.
  const int out_ndim = views[2].ndim;
  if (in.Byte() % 4 != 0 && out_ndim >= 0 && out_ndim <= SK_MAX_NDIM &&
      kind != 5) {
    for (int i = 0; i < 2; ++i) {
      if (in.Byte() % 4 == 0) continue;
      views[i].ndim = out_ndim;
      for (int d = 0; d < out_ndim; ++d) views[i].shape[d] = views[2].shape[d];
    }
  }
  const int num_inputs = kind == 0 || kind == 2 ? 2 : 1;
  sk_plan* plan = nullptr;
  const sk_status made =
      kind == 0 ? sk_plan_binary(sk_binary_op(op), dtype, &views[0], &views[1],
                                 &views[2], &plan)
      : kind == 1
          ? sk_plan_unary(sk_unary_op(op), dtype, &views[0], &views[2], &plan)
      : kind == 2 ? sk_plan_compare(sk_compare_op(op), dtype, &views[0],
                                    &views[1], &views[2], &plan)
      : kind == 3 ? sk_plan_copy(dtype, &views[0], &views[2], nullptr, &plan)
      : kind == 4 ? sk_plan_cast(dtype, &views[0], dtype2, &views[2], &plan)
                  : sk_plan_reduce(sk_reduce_op(op), dtype, &views[0], naxes,
                                   axes, &views[2], &plan);
  const std::string made_message = made == SK_OK ? "" : sk_last_error();
  if ((made == SK_OK) != (plan != nullptr)) {
    Die("*plan disagrees with the status", kind, op, made, made, made_message,
        views, 3);
  }
  if (made == SK_OK && sk_plan_inputs(plan) != num_inputs) {
    Die("wrong input count", kind, op, made, made, made_message, views, 3);
  }
  // Back the views with buffers; unbacked cases check creation only.
  const size_t in_size = sk_dtype_size(dtype);
  const size_t out_size = kind == 2   ? 1
                          : kind == 4 ? sk_dtype_size(dtype2)
                                      : in_size;
  std::vector<unsigned char> bufs[3];
  bool backed = in_size != 0 && out_size != 0;
  for (int i = 0; i < 3 && backed; ++i) {
    if (i == 1 && num_inputs == 1) continue;
    backed = BackView(in, views[i], i == 2 ? out_size : in_size, bufs[i]);
  }
  auto one_shot = [&](std::vector<unsigned char>& out) {
    const void* a = backed ? bufs[0].data() : nullptr;
    const void* b = backed ? bufs[1].data() : nullptr;
    void* o = backed ? out.data() : nullptr;
    switch (kind) {
      case 0:
        return sk_binary(sk_binary_op(op), dtype, &views[0], a, &views[1], b,
                         &views[2], o);
      case 1:
        return sk_unary(sk_unary_op(op), dtype, &views[0], a, &views[2], o);
      case 2:
        return sk_compare(sk_compare_op(op), dtype, &views[0], a, &views[1], b,
                          &views[2], o);
      case 3:
        return sk_copy(dtype, &views[0], a, &views[2], o, nullptr);
      case 4:
        return sk_cast(dtype, &views[0], a, dtype2, &views[2], o);
      default:
        return sk_reduce(sk_reduce_op(op), dtype, &views[0], a, naxes, axes,
                         &views[2], o);
    }
  };
  std::vector<unsigned char> want_out = bufs[2];
  const sk_status want = one_shot(want_out);
  const std::string want_message = want == SK_OK ? "" : sk_last_error();
  if (made != SK_OK) {
    // A plan refused at creation: the call refuses with the same words
    // (unless it failed later, on its pointers, which a plan never sees).
    if (want == SK_OK || want_message != made_message) {
      if (backed) {
        Die("creation and the call disagree", kind, op, made, want,
            made_message, views, 3);
      }
    }
    return 0;
  }
  if (backed) {
    for (int round = 0; round < 2; ++round) {
      std::vector<unsigned char> got_out = bufs[2];
      const void* inputs[2] = {bufs[0].data(), bufs[1].data()};
      const sk_status got = sk_plan_execute(plan, inputs, got_out.data());
      if (got != want || (got == SK_OK) != (want == SK_OK) ||
          (got != SK_OK && want_message != sk_last_error()) ||
          got_out != want_out) {
        Die("the plan and the call disagree", kind, op, got, want, want_message,
            views, 3);
      }
    }
  }
  sk_plan_free(plan);
  return 0;
}
