// Entry points of the batch index kernels: validate once, then run the
// selected executor's kernel (simd/, or the reference of lib/).
#include "stridekit/index_kernels.h"

#include "dispatch/executor.h"
#include "strided_layout.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

namespace {

void CheckCount(int64_t n, const char* op) {
  if (n < 0) Fail(ErrorKind::kInvalidArgument, op, ": n = ", n, " is negative");
}

}  // namespace

void RavelBatch(int64_t n, const int64_t* indices, DimsView strides,
                int64_t offset, int64_t* out) {
  constexpr char kOp[] = "ravel_batch";
  CheckCount(n, kOp);
  if (strides.size() > size_t{kMaxRank}) {
    Fail(ErrorKind::kInvalidArgument, kOp, ": rank ", strides.size(),
         " exceeds the maximum rank ", kMaxRank);
  }
  const dispatch::Executor& ex = dispatch::SelectedExecutor(kOp);
  dispatch::NoteKernelRan(
      ex.kernels.ravel_batch(n, indices, strides, offset, out));
}

void UnravelBatch(int64_t n, const int64_t* flat, DimsView shape,
                  int64_t* out) {
  constexpr char kOp[] = "unravel_batch";
  CheckCount(n, kOp);
  CheckShape(shape, kOp);
  const int64_t numel = Numel(shape);
  const dispatch::Executor& ex = dispatch::SelectedExecutor(kOp);
  dispatch::NoteKernelRan(ex.kernels.unravel_batch(n, flat, shape, numel, out));
}

void ViewOffsets(const sk_view& view, int64_t begin, int64_t count,
                 int64_t* out) {
  constexpr char kOp[] = "view_offsets";
  const int64_t numel = CheckStridedLayout(view, kOp);
  CheckPositionRange(begin, count, numel, kOp);
  const dispatch::Executor& ex = dispatch::SelectedExecutor(kOp);
  dispatch::NoteKernelRan(
      ex.kernels.view_offsets(CoalesceAxes(view), begin, count, out));
}

}  // namespace stridekit
