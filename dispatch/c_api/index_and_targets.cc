// C ABI: the "Batch index kernels" and "Targets" sections of docs/c_abi.md.
#include "c_api_internal.h"
#include "dispatch/target_registry.h"
#include "stridekit/index_kernels.h"
#include "stridekit/targets.h"

using stridekit::DimsView;
using stridekit::capi::ArrayArg;
using stridekit::capi::Guard;
using stridekit::capi::RequireNonNull;

namespace {

// Throws unless `n` rows of `row_length` entries fit in int64 and, when there
// are any, `p` is non-null.
void RequireRows(int64_t n, int64_t row_length, const void* p, const char* op,
                 const char* what) {
  int64_t total;
  if (n < 0) {
    stridekit::Fail(stridekit::ErrorKind::kInvalidArgument, op, ": n = ", n,
                    " is negative");
  }
  if (__builtin_mul_overflow(n, row_length, &total)) {
    stridekit::Fail(stridekit::ErrorKind::kOverflow, op, ": ", what, " has ", n,
                    " x ", row_length, " entries, which overflows int64");
  }
  if (total > 0) RequireNonNull(p, op, what);
}

}  // namespace

extern "C" {

sk_status sk_ravel_batch(int64_t n, int32_t ndim, const int64_t* indices,
                         const int64_t* strides, int64_t offset, int64_t* out) {
  return Guard(__func__, [&] {
    constexpr char kOp[] = "sk_ravel_batch";
    const DimsView s = ArrayArg(ndim, strides, kOp, "strides");
    RequireRows(n, ndim, indices, kOp, "indices");
    RequireRows(n, 1, out, kOp, "out");
    stridekit::RavelBatch(n, indices, s, offset, out);
  });
}

sk_status sk_unravel_batch(int64_t n, const int64_t* flat, int32_t ndim,
                           const int64_t* shape, int64_t* out) {
  return Guard(__func__, [&] {
    constexpr char kOp[] = "sk_unravel_batch";
    const DimsView s = ArrayArg(ndim, shape, kOp, "shape");
    RequireRows(n, 1, flat, kOp, "flat");
    RequireRows(n, ndim, out, kOp, "out");
    stridekit::UnravelBatch(n, flat, s, out);
  });
}

sk_status sk_view_offsets(const sk_view* v, int64_t begin, int64_t count,
                          int64_t* out) {
  return Guard(__func__, [&] {
    constexpr char kOp[] = "sk_view_offsets";
    RequireNonNull(v, kOp, "v");
    RequireRows(count, 1, out, kOp, "out");
    stridekit::ViewOffsets(*v, begin, count, out);
  });
}

const char* sk_target_active(void) {
  return stridekit::dispatch::ActiveTargetName();
}

int32_t sk_target_count(void) { return stridekit::dispatch::TargetCount(); }

const char* sk_target_name(int32_t i) {
  return stridekit::dispatch::TargetName(i);
}

sk_status sk_target_force(const char* name) {
  return Guard(__func__, [&] {
    if (name == nullptr || *name == '\0') {
      stridekit::ResetTarget();
    } else {
      stridekit::ForceTarget(name);
    }
  });
}

}  // extern "C"
