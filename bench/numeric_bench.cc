// The numeric kernels against memcpy of the same size group, at L2, L3 and
// DRAM sizes: broadcasting adds (contiguous, outer product, row broadcast,
// transposed input) and sums (last axis, axis 0, a transposed view), f32
// and f64, on one thread and on two; contiguous adds and last-axis sums of
// int8, uint8, int16, float16, bfloat16 and complex64 on one thread; a > b
// and where (f32, contiguous and transposed). Each case
// reports bytes/s counting the bytes that must move (inputs read once, output
// written once) and names its NumPy peer and size group in the label for
// bench/compare.py.
#include <benchmark/benchmark.h>

#include <cctype>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "numeric_cases.h"
#include "stridekit/compare.h"
#include "stridekit/elementwise.h"
#include "stridekit/reduce.h"
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

void BM_Numeric(benchmark::State& state) {
  const Case c = static_cast<Case>(state.range(0));
  const DType t = static_cast<DType>(state.range(1));
  const int64_t es = int64_t(DTypeSize(t));
  const int group = int(state.range(2));
  const NumericOptions options{int(state.range(3))};
  const int64_t n = SquareEdge(kGroupBytes[group], es);
  Dims shape;
  const int64_t moved = bench::BytesMoved(c, n, es);
  Buffer a(n * n * es, 0), b(n * n * es, 5), out(n * n * es, 11);
  Buffer cond(c >= Case::kWhereContiguous ? n * n : 0, 17, 1);
  std::function<void()> run;
  switch (c) {
    case Case::kAddContiguous: {
      shape = {n * n};
      const sk_view v = CView(shape);
      run = [&, v] {
        Binary(BinaryOp::kAdd, t, v, a.data, v, b.data, v, out.data, options);
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
        Binary(BinaryOp::kAdd, t, left, a.data, right, b.data, o, out.data,
               options);
      };
      break;
    }
    case Case::kAddTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape), at = View(shape, {1, n});
      run = [&, o, at] {
        Binary(BinaryOp::kAdd, t, at, a.data, o, b.data, o, out.data, options);
      };
      break;
    }
    case Case::kSumLast:
    case Case::kSumAxis0:
    case Case::kSumTransposed: {
      shape = {n, n};
      const sk_view in =
          c == Case::kSumTransposed ? View(shape, {1, n}) : CView(shape);
      const int32_t axis = c == Case::kSumAxis0 ? 0 : 1;
      const sk_view o = View({n}, {1});
      run = [&, in, axis, o] {
        const int32_t axes[] = {axis};
        Reduce(ReduceOp::kSum, t, in, a.data, axes, o, out.data, options);
      };
      break;
    }
    case Case::kGreaterContiguous:
    case Case::kGreaterTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape);
      const sk_view x = c == Case::kGreaterTransposed ? View(shape, {1, n}) : o;
      run = [&, o, x] {
        Compare(CompareOp::kGt, t, x, a.data, o, b.data, o, out.data, options);
      };
      break;
    }
    case Case::kWhereContiguous:
    case Case::kWhereTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape);
      const sk_view x = c == Case::kWhereTransposed ? View(shape, {1, n}) : o;
      run = [&, o, x] {
        Where(t, o, cond.data, x, a.data, o, b.data, o, out.data, options);
      };
      break;
    }
  }
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * moved);
  std::string dtype(DTypeName(t));  // GoMLX's name; NumPy's in lower case.
  for (char& ch : dtype) ch = char(std::tolower(ch));
  state.SetLabel(bench::CaseLabel(c, dtype, n, group, moved) +
                 (options.threads > 1
                      ? " threads=" + std::to_string(options.threads)
                      : ""));
}

// Float32 and float64: every case, one thread and two (NumericOptions) at
// every size. The other dtypes of the table: contiguous add and
// last-axis sum on one thread.
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
    // a > b and where, float32, one thread and two.
    for (int c = int(Case::kGreaterContiguous);
         c <= int(Case::kWhereTransposed); ++c) {
      b->Args({c, int64_t(DType::kFloat32), group, 1});
      b->Args({c, int64_t(DType::kFloat32), group, 2});
    }
  }
}

BENCHMARK(bench::BM_Memcpy)->DenseRange(0, 2)->UseRealTime();
BENCHMARK(BM_Numeric)->Apply(NumericArgs)->UseRealTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
