#include "index_reference.h"

#include "strided_layout.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit::reference {

namespace {

uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

}  // namespace

uint64_t RavelUncheckedIndexBound(DimsView strides, int64_t offset) {
  constexpr unsigned __int128 kMax = INT64_MAX;
  unsigned __int128 stride_sum = 0;
  for (int64_t s : strides) stride_sum += Magnitude(s);
  const unsigned __int128 offset_magnitude = Magnitude(offset);
  if (offset_magnitude > kMax) return 0;
  if (stride_sum == 0) return INT64_MAX;
  return static_cast<uint64_t>((kMax - offset_magnitude) / stride_sum);
}

int64_t RavelRow(int64_t i, const int64_t* row, DimsView strides,
                 int64_t offset) {
  int64_t result = offset;
  for (size_t d = 0; d < strides.size(); ++d) {
    int64_t term;
    if (__builtin_mul_overflow(row[d], strides[d], &term) ||
        __builtin_add_overflow(result, term, &result)) {
      Fail(ErrorKind::kOverflow, "ravel_batch: row ", i, " index ", row[d],
           " * stride ", strides[d], " at axis ", d, " overflows int64");
    }
  }
  return result;
}

void RavelBatch(int64_t n, const int64_t* indices, DimsView strides,
                int64_t offset, int64_t* out) {
  const int64_t ndim = static_cast<int64_t>(strides.size());
  for (int64_t i = 0; i < n; ++i) {
    out[i] = RavelRow(i, indices + i * ndim, strides, offset);
  }
}

void UnravelRow(int64_t i, int64_t flat, DimsView shape, int64_t numel,
                int64_t* out_row) {
  if (flat < 0 || flat >= numel) {
    Fail(ErrorKind::kOutOfRange, "unravel_batch: flat[", i, "] = ", flat,
         " is out of bounds for shape ", ToString(shape), " (size ", numel,
         ")");
  }
  for (size_t d = shape.size(); d-- > 1;) {
    out_row[d] = flat % shape[d];
    flat /= shape[d];
  }
  if (!shape.empty()) out_row[0] = flat;
}

void UnravelBatch(int64_t n, const int64_t* flat, DimsView shape, int64_t numel,
                  int64_t* out) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  for (int64_t i = 0; i < n; ++i) {
    UnravelRow(i, flat[i], shape, numel, out + i * ndim);
  }
}

void ViewOffsets(const sk_view& view, int64_t begin, int64_t count,
                 int64_t* out) {
  int64_t index[SK_MAX_NDIM];
  for (int64_t p = 0; p < count; ++p) {
    int64_t rest = begin + p;
    for (int d = view.ndim - 1; d >= 0; --d) {
      index[d] = rest % view.shape[d];
      rest /= view.shape[d];
    }
    out[p] =
        IsUnmasked(view, index) ? ElementOffset(view, index) : kMaskedOffset;
  }
}

}  // namespace stridekit::reference
