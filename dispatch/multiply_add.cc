#include "dispatch/multiply_add.h"

#include "dispatch/executor.h"
#include "stridekit/error.h"

namespace stridekit::dispatch {

void MultiplyAdd(DType t, const void* a, const void* b, const void* c,
                 void* out, int64_t n) {
  constexpr char kOp[] = "multiply_add";
  if (t != DType::kFloat32 && t != DType::kFloat64) {
    Fail(ErrorKind::kUnsupported, kOp, ": dtype ", DTypeName(t),
         " is not Float32 or Float64");
  }
  if (n < 0)
    Fail(ErrorKind::kInvalidArgument, kOp, ": n = ", n, " is negative");
  const Executor& ex = SelectedExecutor(kOp);
  NoteKernelRan(ex.kernels.multiply_add(t, a, b, c, out, n));
}

}  // namespace stridekit::dispatch
