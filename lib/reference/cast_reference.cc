// The reference cast: the plainest correct loop, one element at a time
// through each view's index mapping, with the semantics of cast_scalar.h.
#include "cast_reference.h"

#include <cstring>
#include <vector>

#include "cast_scalar.h"
#include "copy_checks.h"
#include "reference_kernels.h"
#include "reference_loops.h"
#include "strided_layout.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

void CheckCastArguments(DType src_t, const sk_view& src, const void* src_data,
                        DType dst_t, const sk_view& dst, const void* dst_data) {
  const char* op = "cast";
  cast::CheckCastDType(int32_t(src_t), op, "source");
  cast::CheckCastDType(int32_t(dst_t), op, "destination");
  const sk_view* views[2] = {&dst, &src};
  const void* datas[2] = {dst_data, src_data};
  const size_t sizes[2] = {DTypeSize(dst_t), DTypeSize(src_t)};
  if (DenseLayoutCount(views, datas, sizes) > 0) return;
  CheckLayout(src, DTypeSize(src_t), op);
  CheckLayout(dst, DTypeSize(dst_t), op);
  CheckSourceAndDestination(src, src_data, dst, dst_data, op);
}

namespace reference {

void Cast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
          const sk_view& dst, void* dst_data) {
  CheckCastArguments(src_t, src, src_data, dst_t, dst, dst_data);
  RunCast(src_t, src, src_data, dst_t, dst, dst_data);
}

void RunCast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
             const sk_view& dst, void* dst_data) {
  if (IsBitCopyCast(src_t, dst_t)) {
    return RunCopy(DTypeSize(dst_t), src, src_data, dst, dst_data, nullptr);
  }
  const int64_t count = Numel(DimsView(dst.shape, size_t(dst.ndim)));
  if (count == 0) return;
  const int64_t src_size = int64_t(DTypeSize(src_t));
  const int64_t dst_size = int64_t(DTypeSize(dst_t));
  const cast::CastRowFn convert = cast::RowFunction(src_t, dst_t);
  const int lead = dst.ndim - src.ndim;
  const auto* from = static_cast<const unsigned char*>(src_data);
  // Convert every value first: the result is as if src went through a
  // temporary, whatever the overlap.
  std::vector<unsigned char> values(
      size_t(CheckedMul(count, dst_size, "cast")));
  const unsigned char zeros[16] = {};
  Dims index(dst.ndim, 0);
  for (int64_t k = 0; k < count; ++k, NextIndex(dst, index)) {
    int64_t offset = src.offset;
    bool valid = true;
    for (int j = 0; j < src.ndim; ++j) {
      const int64_t i = src.shape[j] == 1 ? 0 : index[j + lead];
      valid = valid && AxisValid(src, j, i);
      // offset-checked: CheckCastArguments validated src (CheckLayout)
      offset += i * src.strides[j];
    }
    // A masked-out source position reads zero.
    // offset-checked: byte offsets validated (CheckByteOffsets)
    const unsigned char* value = valid ? from + offset * src_size : zeros;
    convert(value, 0, values.data() + k * dst_size, 0, 1);
  }
  WriteStaged(dst, dst_data, values.data(), size_t(dst_size));
}

}  // namespace reference
}  // namespace stridekit
