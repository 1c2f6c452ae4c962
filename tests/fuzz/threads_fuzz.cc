// Fuzzes the thread count (sk_set_threads) and the host executor
// (sk_set_executor) with the kernels that honour them: sk_copy, sk_fill,
// sk_cast, sk_binary, sk_unary, sk_reduce and sk_einsum (dots, matrix
// products and batched products of a and b), on operands large enough to
// be split (parts of at least 8192 elements): C- and F-ordered, reversed,
// strided, broadcast and masked layouts. The result on 1 thread is the
// baseline; 2, 3 or 4 threads, or a host executor that runs the parts in
// reverse order (the input picks one), must give the same status and bits
// (C_API.md: "the same bits for any count, except float sk_reduce to few
// outputs", whose sums and products are compared for status only), up to
// NaN payloads, as numeric_fuzz compares them: which NaN operand's payload
// a sum or multiply-add keeps depends on the operand order the compiler
// picks, and a part boundary can change the code path of a tile. Dtypes and
// ops come from the library's type list and op table (numeric_types.h,
// stridekit/ops.h), so new rows join without an edit here.
#include <algorithm>
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

using stridekit::fuzz::DTypeCount;
using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::NumericDTypes;
using stridekit::fuzz::Print;
using stridekit::fuzz::SameUpToNaNOf;
using stridekit::fuzz::ValidRange;

namespace {

struct Operand {
  sk_view view{};
  std::vector<unsigned char> buffer;
};

// A view of `shape` over its own buffer: C or F order, each axis maybe
// spaced out, reversed or (with may_broadcast) of stride 0, and (with
// may_mask) sometimes a validity mask. The offset puts the lowest element
// at 0.
sk_view Layout(FuzzInput& in, int ndim, const int64_t* shape,
               bool may_broadcast, bool may_mask) {
  sk_view v{};
  v.ndim = ndim;
  const bool f_order = in.Byte() % 4 == 0;
  const int64_t spacing = in.Byte() % 4 == 0 ? in.Range(2, 3) : 1;
  int64_t stride = spacing;
  for (int i = 0; i < ndim; ++i) {
    const int d = f_order ? i : ndim - 1 - i;
    v.shape[d] = shape[d];
    v.strides[d] = stride;
    stride *= std::max<int64_t>(shape[d], 1);
  }
  for (int d = 0; d < ndim; ++d) {
    const uint8_t axis = in.Byte();
    if (may_broadcast && axis % 8 == 0) {
      v.strides[d] = 0;
    } else if (axis % 4 == 1 && shape[d] > 0) {
      v.offset += (shape[d] - 1) * v.strides[d];
      v.strides[d] = -v.strides[d];
    }
  }
  if (may_mask && in.Byte() % 8 == 0) {
    v.has_mask = 1;
    for (int d = 0; d < ndim; ++d) {
      v.mask_begin[d] = in.Range(0, 2);
      v.mask_end[d] = shape[d] - in.Range(0, 2);
    }
  }
  return v;
}

// A buffer for op.view, filled from the input (random bytes once it runs
// out: NaNs, infinities and subnormals included); one element when the
// view has no valid element.
void Back(FuzzInput& in, Operand& op, size_t elsize) {
  __int128 lo, hi;
  if (!ValidRange(op.view, lo, hi)) lo = hi = 0;
  if (lo < 0) abort();  // Layout puts the lowest element at 0
  op.buffer.resize(size_t(hi + 1) * elsize);
  in.Fill(op.buffer.data(), op.buffer.size());
}

// A row of `table` accepting dtypes of kind `kind` (the picked one if it
// does, else the first that does).
template <typename Op, size_t N>
int32_t PickOp(const stridekit::OpInfo<Op> (&table)[N], uint8_t pick,
               uint32_t kind) {
  for (size_t i = 0; i < N; ++i) {
    const auto& row = table[(pick + i) % N];
    if (row.kinds & kind) return int32_t(row.op);
  }
  return int32_t(table[0].op);
}

// Runs host parts in reverse order on the calling thread.
void ReverseExecutor(void*, int64_t nparts, sk_part_fn part, void* job) {
  for (int64_t i = nparts - 1; i >= 0; --i) part(job, i);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const std::vector<sk_dtype>& kNumeric = NumericDTypes();
  static const int32_t kDTypes = DTypeCount();
  enum Kind { kCopy, kFill, kCast, kBinary, kUnary, kReduce, kEinsum, kKinds };
  const int kind = in.Byte() % kKinds;
  // 2, 3 or 4 threads, or 5: the host executor (parts in reverse order)
  // with 4 threads; compared with 1 thread.
  const int threads = int(in.Range(2, 5));
  const bool numeric = kind >= kBinary;
  static const sk_dtype kEinsumDTypes[] = {SK_FLOAT32, SK_FLOAT64, SK_INT32,
                                           SK_INT64};
  const sk_dtype dtype = kind == kEinsum ? kEinsumDTypes[in.Byte() % 4]
                         : numeric       ? kNumeric[in.Byte() % kNumeric.size()]
                                         : sk_dtype(in.Range(0, kDTypes - 1));
  const sk_dtype out_dtype =
      kind == kCast ? sk_dtype(in.Range(0, kDTypes - 1)) : dtype;
  const uint32_t op_kind = stridekit::KindOf(stridekit::DType(dtype));
  const uint8_t pick = in.Byte();
  const int32_t op =
      kind == kBinary   ? PickOp(stridekit::kBinaryOps, pick, op_kind)
      : kind == kUnary  ? PickOp(stridekit::kUnaryOps, pick, op_kind)
      : kind == kReduce ? PickOp(stridekit::kReduceOps, pick, op_kind)
                        : 0;
  // The iteration shape: 1..3 axes, up to 4 parts of 8192 elements.
  const int ndim = int(in.Range(1, 3));
  int64_t shape[3];
  const int64_t kAxis[] = {0, 33000, 182, 32};
  for (int d = 0; d < ndim; ++d) {
    shape[d] = in.Byte() % 16 == 0 ? in.Range(0, 3) : in.Range(1, kAxis[ndim]);
  }
  // Reductions: the input has `shape`, the output drops (or keeps as 1)
  // the reduced axes.
  int32_t axes[3];
  int32_t naxes = 0;
  int64_t out_shape[3];
  int out_ndim = ndim;
  std::copy(shape, shape + ndim, out_shape);
  if (kind == kReduce) {
    const bool keepdims = in.Byte() % 4 == 0;
    const uint8_t mask = uint8_t(in.Byte() % (1 << ndim));
    out_ndim = 0;
    for (int d = 0; d < ndim; ++d) {
      if (mask & (1 << d)) {
        axes[naxes++] = d;
        if (keepdims) out_shape[out_ndim++] = 1;
      } else {
        out_shape[out_ndim++] = shape[d];
      }
    }
  }
  // Einsum: a dot, a product of a and b transposed, or a batch of them.
  static const char* const kSpecs[] = {"i,i->", "ij,kj->ik", "bij,bkj->bik"};
  if (kind == kEinsum) {
    out_ndim = ndim - 1 + (ndim > 1 ? 1 : 0);
    for (int d = 0; d + 1 < ndim; ++d) out_shape[d] = shape[d];
    if (ndim > 1) out_shape[ndim - 1] = shape[ndim - 2];
  }
  Operand out, a, b;
  out.view = Layout(in, out_ndim, out_shape, false, kind != kReduce);
  a.view = Layout(in, ndim, shape, kind != kReduce,
                  kind == kCopy || kind == kEinsum);
  b.view = Layout(in, ndim, shape, true, false);
  const size_t es = sk_dtype_size(dtype), out_es = sk_dtype_size(out_dtype);
  Back(in, out, out_es);
  Back(in, a, es);
  Back(in, b, es);
  unsigned char value[16];
  in.Fill(value, sizeof(value));

  auto run = [&](std::vector<unsigned char>& dst) {
    void* o = dst.data();
    switch (kind) {
      case kCopy:
        return sk_copy(dtype, &a.view, a.buffer.data(), &out.view, o, value);
      case kFill:
        return sk_fill(dtype, &out.view, o, value);
      case kCast:
        return sk_cast(dtype, &a.view, a.buffer.data(), out_dtype, &out.view,
                       o);
      case kBinary:
        return sk_binary(sk_binary_op(op), dtype, &a.view, a.buffer.data(),
                         &b.view, b.buffer.data(), &out.view, o);
      case kUnary:
        return sk_unary(sk_unary_op(op), dtype, &a.view, a.buffer.data(),
                        &out.view, o);
      case kEinsum: {
        const sk_view* views[] = {&a.view, &b.view};
        const void* datas[] = {a.buffer.data(), b.buffer.data()};
        return sk_einsum(kSpecs[ndim - 1], dtype, 2, views, datas, &out.view,
                         o);
      }
      default:
        return sk_reduce(sk_reduce_op(op), dtype, &a.view, a.buffer.data(),
                         naxes, axes, &out.view, o);
    }
  };
  std::vector<unsigned char> want = out.buffer;
  const sk_status want_status = run(want);
  // Float and complex sums and products depend on the split (reduce.h);
  // integer and bool reductions are exact; float min and max differ
  // only in the sign of a zero result, which this harness tolerates by
  // comparing their status alone too.
  const bool exact =
      kind != kReduce || (op_kind & stridekit::kBitwiseKinds) != 0;
  const bool host = threads == 5;
  if (sk_set_threads(host ? 4 : threads) != SK_OK) abort();
  if (host && sk_set_executor(ReverseExecutor, nullptr) != SK_OK) abort();
  std::vector<unsigned char> got = out.buffer;
  const sk_status status = run(got);
  sk_set_threads(1);
  if (host) sk_set_executor(nullptr, nullptr);
  const bool same = got == want || SameUpToNaNOf(out_dtype, got, want, false);
  if (status != want_status || (status == SK_OK && exact && !same)) {
    std::fprintf(stderr,
                 "threads_fuzz: %d %s gives %s than 1 thread (status %d vs "
                 "%d: %s); kind %d, op %d, dtype %d -> %d, %d axes reduced\n",
                 host ? 4 : threads, host ? "host-executor threads" : "threads",
                 status != want_status ? "another status" : "other bits",
                 int(status), int(want_status), sk_last_error(), kind, op,
                 int(dtype), int(out_dtype), int(naxes));
    Print("out", out.view);
    Print("a", a.view);
    Print("b", b.view);
    abort();
  }
  return 0;
}
