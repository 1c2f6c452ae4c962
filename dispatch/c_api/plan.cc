// C ABI: the "Plans" section of docs/c_abi.md. A sk_plan holds a
// stridekit::Plan (stridekit/plan.h); sk_plan_<kernel> checks its C
// arguments as sk_<kernel> does, with the same messages.
#include "stridekit/plan.h"

#include <new>
#include <span>
#include <utility>
#include <vector>

#include "c_api_internal.h"
#include "cast_scalar.h"
#include "stridekit/ops.h"

struct sk_plan {
  stridekit::Plan plan;
  int num_inputs = plan.num_inputs();  // Read on every execution.
};

namespace {

using stridekit::capi::EnumArg;
using stridekit::capi::RequireNonNull;

// Runs `make` (which returns a Plan) into a new sk_plan at *plan: *plan is
// NULL on failure, and a NULL `plan` is SK_ERR_INVALID.
template <typename Make>
sk_status MakePlan(const char* op, sk_plan** plan, Make&& make) {
  if (plan == nullptr) {
    return stridekit::capi::SetPrefixedError(SK_ERR_INVALID, op,
                                             "plan is NULL");
  }
  *plan = nullptr;
  return stridekit::capi::Guard(op, [&] { *plan = new sk_plan{make()}; });
}

stridekit::DType DTypeArg(sk_dtype t) { return EnumArg<stridekit::DType>(t); }

}  // namespace

extern "C" {

sk_status sk_plan_copy(sk_dtype t, const sk_view* src, const sk_view* dst,
                       const void* fill, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(src, "sk_copy", "src");
    RequireNonNull(dst, "sk_copy", "dst");
    return stridekit::Plan::Copy(stridekit::capi::ElemSize(t, "sk_copy"), *src,
                                 *dst, fill);
  });
}

sk_status sk_plan_fill(sk_dtype t, const sk_view* dst, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(dst, "sk_fill", "dst");
    return stridekit::Plan::Fill(stridekit::capi::ElemSize(t, "sk_fill"), *dst);
  });
}

sk_status sk_plan_cast(sk_dtype src_t, const sk_view* src, sk_dtype dst_t,
                       const sk_view* dst, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    const int32_t from = stridekit::capi::RawEnumValue(src_t);
    const int32_t to = stridekit::capi::RawEnumValue(dst_t);
    RequireNonNull(src, "sk_cast", "src");
    RequireNonNull(dst, "sk_cast", "dst");
    stridekit::cast::CheckCastDType(from, "sk_cast", "source");
    stridekit::cast::CheckCastDType(to, "sk_cast", "destination");
    return stridekit::Plan::Cast(static_cast<stridekit::DType>(from), *src,
                                 static_cast<stridekit::DType>(to), *dst);
  });
}

sk_status sk_plan_binary(sk_binary_op op, sk_dtype t, const sk_view* a,
                         const sk_view* b, const sk_view* out, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(a, "sk_binary", "a");
    RequireNonNull(b, "sk_binary", "b");
    RequireNonNull(out, "sk_binary", "out");
    return stridekit::Plan::Binary(EnumArg<stridekit::BinaryOp>(op),
                                   DTypeArg(t), *a, *b, *out);
  });
}

sk_status sk_plan_unary(sk_unary_op op, sk_dtype t, const sk_view* a,
                        const sk_view* out, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(a, "sk_unary", "a");
    RequireNonNull(out, "sk_unary", "out");
    // The predicates (out SK_BOOL) have their own table, as in sk_unary.
    const auto predicate = EnumArg<stridekit::PredicateOp>(op);
    if (stridekit::FindOp(predicate) != nullptr) {
      return stridekit::Plan::Predicate(predicate, DTypeArg(t), *a, *out);
    }
    return stridekit::Plan::Unary(EnumArg<stridekit::UnaryOp>(op), DTypeArg(t),
                                  *a, *out);
  });
}

sk_status sk_plan_compare(sk_compare_op op, sk_dtype t, const sk_view* a,
                          const sk_view* b, const sk_view* out,
                          sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(a, "sk_compare", "a");
    RequireNonNull(b, "sk_compare", "b");
    RequireNonNull(out, "sk_compare", "out");
    return stridekit::Plan::Compare(EnumArg<stridekit::CompareOp>(op),
                                    DTypeArg(t), *a, *b, *out);
  });
}

sk_status sk_plan_where(sk_dtype t, const sk_view* cond, const sk_view* a,
                        const sk_view* b, const sk_view* out, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(cond, "sk_where", "cond");
    RequireNonNull(a, "sk_where", "a");
    RequireNonNull(b, "sk_where", "b");
    RequireNonNull(out, "sk_where", "out");
    return stridekit::Plan::Where(DTypeArg(t), *cond, *a, *b, *out);
  });
}

sk_status sk_plan_reduce(sk_reduce_op op, sk_dtype t, const sk_view* in,
                         int32_t naxes, const int32_t* axes, const sk_view* out,
                         sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(in, "sk_reduce", "in");
    RequireNonNull(out, "sk_reduce", "out");
    if (naxes < 0 || naxes > SK_MAX_NDIM) {
      stridekit::Fail(stridekit::ErrorKind::kInvalidArgument,
                      "sk_reduce: naxes ", naxes, " is outside [0, ",
                      SK_MAX_NDIM, "]");
    }
    if (naxes > 0) RequireNonNull(axes, "sk_reduce", "axes");
    return stridekit::Plan::Reduce(
        EnumArg<stridekit::ReduceOp>(op), DTypeArg(t), *in,
        std::span<const int32_t>(axes, size_t(naxes)), *out);
  });
}

sk_status sk_plan_arg_reduce(sk_arg_op op, sk_dtype t, const sk_view* in,
                             int32_t axis, const sk_view* out, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(in, "sk_arg_reduce", "in");
    RequireNonNull(out, "sk_arg_reduce", "out");
    return stridekit::Plan::ArgReduce(EnumArg<stridekit::ArgOp>(op),
                                      DTypeArg(t), *in, axis, *out);
  });
}

sk_status sk_plan_scan(sk_scan_op op, sk_dtype t, const sk_view* in,
                       int32_t axis, const sk_view* out, sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    RequireNonNull(in, "sk_scan", "in");
    RequireNonNull(out, "sk_scan", "out");
    return stridekit::Plan::Scan(EnumArg<stridekit::ScanOp>(op), DTypeArg(t),
                                 *in, axis, *out);
  });
}

sk_status sk_plan_einsum(const char* spec, sk_dtype t, int32_t n,
                         const sk_view* const* views, const sk_view* out,
                         sk_plan** plan) {
  return MakePlan(__func__, plan, [&] {
    const char* op = "sk_einsum";
    RequireNonNull(spec, op, "spec");
    if (n < 0 || n > SK_MAX_NDIM) {
      stridekit::Fail(stridekit::ErrorKind::kInvalidArgument, op, ": n=", n,
                      " is outside [0, ", SK_MAX_NDIM, "]");
    }
    if (n > 0) RequireNonNull(views, op, "views");
    std::vector<sk_view> operands;
    for (int32_t i = 0; i < n; ++i) {
      RequireNonNull(views[i], op, "views[i]");
      operands.push_back(*views[i]);
    }
    RequireNonNull(out, op, "out");
    return stridekit::Plan::Einsum(spec, DTypeArg(t), operands, *out);
  });
}

sk_status sk_plan_execute(const sk_plan* plan, const void* const* inputs,
                          void* out) {
  return stridekit::capi::Guard(__func__, [&] {
    RequireNonNull(plan, "sk_plan_execute", "plan");
    const int n = plan->num_inputs;
    if (n > 0) RequireNonNull(inputs, "sk_plan_execute", "inputs");
    plan->plan.Execute(std::span<const void* const>(inputs, size_t(n)), out,
                       stridekit::GetThreads());
  });
}

int32_t sk_plan_inputs(const sk_plan* plan) {
  return plan == nullptr ? -1 : int32_t(plan->num_inputs);
}

const char* sk_plan_describe(const sk_plan* plan) {
  return plan == nullptr ? "" : plan->plan.Describe().c_str();
}

void sk_plan_free(sk_plan* plan) { delete plan; }

}  // extern "C"
