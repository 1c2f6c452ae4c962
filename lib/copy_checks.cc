#include "copy_checks.h"

#include "stridekit/error.h"
#include "stridekit/shape.h"
#include "view_check.h"

namespace stridekit {
namespace {

void CheckElemSize(size_t elem_size, const char* op) {
  if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8 &&
      elem_size != 16) {
    Fail(ErrorKind::kUnsupported, op, ": element size ", elem_size,
         " is not 1, 2, 4, 8 or 16 bytes");
  }
}

}  // namespace

void CheckData(const sk_view& v, const void* data, const char* op,
               const char* what) {
  if (data == nullptr && !ValidSpan(v).empty()) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", what,
         " data is NULL for a non-empty view");
  }
}

void CheckWriteable(const sk_view& dst, const char* op) {
  if (ValidSpan(dst).empty()) return;
  for (int d = 0; d < dst.ndim; ++d) {
    if (dst.strides[d] == 0 && dst.shape[d] > 1) {
      Fail(ErrorKind::kInvalidArgument, op,
           ": destination is a broadcast view (stride 0 on axis ", d,
           " of size ", dst.shape[d], ") and is not writeable");
    }
  }
}

void CheckCopyArguments(size_t elem_size, const sk_view& src,
                        const void* src_data, const sk_view& dst,
                        const void* dst_data, const char* op) {
  CheckElemSize(elem_size, op);
  CheckView(src, op, int64_t(elem_size));
  CheckView(dst, op, int64_t(elem_size));
  const DimsView src_shape(src.shape, size_t(src.ndim));
  const DimsView dst_shape(dst.shape, size_t(dst.ndim));
  bool ok = src.ndim <= dst.ndim;
  for (int j = 0; ok && j < src.ndim; ++j) {
    const int64_t s = src.shape[j], t = dst.shape[j + dst.ndim - src.ndim];
    ok = s == t || s == 1;
  }
  if (!ok) {
    Fail(ErrorKind::kInvalidArgument, op, ": cannot broadcast source shape ",
         ToString(src_shape), " to destination shape ", ToString(dst_shape));
  }
  CheckWriteable(dst, op);
  CheckData(dst, dst_data, op, "destination");
  if (Numel(dst_shape) > 0) CheckData(src, src_data, op, "source");
}

void CheckFillArguments(size_t elem_size, const sk_view& dst,
                        const void* dst_data, const void* value) {
  CheckElemSize(elem_size, "fill");
  CheckView(dst, "fill", int64_t(elem_size));
  if (value == nullptr) {
    Fail(ErrorKind::kInvalidArgument, "fill: value is NULL");
  }
  CheckWriteable(dst, "fill");
  CheckData(dst, dst_data, "fill", "destination");
}

}  // namespace stridekit
