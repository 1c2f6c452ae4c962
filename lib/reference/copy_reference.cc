// The reference copy and fill: the plainest correct loops, one element at a
// time through each view's index mapping. They are the oracle of the
// equivalence tests and what the "reference" target runs.
#include <cstring>
#include <vector>

#include "copy_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "strided_layout.h"
#include "stridekit/shape.h"

namespace stridekit::reference {
void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill) {
  CheckCopyArguments(elem_size, src, src_data, dst, dst_data, "copy");
  RunCopy(elem_size, src, src_data, dst, dst_data, fill);
}

void RunCopy(size_t elem_size, const sk_view& src, const void* src_data,
             const sk_view& dst, void* dst_data, const void* fill) {
  const int64_t count = Numel(DimsView(dst.shape, size_t(dst.ndim)));
  if (count == 0) return;
  const int lead = dst.ndim - src.ndim;
  const auto* from = static_cast<const unsigned char*>(src_data);
  // Read every value first: the result is as if src went through a
  // temporary, whatever the overlap.
  std::vector<unsigned char> values(size_t(count) * elem_size);
  Dims index(dst.ndim, 0);
  for (int64_t k = 0; k < count; ++k, NextIndex(dst, index)) {
    int64_t offset = src.offset;
    bool valid = true;
    for (int j = 0; j < src.ndim; ++j) {
      const int64_t i = src.shape[j] == 1 ? 0 : index[j + lead];
      valid = valid && AxisValid(src, j, i);
      // offset-checked: CheckCopyArguments validated src (CheckLayout)
      offset += i * src.strides[j];
    }
    unsigned char* value = values.data() + size_t(k) * elem_size;
    if (valid) {
      // offset-checked: byte offsets validated (CheckByteOffsets)
      std::memcpy(value, from + offset * int64_t(elem_size), elem_size);
    } else if (fill != nullptr) {
      std::memcpy(value, fill, elem_size);
    } else {
      std::memset(value, 0, elem_size);
    }
  }
  WriteStaged(dst, dst_data, values.data(), elem_size);
}

void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value) {
  const sk_view scalar{};
  CheckFillArguments(elem_size, dst, dst_data, value);
  RunCopy(elem_size, scalar, value, dst, dst_data, nullptr);
}

}  // namespace stridekit::reference
