#include "simd/dispatch_table.h"

#include "hwy/highway.h"

namespace stridekit::simd {

int64_t CompiledTargets() { return HWY_TARGETS; }

size_t TableSlot(int64_t target) {
  // Slot 0 is Highway's initialising trampoline; dynamic targets follow in
  // ChosenTarget bit order and the fallback (SCALAR/EMU128) comes last.
  const int64_t chosen_bit = HWY_CHOSEN_TARGET_SHIFT(target);
  return chosen_bit == 0 ? HWY_MAX_DYNAMIC_TARGETS + 1
                         : hwy::Num0BitsBelowLS1Bit_Nonzero64(
                               static_cast<uint64_t>(chosen_bit));
}

}  // namespace stridekit::simd
