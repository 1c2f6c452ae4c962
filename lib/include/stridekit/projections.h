// Projections of one einsum-like operation (OCANNL derive_projections): the
// product space of loops, and for the result and each operand the index map
// from the product-space iterators to its axes. Execution builds each
// operand's view over the product space from these maps: an axis mapped to
// loop l adds its stride to loop l's stride (summed strides for diagonals), a
// fixed axis adds index * stride to the offset, and loops an operand does not
// mention get stride 0.
#ifndef STRIDEKIT_PROJECTIONS_H_
#define STRIDEKIT_PROJECTIONS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "stridekit/dims.h"

namespace stridekit {

// How one tensor axis is indexed at a point of the product space. Trivial
// (it lives in InlineVector); value-initialised (AxisIndex{}) it is Fixed(0).
struct AxisIndex {
  enum class Kind {
    kFixed,       // value = the constant index
    kIterator,    // value = loop number in the product space
    kSliceIndex,  // Batch_slice's runtime index, supplied at execution
  };
  Kind kind;
  int64_t value;

  static AxisIndex Iterator(int64_t loop) { return {Kind::kIterator, loop}; }
  static AxisIndex Fixed(int64_t index) { return {Kind::kFixed, index}; }
  static AxisIndex SliceIndex() { return {Kind::kSliceIndex, 0}; }
  friend bool operator==(const AxisIndex&, const AxisIndex&) = default;
};

// One entry per axis of a tensor: at most kMaxRank, kept inline (no heap).
using AxisMap = InlineVector<AxisIndex, kMaxRank>;
// One flag per loop of the product space.
using LoopFlags = InlineVector<bool, kMaxRank>;

// Loops are ordered result axes first (in the result's axis order), then the
// axes that occur only in operands, in order of first appearance; so the
// reduction loops are a suffix. Size-1 classes never get a loop (they are
// Fixed 0), zero-size classes do.
struct Projections {
  Dims product_space;      // loop extents
  LoopFlags is_reduction;  // per loop: absent from result_map
  Dims result_shape;
  AxisMap result_map;  // one entry per result axis
  std::vector<Dims> operand_shapes;
  std::vector<AxisMap> operand_maps;  // one entry per operand axis
  // True unless the result map is a bijection from the product space onto the
  // result's elements (no reduction, no diagonal, no fixed index on an axis
  // longer than 1): the result must then be pre-filled with the accumulator's
  // neutral element before accumulating.
  bool initialize_neutral = false;

  int num_reduction_loops() const;
};

// Solves projection equations over the axes of one operation on ground
// shapes (union-find over axes, with pins) and assembles Projections.
class ProjectionBuilder {
 public:
  // An axis of the result (tensor == kResult) or of operand `tensor`.
  struct AxisRef {
    int tensor;
    int axis;
  };
  static constexpr int kResult = -1;

  ProjectionBuilder(DimsView result_shape,
                    std::span<const DimsView> operand_shapes);

  // The two axes are iterated together; their sizes must be equal.
  void Equate(AxisRef a, AxisRef b);
  // The axis is read or written only at `index` (< its size).
  void Pin(AxisRef a, AxisIndex index);

  Projections Build() const;

 private:
  int Slot(AxisRef a) const;
  int Find(int slot) const;

  Dims result_shape_;
  std::vector<Dims> operand_shapes_;
  std::vector<int> first_slot_;  // per operand: its first axis's slot
  std::vector<int64_t> size_;    // per slot
  mutable std::vector<int> parent_;
  std::vector<std::optional<AxisIndex>> pin_;  // per slot
};

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_PROJECTIONS_H_
