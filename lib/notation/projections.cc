#include "stridekit/projections.h"

#include <algorithm>
#include <numeric>

#include "stridekit/error.h"

namespace stridekit {

int Projections::num_reduction_loops() const {
  return static_cast<int>(
      std::count(is_reduction.begin(), is_reduction.end(), true));
}

ProjectionBuilder::ProjectionBuilder(DimsView result_shape,
                                     std::span<const DimsView> operand_shapes)
    : result_shape_(result_shape) {
  size_.assign(result_shape.begin(), result_shape.end());
  for (DimsView shape : operand_shapes) {
    operand_shapes_.emplace_back(shape);
    first_slot_.push_back(static_cast<int>(size_.size()));
    size_.insert(size_.end(), shape.begin(), shape.end());
  }
  parent_.resize(size_.size());
  std::iota(parent_.begin(), parent_.end(), 0);
  pin_.resize(size_.size());
}

int ProjectionBuilder::Slot(AxisRef a) const {
  return a.tensor == kResult ? a.axis : first_slot_[a.tensor] + a.axis;
}

int ProjectionBuilder::Find(int slot) const {
  while (parent_[slot] != slot) {
    parent_[slot] = parent_[parent_[slot]];
    slot = parent_[slot];
  }
  return slot;
}

void ProjectionBuilder::Equate(AxisRef a, AxisRef b) {
  const int sa = Find(Slot(a));
  const int sb = Find(Slot(b));
  if (size_[sa] != size_[sb]) {
    Fail(ErrorKind::kInvalidArgument,
         "Conflicting dimensions for the same projection: ", size_[sa], " vs ",
         size_[sb]);
  }
  // The smaller slot stays the root so that classes keep first-appearance
  // order.
  parent_[std::max(sa, sb)] = std::min(sa, sb);
}

void ProjectionBuilder::Pin(AxisRef a, AxisIndex index) {
  const int slot = Slot(a);
  if (index.kind == AxisIndex::Kind::kFixed &&
      (index.value < 0 || index.value >= size_[slot])) {
    Fail(ErrorKind::kOutOfRange, "fixed index ", index.value,
         " is out of range for an axis of size ", size_[slot]);
  }
  pin_[slot] = index;
}

Projections ProjectionBuilder::Build() const {
  const int num_slots = static_cast<int>(size_.size());
  // Each class's pin, checking that its members agree.
  std::vector<std::optional<AxisIndex>> class_pin(num_slots);
  for (int slot = 0; slot < num_slots; ++slot) {
    if (!pin_[slot]) continue;
    std::optional<AxisIndex>& pin = class_pin[Find(slot)];
    if (pin && *pin != *pin_[slot]) {
      Fail(ErrorKind::kInvalidArgument,
           "einsum: conflicting indices for the same axis/projection");
    }
    pin = pin_[slot];
  }
  Projections p;
  std::vector<std::optional<AxisIndex>> class_index(num_slots);
  std::vector<AxisIndex> slot_index(num_slots, AxisIndex::Fixed(0));
  for (int slot = 0; slot < num_slots; ++slot) {
    const int root = Find(slot);
    std::optional<AxisIndex>& index = class_index[root];
    if (!index) {
      if (class_pin[root]) {
        index = class_pin[root];
      } else if (size_[root] == 1) {
        index = AxisIndex::Fixed(0);
      } else {
        if (p.product_space.size() == size_t{kMaxRank}) {
          Fail(ErrorKind::kInvalidArgument, "einsum: more than ", kMaxRank,
               " distinct loops (labels of size other than 1) in the product "
               "space; at most ",
               kMaxRank, " are supported");
        }
        index = AxisIndex::Iterator(p.product_space.size());
        p.product_space.push_back(size_[root]);
      }
    }
    slot_index[slot] = *index;
  }
  const int rank = result_shape_.size();
  p.result_shape = result_shape_;
  p.result_map.assign(std::span(slot_index).first(size_t(rank)));
  p.is_reduction.assign(p.product_space.size(), true);
  bool bijective = true;
  for (int axis = 0; axis < rank; ++axis) {
    const AxisIndex& index = p.result_map[axis];
    if (index.kind != AxisIndex::Kind::kIterator) {
      bijective = bijective && result_shape_[axis] == 1;
      continue;
    }
    // A loop seen twice in the result writes a diagonal.
    bijective = bijective && p.is_reduction[index.value];
    p.is_reduction[index.value] = false;
  }
  bijective = bijective && p.num_reduction_loops() == 0;
  p.initialize_neutral = !bijective;
  p.operand_shapes = operand_shapes_;
  for (size_t i = 0; i < operand_shapes_.size(); ++i) {
    p.operand_maps.emplace_back(
        std::span(slot_index)
            .subspan(size_t(first_slot_[i]), operand_shapes_[i].size()));
  }
  return p;
}

}  // namespace stridekit
