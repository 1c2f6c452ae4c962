#include "stridekit/iteration_plan.h"

#include <algorithm>
#include <vector>

#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

const char* InnerKindName(InnerKind kind) {
  switch (kind) {
    case InnerKind::kContiguous:
      return "contiguous";
    case InnerKind::kReversed:
      return "reversed";
    case InnerKind::kBroadcast:
      return "broadcast";
    case InnerKind::kStrided:
      return "strided";
    case InnerKind::kTransposed:
      return "transposed";
  }
  return "unknown";
}

namespace {

// Throws unless every offset the operand reaches over `shape` fits in int64;
// afterwards any partial sum of (index * stride) terms fits as well.
void CheckReachableOffsets(DimsView shape, const Operand& op, int index) {
  int64_t lo = op.offset, hi = op.offset;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t extent;
    if (__builtin_mul_overflow(shape[d] - 1, op.strides[int(d)], &extent) ||
        __builtin_add_overflow(extent < 0 ? lo : hi, extent,
                               extent < 0 ? &lo : &hi)) {
      Fail(ErrorKind::kOverflow, "iteration_plan: offsets of operand ", index,
           " (strides ", ToString(op.strides), ", offset ", op.offset,
           ") over shape ", ToString(shape), " overflow int64");
    }
  }
}

// |stride| as an unsigned value (|INT64_MIN| does not fit an int64).
uint64_t Magnitude(int64_t stride) {
  return stride < 0 ? uint64_t{0} - static_cast<uint64_t>(stride)
                    : static_cast<uint64_t>(stride);
}

// True when every operand has the C-contiguous strides of `shape` (any
// stride on its size-1 axes).
bool AllCContiguous(DimsView shape, std::span<const Operand> operands) {
  for (const Operand& op : operands) {
    int64_t expected = 1;
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      if (shape[d] == 1) continue;
      if (op.strides[d] != expected) return false;
      expected *= shape[d];  // Fits: at most numel.
    }
  }
  return true;
}

InnerKind Classify(int64_t stride) {
  if (stride == 1) return InnerKind::kContiguous;
  if (stride == -1) return InnerKind::kReversed;
  if (stride == 0) return InnerKind::kBroadcast;
  return InnerKind::kStrided;
}

}  // namespace

IterationPlan IterationPlan::Make(DimsView shape,
                                  std::span<const Operand> operands,
                                  bool allow_tiles) {
  CheckShape(shape, "iteration_plan");
  if (operands.empty() || operands.size() > size_t(kMaxOperands)) {
    Fail(ErrorKind::kInvalidArgument, "iteration_plan: ", operands.size(),
         " operands, expected 1 to ", kMaxOperands);
  }
  const int nops = static_cast<int>(operands.size());
  for (int op = 0; op < nops; ++op) {
    if (operands[op].strides.size() != int(shape.size())) {
      Fail(ErrorKind::kInvalidArgument, "iteration_plan: operand ", op, " has ",
           operands[op].strides.size(), " strides for shape ", ToString(shape));
    }
    CheckReachableOffsets(shape, operands[op], op);
  }
  return MakeValidated(shape, Numel(shape), operands, allow_tiles);
}

IterationPlan IterationPlan::MakeValidated(DimsView shape, int64_t numel,
                                           std::span<const Operand> operands,
                                           bool allow_tiles) {
  const int nops = static_cast<int>(operands.size());
  IterationPlan plan;
  plan.num_operands_ = nops;
  plan.numel_ = numel;
  for (int op = 0; op < nops; ++op) plan.offsets_[op] = operands[op].offset;
  if (plan.numel_ == 0) return plan;
  // Every operand C-contiguous (the common call): steps 1-5 give one
  // contiguous axis of numel.
  if (plan.numel_ > 1 && AllCContiguous(shape, operands)) {
    plan.shape_.push_back(plan.numel_);
    for (int op = 0; op < nops; ++op) {
      plan.strides_[op].push_back(1);
      plan.kinds_[op] = InnerKind::kContiguous;
    }
    return plan;
  }

  // 1-2. Keep axes longer than 1, flipping those where every non-zero stride
  // is negative.
  Dims axes;
  for (int d = 0; d < int(shape.size()); ++d) {
    if (shape[d] == 1) continue;
    bool any_negative = false, any_positive = false;
    for (int op = 0; op < nops; ++op) {
      any_negative |= operands[op].strides[d] < 0;
      any_positive |= operands[op].strides[d] > 0;
    }
    axes.push_back(d);
    plan.shape_.push_back(shape[d]);
    const bool flip = any_negative && !any_positive;
    for (int op = 0; op < nops; ++op) {
      const int64_t s = operands[op].strides[d];
      // offset-checked: the extremes were checked above
      if (flip) plan.offsets_[op] += (shape[d] - 1) * s;
      plan.strides_[op].push_back(flip ? -s : s);
    }
  }

  // 3. Order by the output's |stride|, outermost first; stable keeps C order.
  const int n = plan.shape_.size();
  int order[kMaxRank];
  for (int i = 0; i < n; ++i) order[i] = i;
  // Stable insertion sort (std::stable_sort may allocate a buffer).
  for (int i = 1; i < n; ++i) {
    const int axis = order[i];
    const uint64_t key = Magnitude(plan.strides_[0][axis]);
    int j = i;
    for (; j > 0 && Magnitude(plan.strides_[0][order[j - 1]]) < key; --j) {
      order[j] = order[j - 1];
    }
    order[j] = axis;
  }
  if (!std::is_sorted(order, order + n)) {
    const Dims shape_in = plan.shape_;
    for (int i = 0; i < n; ++i) plan.shape_[i] = shape_in[order[i]];
    for (int op = 0; op < nops; ++op) {
      const Dims strides_in = plan.strides_[op];
      for (int i = 0; i < n; ++i) plan.strides_[op][i] = strides_in[order[i]];
    }
  }

  // 4. Coalesce neighbours contiguous in every operand, from the inside out.
  int kept = n;
  for (int i = n - 2; i >= 0; --i) {
    bool mergeable = true;
    for (int op = 0; op < nops && mergeable; ++op) {
      int64_t span;
      mergeable = !__builtin_mul_overflow(plan.strides_[op][i + 1],
                                          plan.shape_[i + 1], &span) &&
                  span == plan.strides_[op][i];
    }
    if (!mergeable) continue;
    plan.shape_[i] *= plan.shape_[i + 1];  // Fits: numel fits.
    for (int op = 0; op < nops; ++op) {
      plan.strides_[op][i] = plan.strides_[op][i + 1];
      plan.strides_[op].erase(i + 1);
    }
    plan.shape_.erase(i + 1);
    --kept;
  }

  // 5. Classify inner strides; pick a tile axis for a transposed input.
  for (int op = 0; op < nops; ++op) {
    plan.kinds_[op] = Classify(plan.inner_stride(op));
  }
  if (allow_tiles && kept >= 2 && plan.kinds_[0] == InnerKind::kContiguous) {
    for (int op = 1; op < nops && !plan.tiled_; ++op) {
      if (plan.kinds_[op] != InnerKind::kStrided) continue;
      for (int a = kept - 2; a >= 0; --a) {
        if (plan.strides_[op][a] != 1) continue;
        // Move axis a to position kept-2, keeping the others in order.
        auto rotate = [&](Dims& d) {
          std::rotate(d.begin() + a, d.begin() + a + 1, d.begin() + kept - 1);
        };
        rotate(plan.shape_);
        for (int o = 0; o < nops; ++o) rotate(plan.strides_[o]);
        plan.kinds_[op] = InnerKind::kTransposed;
        plan.tiled_ = true;
        plan.tile_row_axes_ = 1;
        break;
      }
    }
  }
  return plan;
}

void IterationPlan::FuseTiles(int64_t min_rows, int64_t min_cols) {
  const int n = ndim();
  if (!tiled_ || num_operands_ != 2 || tile_row_axes_ + tile_col_axes_ != 2) {
    return;
  }
  // Joined outer axes, innermost first: groups[0] rows, groups[1] columns.
  Dims groups[2];
  bool joined[kMaxRank] = {};
  int64_t extents[2] = {shape_[n - 2], shape_[n - 1]};
  const int64_t minimums[2] = {min_rows, min_cols};
  for (bool grew = true; grew;) {
    grew = false;
    for (int g = 0; g < 2; ++g) {
      if (extents[g] >= minimums[g]) continue;
      // Rows continue the input (operand 1), columns the output.
      const int op = g == 0 ? 1 : 0;
      for (int a = 0; a < n - 2; ++a) {
        if (joined[a] || strides_[op][a] != extents[g] ||
            shape_[a] > kMaxFusedTileExtent / extents[g]) {
          continue;
        }
        joined[a] = true;
        groups[g].push_back(a);
        extents[g] *= shape_[a];  // Fits: numel fits.
        grew = true;
        break;
      }
    }
  }
  if (groups[0].empty() && groups[1].empty()) return;
  // New order: the outer axes left, then each group outermost first.
  Dims order;
  for (int a = 0; a < n - 2; ++a) {
    if (!joined[a]) order.push_back(a);
  }
  for (int g = 0; g < 2; ++g) {
    for (int i = groups[g].size() - 1; i >= 0; --i) {
      order.push_back(groups[g][i]);
    }
    order.push_back(n - 2 + g);
  }
  const Dims shape = shape_;
  const Dims strides[2] = {strides_[0], strides_[1]};
  for (int i = 0; i < n; ++i) {
    shape_[i] = shape[order[i]];
    for (int op = 0; op < 2; ++op) strides_[op][i] = strides[op][order[i]];
  }
  tile_row_axes_ = 1 + groups[0].size();
  tile_col_axes_ = 1 + groups[1].size();
}

// Out of line: inlined, their rank-0 branches let GCC's -Warray-bounds see
// negative tile axes in callers that only run on plans of rank >= 2.
int64_t IterationPlan::inner_size() const {
  if (empty()) return 0;
  return shape_.empty() ? 1 : shape_.back();
}

int64_t IterationPlan::inner_stride(int op) const {
  return shape_.empty() ? 0 : strides_[op].back();
}

std::string IterationPlan::Describe() const {
  std::string s = StrCat("shape ", ToString(shape_), " numel ", numel_);
  if (tiled_) {
    s += tile_row_axes_ + tile_col_axes_ == 2
             ? " tiled"
             : StrCat(" tiled ", tile_row_axes_, "x", tile_col_axes_, " axes");
  }
  for (int op = 0; op < num_operands_; ++op) {
    s += StrCat(" | op", op, " strides ", ToString(strides_[op]), " offset ",
                offsets_[op], " ", InnerKindName(kinds_[op]));
  }
  return s;
}

ChunkIterator::ChunkIterator(const IterationPlan& plan, int64_t begin,
                             int64_t end)
    : plan_(plan),
      remaining_(std::max<int64_t>(0, end - begin)),
      outer_ndim_(plan.outer_ndim()),
      counter_(plan.outer_ndim(), 0) {
  if (begin < 0 || end > plan.outer_size() || begin > end) {
    Fail(ErrorKind::kOutOfRange, "chunk_iterator: range [", begin, ", ", end,
         ") is outside [0, ", plan.outer_size(), ")");
  }
  for (int op = 0; op < plan.num_operands(); ++op) {
    offsets_[op] = plan.offset(op);
  }
  // The one division: position `begin` as a counter over the outer axes.
  int64_t rest = begin;
  for (int d = outer_ndim_ - 1; d >= 0 && rest > 0; --d) {
    counter_[d] = rest % plan.shape()[d];
    rest /= plan.shape()[d];
    for (int op = 0; op < plan.num_operands(); ++op) {
      // offset-checked: the plan validated every partial sum (above)
      offsets_[op] += counter_[d] * plan.strides(op)[d];
    }
  }
}

bool ChunkIterator::Next(Chunk& chunk) {
  if (remaining_ == 0) return false;
  const int nops = plan_.num_operands();
  for (int op = 0; op < nops; ++op) chunk.offsets[op] = offsets_[op];
  if (--remaining_ == 0) return true;
  for (int d = outer_ndim_ - 1; d >= 0; --d) {
    if (++counter_[d] < plan_.shape()[d]) {
      // offset-checked: the plan validated every partial sum
      for (int op = 0; op < nops; ++op) offsets_[op] += plan_.strides(op)[d];
      return true;
    }
    counter_[d] = 0;
    for (int op = 0; op < nops; ++op) {
      // offset-checked: the plan validated every partial sum
      offsets_[op] -= (plan_.shape()[d] - 1) * plan_.strides(op)[d];
    }
  }
  return true;
}

Dims PartitionOuter(const IterationPlan& plan, int parts) {
  const int64_t total = plan.outer_size();
  const int64_t k =
      std::clamp<int64_t>(std::min<int64_t>(parts, total), 1, kMaxRank - 1);
  Dims bounds;
  for (int64_t i = 0; i <= k; ++i) {
    // i * total / k without overflow: total < 2^63 and k < 32.
    bounds.push_back(
        static_cast<int64_t>(static_cast<__int128>(total) * i / k));
  }
  return bounds;
}

}  // namespace stridekit
