// The numeric kernels at L2, L3 and DRAM sizes: broadcasting adds
// (contiguous, outer product, row broadcast, transposed input) and sums
// (last axis, axis 0, a transposed view), f32 and f64, on one thread and on
// two; contiguous adds and last-axis sums of int8, uint8, int16, float16,
// bfloat16 and complex64 on one thread; and issue 17's cases on one thread
// and on two: a > b and where (f32, contiguous and transposed), exp, log
// and tanh (f32 and f64, contiguous and transposed input), argmax and
// cumsum (f32; last axis, axis 0 and a transposed view's last axis), whose
// input holds bench::CaseValue (log's domain or [-5, 5)). Each case reports
// bytes/s counting the bytes that must move (inputs read once, output
// written once), timed (thread CPU time on one thread, else the wall clock)
// against its copy reference of as
// many bytes through the case's buffers on the case's threads, interleaved
// with it (copy_reference.h: counters ref_bytes_per_second and x_ref), and
// names its NumPy peer and size group in the label for bench/compare.py.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "numeric_buffers.h"
#include "stridekit/arg_reduce.h"
#include "stridekit/compare.h"
#include "stridekit/elementwise.h"
#include "stridekit/reduce.h"
#include "stridekit/scan.h"
#include "stridekit/shape.h"
#include "stridekit/where.h"

namespace stridekit {
namespace {

using bench::Buffer;
using bench::Case;
using bench::kGroupBytes;
using bench::kGroupNames;
using bench::SquareEdge;

sk_view View(const Dims& shape, const Dims& strides) {
  sk_view v{};
  v.ndim = shape.size();
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

sk_view CView(const Dims& shape) {
  return View(shape, CContiguousStrides(shape));
}

// An [n, n] input: C order, or a.T of a C-order buffer.
sk_view SquareInput(int64_t n, bool transposed) {
  return transposed ? View({n, n}, {1, n}) : CView({n, n});
}

// The input view and axis of an axis case (sums, argmax, cumsum), whose
// variants come in the order: last axis, axis 0, a.T's last axis.
struct AxisInput {
  sk_view in;
  int32_t axis;
};
AxisInput AxisCase(Case c, Case last_axis, int64_t n) {
  const int k = int(c) - int(last_axis);
  return {SquareInput(n, k == 2), k == 1 ? 0 : 1};
}

// Sets `count` float32 or float64 elements of `data` to bench::CaseValue.
void FillCaseValues(Case c, DType t, int64_t count, unsigned char* data) {
  for (int64_t i = 0; i < count; ++i) {
    const double v = bench::CaseValue(c, i);
    if (t == DType::kFloat64) {
      reinterpret_cast<double*>(data)[i] = v;
    } else {
      reinterpret_cast<float*>(data)[i] = float(v);
    }
  }
}

void BM_Numeric(benchmark::State& state) {
  const Case c = static_cast<Case>(state.range(0));
  const DType t = static_cast<DType>(state.range(1));
  const int64_t es = int64_t(DTypeSize(t));
  const int group = int(state.range(2));
  const NumericOptions options{int(state.range(3))};
  const int64_t n = SquareEdge(kGroupBytes[group], es);
  Dims shape;
  const int64_t moved = bench::BytesMoved(c, n, es);
  const bool where = c == Case::kWhereContiguous || c == Case::kWhereTransposed;
  bench::NumericBuffers buffers(n, es, where, bench::BytesTraffic(c, n, es),
                                options.threads);
  unsigned char *const a = buffers.a, *const b = buffers.b,
                       *const cond = buffers.cond;
  Buffer& out = buffers.out;
  if (c >= bench::kFirstValuedCase) FillCaseValues(c, t, n * n, a);
  std::function<void()> run;
  switch (c) {
    case Case::kAddContiguous: {
      shape = {n * n};
      const sk_view v = CView(shape);
      run = [&, v] {
        Binary(BinaryOp::kAdd, t, v, a, v, b, v, out.data, options);
      };
      break;
    }
    case Case::kAddOuter:
    case Case::kAddRow: {
      shape = {n, n};
      const sk_view o = CView(shape);
      const sk_view left =
          c == Case::kAddOuter ? View({n, 1}, {1, 0}) : CView(shape);
      const sk_view right = View({n}, {1});
      run = [&, o, left, right] {
        Binary(BinaryOp::kAdd, t, left, a, right, b, o, out.data, options);
      };
      break;
    }
    case Case::kAddTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape), at = SquareInput(n, true);
      run = [&, o, at] {
        Binary(BinaryOp::kAdd, t, at, a, o, b, o, out.data, options);
      };
      break;
    }
    case Case::kSumLast:
    case Case::kSumAxis0:
    case Case::kSumTransposed: {
      shape = {n, n};
      const AxisInput x = AxisCase(c, Case::kSumLast, n);
      const sk_view o = View({n}, {1});
      run = [&, x, o] {
        const int32_t axes[] = {x.axis};
        Reduce(ReduceOp::kSum, t, x.in, a, axes, o, out.data, options);
      };
      break;
    }
    case Case::kGreaterContiguous:
    case Case::kGreaterTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape);
      const sk_view x = SquareInput(n, c == Case::kGreaterTransposed);
      run = [&, o, x] {
        Compare(CompareOp::kGt, t, x, a, o, b, o, out.data, options);
      };
      break;
    }
    case Case::kWhereContiguous:
    case Case::kWhereTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape);
      const sk_view x = SquareInput(n, c == Case::kWhereTransposed);
      run = [&, o, x] { Where(t, o, cond, x, a, o, b, o, out.data, options); };
      break;
    }
    case Case::kExpContiguous:
    case Case::kExpTransposed:
    case Case::kLogContiguous:
    case Case::kLogTransposed:
    case Case::kTanhContiguous:
    case Case::kTanhTransposed: {
      shape = {n, n};
      constexpr UnaryOp kOps[] = {UnaryOp::kExp, UnaryOp::kLog, UnaryOp::kTanh};
      const int k = int(c) - int(Case::kExpContiguous);  // 2 * op + transposed
      const UnaryOp op = kOps[k / 2];
      const sk_view o = CView(shape);
      const sk_view x = SquareInput(n, k % 2 != 0);
      run = [&, op, o, x] { Unary(op, t, x, a, o, out.data, options); };
      break;
    }
    case Case::kArgmaxLast:
    case Case::kArgmaxAxis0:
    case Case::kArgmaxTransposed: {
      shape = {n, n};
      const AxisInput x = AxisCase(c, Case::kArgmaxLast, n);
      const sk_view o = View({n}, {1});
      run = [&, x, o] {
        ArgReduce(ArgOp::kArgMax, t, x.in, a, x.axis, o, out.data, options);
      };
      break;
    }
    case Case::kCumsumLast:
    case Case::kCumsumAxis0:
    case Case::kCumsumTransposed: {
      shape = {n, n};
      const AxisInput x = AxisCase(c, Case::kCumsumLast, n);
      const sk_view o = CView(shape);
      run = [&, x, o] {
        Scan(ScanOp::kCumsum, t, x.in, a, x.axis, o, out.data, options);
      };
      break;
    }
  }
  bench::RunWithReference(
      state, buffers.ref, moved,
      options.threads > 1 ? bench::WallSeconds : bench::ThreadSeconds, run);
  std::string dtype(DTypeName(t));  // GoMLX's name; NumPy's in lower case.
  for (char& ch : dtype) ch = char(std::tolower(ch));
  state.SetLabel(bench::CaseLabel(c, dtype, n, group, moved) +
                 (options.threads > 1
                      ? " threads=" + std::to_string(options.threads)
                      : ""));
}

// Float32 and float64: the adds and sums, one thread and two
// (NumericOptions) at every size. The other dtypes of the table:
// contiguous add and last-axis sum on one thread.
void NumericArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (int c = 0; c <= int(Case::kSumTransposed); ++c) {
      for (DType t : {DType::kFloat32, DType::kFloat64}) {
        b->Args({c, int64_t(t), group, 1});
        b->Args({c, int64_t(t), group, 2});
      }
    }
    for (DType t : {DType::kInt8, DType::kUint8, DType::kInt16, DType::kFloat16,
                    DType::kBFloat16, DType::kComplex64}) {
      for (Case c : {Case::kAddContiguous, Case::kSumLast}) {
        b->Args({int64_t(c), int64_t(t), group, 1});
      }
    }
    // Issue 17's cases: float32, and float64 for exp, log and tanh; one
    // thread and two.
    for (int c = int(Case::kGreaterContiguous);
         c <= int(Case::kCumsumTransposed); ++c) {
      const bool f64 =
          c >= int(Case::kExpContiguous) && c <= int(Case::kTanhTransposed);
      for (DType t : {DType::kFloat32, DType::kFloat64}) {
        if (t == DType::kFloat64 && !f64) continue;
        b->Args({c, int64_t(t), group, 1});
        b->Args({c, int64_t(t), group, 2});
      }
    }
  }
}

BENCHMARK(BM_Numeric)->Apply(NumericArgs)->UseManualTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
