// The reference einsum: for each valid position of out, the reduced loops
// of the product space in C order, one product at a time; float products
// and sums in long double, rounded once (the accuracy oracle of the tests),
// integers wrapping in the dtype.
#include <type_traits>
#include <vector>

#include "numeric_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "scalar_ops.h"

namespace stridekit::reference {
namespace {

// Binds the loops that out_index fixes; false when the result map cannot
// reach out_index (a fixed result index elsewhere, or a diagonal with
// unequal indices), whose element is then the neutral 0.
bool BindResult(const Projections& p, const Dims& out_index, Dims& loops) {
  std::vector<bool> bound(loops.size(), false);
  for (int a = 0; a < p.result_map.size(); ++a) {
    const AxisIndex& index = p.result_map[a];
    if (index.kind == AxisIndex::Kind::kFixed) {
      if (out_index[a] != index.value) return false;
      continue;
    }
    const size_t l = size_t(index.value);
    if (bound[l] && loops[l] != out_index[a]) return false;
    loops[l] = out_index[a];
    bound[l] = true;
  }
  return true;
}

// Operand axis indices at the product-space position `loops`.
Dims OperandIndex(const AxisMap& map, const Dims& loops) {
  Dims index(map.size(), 0);
  for (int a = 0; a < map.size(); ++a) {
    index[a] = map[a].kind == AxisIndex::Kind::kFixed
                   ? map[a].value
                   : loops[size_t(map[a].value)];
  }
  return index;
}

template <typename T>
T ContractOne(const Projections& p, std::span<const sk_view> operands,
              std::span<const void* const> datas, const Dims& out_index) {
  using Acc = std::conditional_t<scalar_ops::kIsInt<T>, T, long double>;
  const size_t loop_count = p.product_space.size();
  Dims loops(loop_count, 0);
  if (!BindResult(p, out_index, loops)) return T(0);
  std::vector<size_t> reduced;
  for (size_t l = 0; l < loop_count; ++l) {
    if (p.is_reduction[l]) {
      if (p.product_space[l] == 0) return T(0);
      reduced.push_back(l);
    }
  }
  Acc sum = 0;
  for (;;) {
    Acc product = 1;
    for (size_t i = 0; i < operands.size(); ++i) {
      const T x = ReadAt<T>(operands[i], datas[i],
                            OperandIndex(p.operand_maps[i], loops));
      product = scalar_ops::Mul<Acc>(product, Acc(x));
    }
    sum = scalar_ops::Add<Acc>(sum, product);
    // Next reduced position, the last loop fastest.
    size_t r = reduced.size();
    for (; r > 0; --r) {
      const size_t l = reduced[r - 1];
      if (++loops[l] < p.product_space[l]) break;
      loops[l] = 0;
    }
    if (r == 0) break;
  }
  return static_cast<T>(sum);
}

}  // namespace

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data) {
  RunEinsum(CheckEinsumArguments(spec, t, operands, datas, out, out_data), t,
            operands, datas, out, out_data);
}

void RunEinsum(const Projections& p, DType t, std::span<const sk_view> operands,
               std::span<const void* const> datas, const sk_view& out,
               void* out_data) {
  VisitType(EinsumTypes{}, t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<T>(out, out_data, [&](const Dims& out_index) {
      return ContractOne<T>(p, operands, datas, out_index);
    });
  });
}

}  // namespace stridekit::reference
