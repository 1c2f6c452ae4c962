// Einsum execution (stridekit/einsum.h): operands are checked and, where
// masked or overlapping out, materialised; each is then read through its
// strides over the product space of the projections, a scalar loop nest
// accumulates the products into a C-contiguous accumulator, and the copy
// engine writes the accumulator into out.
#include "stridekit/einsum.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "copy_checks.h"
#include "dispatch/operand_box.h"
#include "numeric_checks.h"
#include "scalar_ops.h"
#include "strided_layout.h"
#include "stridekit/allocation.h"
#include "stridekit/checked.h"
#include "stridekit/copy.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"
#include "stridekit/shape_inference.h"

namespace stridekit {
namespace {

constexpr const char* kOp = "einsum";

Projections ProjectionsOf(std::string_view spec,
                          std::span<const DimsView> shapes) {
  if (spec.find("=>") != std::string_view::npos) {
    return LabelsEinsumProjections(spec, shapes);
  }
  return EinsumProjections(ParseEinsumSubscripts(spec), shapes);
}

// Tensor 0 is the accumulator, tensor i + 1 operand i: each one's stride
// along every loop of the product space and its offset at the origin.
struct LoopNest {
  Dims sizes;
  std::vector<Dims> strides;
  std::vector<int64_t> offsets;
};

// Adds `map`'s contribution of a tensor with `strides` to loop nest entry t.
void AddTensor(LoopNest& nest, int t, const AxisMap& map, DimsView strides) {
  for (size_t a = 0; a < map.size(); ++a) {
    const AxisIndex& index = map[a];
    switch (index.kind) {
      case AxisIndex::Kind::kIterator: {
        int64_t& s = nest.strides[t][int(index.value)];
        s = CheckedAdd(s, strides[a], kOp);
        break;
      }
      case AxisIndex::Kind::kFixed:
        nest.offsets[t] = CheckedAdd(
            nest.offsets[t], CheckedMul(index.value, strides[a], kOp), kOp);
        break;
      case AxisIndex::Kind::kSliceIndex:
        Fail(ErrorKind::kUnsupported, kOp,
             ": batch-slice indices are not executable here");
    }
  }
}

// Orders the loops like the iteration planner: the smallest total |stride|
// innermost (the most contiguous walk).
void OrderLoops(LoopNest& nest) {
  const int n = nest.sizes.size();
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto weight = [&](int l) {
    __int128 w = 0;
    for (const Dims& s : nest.strides) w += s[l] < 0 ? -__int128(s[l]) : s[l];
    return w;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return weight(a) > weight(b); });
  LoopNest sorted{Dims(), std::vector<Dims>(nest.strides.size()), nest.offsets};
  for (int l : order) {
    sorted.sizes.push_back(nest.sizes[l]);
    for (size_t t = 0; t < nest.strides.size(); ++t) {
      sorted.strides[t].push_back(nest.strides[t][l]);
    }
  }
  nest = std::move(sorted);
}

// acc[...] += prod_i operand_i[...] over the whole product space.
template <typename T>
void Accumulate(const LoopNest& nest, T* acc,
                const std::vector<const T*>& operands) {
  const int loops = nest.sizes.size();
  const size_t tensors = nest.strides.size();
  std::vector<int64_t> base(nest.offsets);
  Dims counter(loops, 0);
  const int64_t inner = loops > 0 ? nest.sizes[loops - 1] : 1;
  const auto stride_of = [&](size_t t) {
    return loops > 0 ? nest.strides[t][loops - 1] : 0;
  };
  // Two operands with unit or zero inner strides (matrix products, dot
  // products, scaled rows) take loops the compiler vectorises.
  const bool pair = tensors == 3;
  const int64_t s0 = stride_of(0), s1 = pair ? stride_of(1) : -1,
                s2 = pair ? stride_of(2) : -1;
  for (;;) {
    T* to = acc + base[0];
    if (pair && s0 == 1 && (s1 == 0 || s2 == 0) && s1 + s2 == 1) {
      // to[j] += x * row[j]
      const T x = s1 == 0 ? operands[0][base[1]] : operands[1][base[2]];
      const T* row = s1 == 0 ? operands[1] + base[2] : operands[0] + base[1];
      for (int64_t j = 0; j < inner; ++j) {
        to[j] = scalar_ops::Add(to[j], scalar_ops::Mul(x, row[j]));
      }
    } else if (pair && s0 == 0 && s1 == 1 && s2 == 1) {
      // *to += sum_j a[j] * b[j], in eight interleaved partial sums.
      const T* a = operands[0] + base[1];
      const T* b = operands[1] + base[2];
      T partial[8] = {};
      int64_t j = 0;
      for (; j + 8 <= inner; j += 8) {
        for (int k = 0; k < 8; ++k) {
          partial[k] =
              scalar_ops::Add(partial[k], scalar_ops::Mul(a[j + k], b[j + k]));
        }
      }
      for (; j < inner; ++j) {
        partial[0] = scalar_ops::Add(partial[0], scalar_ops::Mul(a[j], b[j]));
      }
      T sum = T(0);
      for (int k = 0; k < 8; ++k) sum = scalar_ops::Add(sum, partial[k]);
      *to = scalar_ops::Add(*to, sum);
    } else {
      for (int64_t j = 0; j < inner; ++j) {
        T product = T(1);
        for (size_t t = 1; t < tensors; ++t) {
          product = scalar_ops::Mul(
              product, operands[t - 1][base[t] + j * stride_of(t)]);
        }
        T& cell = to[j * s0];
        cell = scalar_ops::Add(cell, product);
      }
    }
    // Next outer position (counter with carry over loops [0, loops - 1)).
    int l = loops - 2;
    for (; l >= 0; --l) {
      for (size_t t = 0; t < tensors; ++t) base[t] += nest.strides[t][l];
      if (++counter[l] < nest.sizes[l]) break;
      for (size_t t = 0; t < tensors; ++t) {
        base[t] -= counter[l] * nest.strides[t][l];
      }
      counter[l] = 0;
    }
    if (l < 0) return;
  }
}

}  // namespace

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data) {
  CheckNumericDType(t, kOp);
  if (operands.size() != datas.size()) {
    Fail(ErrorKind::kInvalidArgument, kOp, ": ", operands.size(),
         " operand views but ", datas.size(), " data pointers");
  }
  const size_t elem_size = DTypeSize(t);
  std::vector<DimsView> shapes;
  for (const sk_view& v : operands) {
    CheckLayout(v, elem_size, kOp);
    shapes.emplace_back(v.shape, size_t(v.ndim));
  }
  CheckLayout(out, elem_size, kOp);
  CheckDistinctPositions(out, kOp);
  const Projections p = ProjectionsOf(spec, shapes);
  const DimsView out_shape(out.shape, size_t(out.ndim));
  if (!std::equal(out_shape.begin(), out_shape.end(), p.result_shape.begin(),
                  p.result_shape.end())) {
    Fail(ErrorKind::kInvalidArgument, kOp, ": out has shape ",
         ToString(out_shape), " but \"", spec, "\" gives ",
         ToString(p.result_shape));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    CheckData(operands[i], datas[i], kOp, "operand");
  }
  CheckData(out, out_data, kOp, "out");

  // Masked operands, and operands that share memory with out, are first
  // copied (masked-out positions read 0).
  const OffsetSpan out_span = ValidSpan(out);
  std::vector<Materialized> copies;
  std::vector<sk_view> views(operands.begin(), operands.end());
  std::vector<const void*> bases(datas.begin(), datas.end());
  for (size_t i = 0; i < views.size(); ++i) {
    const OffsetSpan span = ValidSpan(views[i]);
    const auto* lo = static_cast<const unsigned char*>(bases[i]);
    const auto* out_lo = static_cast<const unsigned char*>(out_data);
    const bool overlaps =
        !span.empty() && !out_span.empty() &&
        uintptr_t(lo) + uintptr_t(span.lo * int64_t(elem_size)) <
            uintptr_t(out_lo) + uintptr_t(out_span.hi * int64_t(elem_size)) &&
        uintptr_t(out_lo) + uintptr_t(out_span.lo * int64_t(elem_size)) <
            uintptr_t(lo) + uintptr_t(span.hi * int64_t(elem_size));
    if (views[i].has_mask || overlaps) {
      copies.push_back(Materialize(elem_size, views[i], bases[i]));
      views[i] = copies.back().view;
      bases[i] = copies.back().data.get();
    }
  }

  const int64_t count = CheckedNumel(p.result_shape, kOp, "result");
  const Buffer acc =
      AllocateBuffer(CheckedMul(count, int64_t(elem_size), kOp), kOp);
  std::fill_n(acc.get(), size_t(count) * elem_size, 0);
  if (CheckedNumel(p.product_space, kOp, "product space") > 0) {
    LoopNest nest{
        p.product_space,
        std::vector<Dims>(views.size() + 1, Dims(p.product_space.size(), 0)),
        std::vector<int64_t>(views.size() + 1, 0)};
    AddTensor(nest, 0, p.result_map, CContiguousStrides(p.result_shape));
    for (size_t i = 0; i < views.size(); ++i) {
      AddTensor(nest, int(i + 1), p.operand_maps[i],
                DimsView(views[i].strides, size_t(views[i].ndim)));
      nest.offsets[i + 1] =
          CheckedAdd(nest.offsets[i + 1], views[i].offset, kOp);
    }
    OrderLoops(nest);
    scalar_ops::VisitNumericType(t, [&](auto zero) {
      using T = decltype(zero);
      std::vector<const T*> typed;
      for (const void* b : bases) typed.push_back(static_cast<const T*>(b));
      Accumulate(nest, reinterpret_cast<T*>(acc.get()), typed);
    });
  }
  sk_view acc_view{};
  acc_view.ndim = out.ndim;
  const Dims acc_strides = CContiguousStrides(p.result_shape);
  for (int d = 0; d < out.ndim; ++d) {
    acc_view.shape[d] = out.shape[d];
    acc_view.strides[d] = acc_strides[d];
  }
  Copy(elem_size, acc_view, acc.get(), out, out_data);
}

}  // namespace stridekit
