// Fuzzes sk_compare, the predicates of sk_unary (isnan, isinf, isfinite)
// and sk_where with arbitrary views and values. Accepted views run over
// heap buffers sized exactly to the span this harness computes
// independently (AddressSanitizer flags any access outside it); the active
// target's output must equal the scalar reference target's bit for bit
// (0/1 bytes, or where's moved bytes), and both must agree on accepting.
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
using stridekit::fuzz::ValidRange;

namespace {

[[noreturn]] void Die(const char* what, int kind, int op, sk_status a,
                      sk_status b, const sk_view* views, int n) {
  std::fprintf(stderr,
               "compare_fuzz: %s (kind %d op %d, status %d vs %d: %s)\n", what,
               kind, op, int(a), int(b), sk_last_error());
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
  const int kind = in.Byte() % 3;  // compare, predicate, where
  // Known ops from the tables (stridekit/ops.h), sometimes unknown values.
  const uint8_t pick = in.Byte();
  const int32_t op =
      in.Byte() % 16 == 0 ? int32_t(in.Range(0, 31))
      : kind == 0
          ? int32_t(
                stridekit::kCompareOps[pick % std::size(stridekit::kCompareOps)]
                    .op)
          : int32_t(
                stridekit::kPredicateOps[pick %
                                         std::size(stridekit::kPredicateOps)]
                    .op);
  // views[3] is the output; compare reads 0, 1; predicate 0; where 0
  // (cond), 1, 2.
  sk_view views[4] = {in.View(tame), in.View(tame), in.View(tame),
                      in.View(tame)};
  const int out_ndim = views[3].ndim;
  if (in.Byte() % 4 != 0 && out_ndim >= 0 && out_ndim <= SK_MAX_NDIM) {
    for (int i = 0; i < 3; ++i) {
      if (in.Byte() % 4 == 0) continue;
      views[i].ndim = out_ndim;
      for (int d = 0; d < out_ndim; ++d) views[i].shape[d] = views[3].shape[d];
    }
  }
  const size_t es = sk_dtype_size(dtype);
  // An unknown op value of kind 1 may be a unary op that is not a
  // predicate (its output has the input's dtype, not bool).
  bool predicate = false;
  for (const auto& row : stridekit::kPredicateOps) {
    predicate = predicate || int32_t(row.op) == op;
  }
  // Element sizes of the operands per kind.
  const size_t unary_out = predicate ? 1 : es;
  const size_t sizes[3][4] = {
      {es, es, 1, 1}, {es, 1, 1, unary_out}, {1, es, es, es}};
  std::vector<unsigned char> bufs[4];
  bool backed = es != 0;
  for (int i = 0; i < 4 && backed; ++i) {
    backed = BackView(in, views[i], sizes[kind][i], bufs[i]);
  }
  auto run = [&](bool have, std::vector<unsigned char>& out) {
    const auto at = [&](int i) -> void* {
      return have ? bufs[i].data() : nullptr;
    };
    void* o = have ? out.data() : nullptr;
    if (kind == 0) {
      return sk_compare(sk_compare_op(op), dtype, &views[0], at(0), &views[1],
                        at(1), &views[3], o);
    }
    if (kind == 1) {
      return sk_unary(sk_unary_op(op), dtype, &views[0], at(0), &views[3], o);
    }
    return sk_where(dtype, &views[0], at(0), &views[1], at(1), &views[2], at(2),
                    &views[3], o);
  };
  if (!backed) {
    // Unbacked: only failing (or touching no memory) is allowed.
    std::vector<unsigned char> none;
    (void)run(false, none);
    return 0;
  }
  std::vector<unsigned char> out_ref = bufs[3];
  const sk_status active = run(true, bufs[3]);
  if (sk_target_force("reference") != SK_OK) abort();
  const sk_status reference = run(true, out_ref);
  sk_target_force(nullptr);
  if ((active == SK_OK) != (reference == SK_OK)) {
    Die("the active target and the reference disagree on accepting", kind, op,
        active, reference, views, 4);
  }
  if (active == SK_OK && bufs[3] != out_ref) {
    Die("the active target's result differs from the reference", kind, op,
        active, reference, views, 4);
  }
  return 0;
}
