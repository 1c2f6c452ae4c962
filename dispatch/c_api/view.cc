// C ABI: the "Views" section of docs/c_abi.md, over stridekit::View.
// dlpack.h first, so that stridekit.h declares the DLPack entry points with
// its DLTensor typedef.
#include <dlpack/dlpack.h>
// clang-format off

#include "c_api_internal.h"
// clang-format on
#include "stridekit/dtype.h"
#include "stridekit/view.h"

using stridekit::Dims;
using stridekit::DType;
using stridekit::DTypeSize;
using stridekit::ErrorKind;
using stridekit::Fail;
using stridekit::IsValidDType;
using stridekit::View;
using stridekit::capi::ArrayArg;
using stridekit::capi::Guard;
using stridekit::capi::RawEnumValue;
using stridekit::capi::RequireNonNull;

namespace {

// The validated input view of `op`.
View InputView(const sk_view* v, const char* op, const char* what = "v") {
  RequireNonNull(v, op, what);
  return View::FromC(*v, op);
}

// Runs `transform(view)` on the validated input and stores the result.
template <typename Transform>
sk_status Transformed(const sk_view* v, sk_view* out, const char* op,
                      Transform&& transform) {
  return Guard(op, [&] {
    const View in = InputView(v, op);
    RequireNonNull(out, op, "out");
    transform(in).ToC(out);
  });
}

// Per-axis int64 arguments of a view of rank `ndim`.
stridekit::DimsView AxisValues(const int64_t* p, int ndim, const char* op,
                               const char* what) {
  return ArrayArg(ndim, p, op, what);
}

// An int32 axis list widened to Dims.
Dims AxisList(int32_t n, const int32_t* axes, const char* op,
              const char* what) {
  if (n < 0 || n > SK_MAX_NDIM) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", what, " count ", n,
         " is outside [0, ", SK_MAX_NDIM, "]");
  }
  if (n > 0) RequireNonNull(axes, op, what);
  Dims out;
  for (int32_t i = 0; i < n; ++i) out.push_back(axes[i]);
  return out;
}

// sk_dtype of a DLPack data type; throws kUnsupported for others.
sk_dtype DTypeOf(DLDataType t, const char* op) {
  constexpr uint8_t kDLBoolCode = 6;  // dlpack >= 0.8; absent from 0.6.
  if (t.lanes == 1) {
    switch (t.code) {
      case kDLInt:
        if (t.bits == 8) return SK_INT8;
        if (t.bits == 16) return SK_INT16;
        if (t.bits == 32) return SK_INT32;
        if (t.bits == 64) return SK_INT64;
        break;
      case kDLUInt:
        if (t.bits == 8) return SK_UINT8;
        if (t.bits == 16) return SK_UINT16;
        if (t.bits == 32) return SK_UINT32;
        if (t.bits == 64) return SK_UINT64;
        break;
      case kDLFloat:
        if (t.bits == 16) return SK_FLOAT16;
        if (t.bits == 32) return SK_FLOAT32;
        if (t.bits == 64) return SK_FLOAT64;
        break;
      case kDLBfloat:
        if (t.bits == 16) return SK_BFLOAT16;
        break;
      case kDLComplex:
        if (t.bits == 64) return SK_COMPLEX64;
        if (t.bits == 128) return SK_COMPLEX128;
        break;
      case kDLBoolCode:
        if (t.bits == 8) return SK_BOOL;
        break;
      default:
        break;
    }
  }
  Fail(ErrorKind::kUnsupported, op, ": DLPack dtype (code ", int(t.code),
       ", bits ", int(t.bits), ", lanes ", t.lanes, ") has no sk_dtype");
}

// DLPack data type of an sk_dtype; throws kUnsupported for unknown values.
// The dtype is read as a plain int (a C caller may pass any value).
DLDataType DLTypeOf(const sk_dtype& dtype, const char* op) {
  constexpr uint8_t kDLBoolCode = 6;  // dlpack >= 0.8; absent from 0.6.
  const int32_t raw = RawEnumValue(dtype);
  if (!IsValidDType(raw)) {
    Fail(ErrorKind::kUnsupported, op, ": unknown dtype ", raw);
  }
  const sk_dtype t = static_cast<sk_dtype>(raw);
  DLDataType type;
  type.bits = uint8_t(DTypeSize(static_cast<DType>(raw)) * 8);
  type.lanes = 1;
  switch (t) {
    case SK_BOOL:
      type.code = kDLBoolCode;
      break;
    case SK_INT8:
    case SK_INT16:
    case SK_INT32:
    case SK_INT64:
      type.code = kDLInt;
      break;
    case SK_UINT8:
    case SK_UINT16:
    case SK_UINT32:
    case SK_UINT64:
      type.code = kDLUInt;
      break;
    case SK_BFLOAT16:
      type.code = kDLBfloat;
      break;
    case SK_COMPLEX64:
    case SK_COMPLEX128:
      type.code = kDLComplex;
      break;
    default:
      type.code = kDLFloat;
      break;
  }
  return type;
}

// Whole bytes divided into elements; throws unless divisible.
int64_t BytesToElements(int64_t bytes, int64_t item, const char* op,
                        const char* what) {
  if (bytes % item != 0) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", what, " ", bytes,
         " bytes is not a multiple of the item size ", item);
  }
  return bytes / item;
}

sk_status FromDLPack(const DLTensor* t, sk_view* out, sk_dtype* dtype,
                     void** data, bool byte_strides, const char* op) {
  return Guard(op, [&] {
    RequireNonNull(t, op, "t");
    RequireNonNull(out, op, "out");
    RequireNonNull(dtype, op, "dtype");
    RequireNonNull(data, op, "data");
    const DLDeviceType device = t->device.device_type;
    if (device != kDLCPU && device != kDLCUDAHost && device != kDLROCMHost &&
        device != kDLCUDAManaged) {
      Fail(ErrorKind::kUnsupported, op, ": device type ", int(device),
           " is not memory the host can read");
    }
    const sk_dtype type = DTypeOf(t->dtype, op);
    const int64_t item = int64_t(sk_dtype_size(type));
    const stridekit::DimsView shape = ArrayArg(t->ndim, t->shape, op, "shape");
    if (t->byte_offset > uint64_t(INT64_MAX)) {
      Fail(ErrorKind::kOverflow, op, ": byte_offset ", t->byte_offset,
           " does not fit in int64");
    }
    const int64_t offset =
        BytesToElements(int64_t(t->byte_offset), item, op, "byte_offset");
    View view;
    if (t->strides == nullptr) {
      view = View::Make(shape, offset);
    } else {
      Dims strides;
      for (int d = 0; d < t->ndim; ++d) {
        strides.push_back(
            byte_strides ? BytesToElements(t->strides[d], item, op, "stride")
                         : t->strides[d]);
      }
      view = View::Make(shape, strides, offset);
    }
    if (view.numel() > 0)
      RequireNonNull(t->data, op, "data of a non-empty tensor");
    view.ToC(out);
    *dtype = type;
    *data = t->data;
  });
}

}  // namespace

extern "C" {

sk_status sk_view_make(int32_t ndim, const int64_t* shape,
                       const int64_t* strides, int64_t offset, sk_view* out) {
  return Guard(__func__, [&] {
    const char* op = "sk_view_make";
    const stridekit::DimsView dims = ArrayArg(ndim, shape, op, "shape");
    RequireNonNull(out, op, "out");
    const View view = strides == nullptr
                          ? View::Make(dims, offset)
                          : View::Make(dims, {strides, size_t(ndim)}, offset);
    view.ToC(out);
  });
}

sk_status sk_view_reshape(const sk_view* v, int32_t ndim, const int64_t* shape,
                          sk_view* out) {
  const char* op = "sk_view_reshape";
  return Transformed(v, out, op, [&](const View& in) {
    return in.Reshape(ArrayArg(ndim, shape, op, "shape"));
  });
}

sk_status sk_view_expand(const sk_view* v, int32_t ndim, const int64_t* shape,
                         sk_view* out) {
  const char* op = "sk_view_expand";
  return Transformed(v, out, op, [&](const View& in) {
    return in.Expand(ArrayArg(ndim, shape, op, "shape"));
  });
}

sk_status sk_view_permute(const sk_view* v, const int32_t* axes, sk_view* out) {
  const char* op = "sk_view_permute";
  return Transformed(v, out, op, [&](const View& in) {
    return in.Permute(AxisList(in.ndim(), axes, op, "axes"));
  });
}

sk_status sk_view_shrink(const sk_view* v, const int64_t* begin,
                         const int64_t* end, sk_view* out) {
  const char* op = "sk_view_shrink";
  return Transformed(v, out, op, [&](const View& in) {
    return in.Shrink(AxisValues(begin, in.ndim(), op, "begin"),
                     AxisValues(end, in.ndim(), op, "end"));
  });
}

sk_status sk_view_pad(const sk_view* v, const int64_t* before,
                      const int64_t* after, sk_view* out) {
  const char* op = "sk_view_pad";
  return Transformed(v, out, op, [&](const View& in) {
    return in.Pad(AxisValues(before, in.ndim(), op, "before"),
                  AxisValues(after, in.ndim(), op, "after"));
  });
}

sk_status sk_view_flip(const sk_view* v, int32_t axis, sk_view* out) {
  return Transformed(v, out, "sk_view_flip",
                     [&](const View& in) { return in.Flip(axis); });
}

sk_status sk_view_slice(const sk_view* v, const char* spec, sk_view* out) {
  const char* op = "sk_view_slice";
  return Transformed(v, out, op, [&](const View& in) {
    RequireNonNull(spec, op, "spec");
    return in.Slice(std::string_view(spec));
  });
}

uint32_t sk_view_flags(const sk_view* v) {
  uint32_t flags = 0;
  Guard(__func__, [&] { flags = InputView(v, "sk_view_flags").Flags(); });
  return flags;
}

sk_status sk_view_span(const sk_view* v, int64_t* lo, int64_t* hi) {
  return Guard(__func__, [&] {
    const char* op = "sk_view_span";
    const View view = InputView(v, op);
    RequireNonNull(lo, op, "lo");
    RequireNonNull(hi, op, "hi");
    const View::Span span = view.ValidSpan();
    *lo = span.lo;
    *hi = span.hi;
  });
}

sk_status sk_view_from_dlpack(const sk_dltensor* t, sk_view* out,
                              sk_dtype* dtype, void** data) {
  return FromDLPack(t, out, dtype, data, /*byte_strides=*/false,
                    "sk_view_from_dlpack");
}

sk_status sk_view_from_dlpack_byte_strides(const sk_dltensor* t, sk_view* out,
                                           sk_dtype* dtype, void** data) {
  return FromDLPack(t, out, dtype, data, /*byte_strides=*/true,
                    "sk_view_from_dlpack_byte_strides");
}

sk_status sk_view_from_dlpack_elements(const sk_dltensor* t, sk_view* out,
                                       sk_dtype* dtype, void** data) {
  return FromDLPack(t, out, dtype, data, /*byte_strides=*/false,
                    "sk_view_from_dlpack_elements");
}

sk_status sk_view_to_dlpack(const sk_view* v, sk_dtype t, void* data,
                            int64_t* shape_storage, int64_t* strides_storage,
                            sk_dltensor* out) {
  return Guard(__func__, [&] {
    const char* op = "sk_view_to_dlpack";
    const View view = InputView(v, op);
    RequireNonNull(out, op, "out");
    const DLDataType type = DLTypeOf(t, op);
    if (view.has_mask()) {
      Fail(ErrorKind::kUnsupported, op,
           ": a masked view (after pad) has no DLPack form; materialise it");
    }
    const int ndim = view.ndim();
    if (ndim > 0) {
      RequireNonNull(shape_storage, op, "shape_storage");
      RequireNonNull(strides_storage, op, "strides_storage");
    }
    if (view.numel() > 0) RequireNonNull(data, op, "data of a non-empty view");
    const int64_t item = int64_t(sk_dtype_size(t));
    int64_t byte_offset = 0;
    if (__builtin_mul_overflow(view.offset(), item, &byte_offset)) {
      Fail(ErrorKind::kOverflow, op, ": offset ", view.offset(),
           " times item size ", item, " does not fit in int64");
    }
    char* base = static_cast<char*>(data);
    DLTensor result{};
    if (byte_offset < 0) {
      // DLPack's byte_offset is unsigned: the data pointer moves instead.
      result.data = base == nullptr ? nullptr : base + byte_offset;
      result.byte_offset = 0;
    } else {
      result.data = data;
      result.byte_offset = uint64_t(byte_offset);
    }
    result.device.device_type = kDLCPU;
    result.device.device_id = 0;
    result.ndim = ndim;
    result.dtype = type;
    for (int d = 0; d < ndim; ++d) {
      shape_storage[d] = view.shape()[d];
      strides_storage[d] = view.strides()[d];
    }
    result.shape = ndim > 0 ? shape_storage : nullptr;
    result.strides = ndim > 0 ? strides_storage : nullptr;
    *out = result;
  });
}

sk_status sk_view_squeeze(const sk_view* v, int32_t naxes, const int32_t* axes,
                          sk_view* out) {
  const char* op = "sk_view_squeeze";
  return Transformed(v, out, op, [&](const View& in) {
    return naxes < 0 ? in.Squeeze()
                     : in.Squeeze(AxisList(naxes, axes, op, "axes"));
  });
}

sk_status sk_view_unsqueeze(const sk_view* v, int32_t naxes,
                            const int32_t* axes, sk_view* out) {
  const char* op = "sk_view_unsqueeze";
  return Transformed(v, out, op, [&](const View& in) {
    return in.Unsqueeze(AxisList(naxes, axes, op, "axes"));
  });
}

sk_status sk_view_swapaxes(const sk_view* v, int32_t axis1, int32_t axis2,
                           sk_view* out) {
  return Transformed(v, out, "sk_view_swapaxes",
                     [&](const View& in) { return in.SwapAxes(axis1, axis2); });
}

sk_status sk_view_moveaxis(const sk_view* v, int32_t n, const int32_t* source,
                           const int32_t* destination, sk_view* out) {
  const char* op = "sk_view_moveaxis";
  return Transformed(v, out, op, [&](const View& in) {
    return in.MoveAxis(AxisList(n, source, op, "source"),
                       AxisList(n, destination, op, "destination"));
  });
}

sk_status sk_view_compose(const sk_view* base, const sk_view* over,
                          sk_view* out) {
  return Guard(__func__, [&] {
    const char* op = "sk_view_compose";
    const View b = InputView(base, op, "base");
    const View o = InputView(over, op, "over");
    RequireNonNull(out, op, "out");
    stridekit::Compose(b, o).ToC(out);
  });
}

sk_status sk_view_element_offset(const sk_view* v, int64_t k, int64_t* out) {
  return Guard(__func__, [&] {
    const char* op = "sk_view_element_offset";
    const View view = InputView(v, op);
    RequireNonNull(out, op, "out");
    *out = view.OffsetOf(k);
  });
}

}  // extern "C"
