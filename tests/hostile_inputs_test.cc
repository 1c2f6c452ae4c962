// The hostile-input catalog: every C ABI function of stridekit.h called with
// NULL pointers, ranks 0, SK_MAX_NDIM and beyond, dims and strides at and
// past the int64 limits, overflowing products, negative sizes, unknown enum
// values, NaN fill values, misaligned data, aliasing and zero-size
// everything. Each case asserts its status and the message (a substring that
// names the operation and the value), or the correct result. A final check
// reads stridekit.h and fails for any sk_ function without a case.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "random_views.h"
#include "stridekit/stridekit.h"

namespace stridekit {
namespace {

using testing::MakeView;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct HostileCase {
  const char* function;
  const char* input;
  std::function<sk_status()> call;
  sk_status want;
  const char* message;  // substring of sk_last_error() when want != SK_OK
};

sk_view Valid() { return MakeView({2, 3}, {3, 1}, 0); }
sk_view WithNdim(int32_t ndim) {
  sk_view v = Valid();
  v.ndim = ndim;
  return v;
}

// A CPU float32 DLTensor of `ndim` dims over `data`; each catalog case
// changes the fields it tests.
DLTensor CpuFloat32(void* data, int32_t ndim, int64_t* shape,
                    int64_t* strides = nullptr) {
  DLTensor t{};
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype.code = kDLFloat, t.dtype.bits = 32, t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  return t;
}

// sk_view_from_dlpack of a 1-D CPU tensor of DLPack dtype (code, bits).
sk_status FromDLPackDType(uint8_t code, uint8_t bits) {
  static int64_t shape[] = {4};
  static float data[4] = {};
  DLTensor t = CpuFloat32(data, 1, shape);
  t.dtype.code = code, t.dtype.bits = bits;
  sk_view v;
  sk_dtype dtype;
  void* base;
  return sk_view_from_dlpack(&t, &v, &dtype, &base);
}

std::vector<HostileCase> Catalog() {
  static int64_t shape2[] = {2, 3}, huge2[] = {kMax, 2}, neg2[] = {2, -3};
  static int64_t zero1[] = {0}, idx[] = {1, 2}, strides2[] = {3, 1};
  static int64_t out[SK_MAX_NDIM + 1];
  static int64_t ndim33[SK_MAX_NDIM + 1] = {};
  static float data[64] = {}, dst[64] = {};
  static int32_t ndims2[] = {2, 1};
  static const int64_t* shapes2[] = {shape2, zero1};
  static int32_t out_ndim;
  static sk_view v = Valid(), o;
  static int64_t lo, hi;
  static int32_t axes01[] = {0, 1}, axes00[] = {0, 0};
  static void* data_out;
  static sk_dtype dtype_out;
  return {
      // ---- error / version / dtype
      {"sk_last_error", "after a success",
       [] {
         sk_numel(1, shape2, out);
         return std::string(sk_last_error()).empty() ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_version", "always",
       [] { return std::strlen(sk_version()) >= 5 ? SK_OK : SK_ERR_INVALID; },
       SK_OK, ""},
      {"sk_dtype_size", "unknown value 15",
       [] {
         return sk_dtype_size(sk_dtype(15)) == 0 && sk_dtype_size(SK_BOOL) == 1
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      // ---- shapes
      {"sk_numel", "NULL out", [] { return sk_numel(2, shape2, nullptr); },
       SK_ERR_INVALID, "sk_numel: out is NULL"},
      {"sk_numel", "ndim -1", [] { return sk_numel(-1, shape2, out); },
       SK_ERR_INVALID, "ndim -1 is outside [0, 32]"},
      {"sk_numel", "ndim 33", [] { return sk_numel(33, ndim33, out); },
       SK_ERR_INVALID, "ndim 33 is outside [0, 32]"},
      {"sk_numel", "INT64_MAX x 2", [] { return sk_numel(2, huge2, out); },
       SK_ERR_OVERFLOW, "overflows int64"},
      {"sk_numel", "negative dim", [] { return sk_numel(2, neg2, out); },
       SK_ERR_INVALID, "negative dimension -3"},
      {"sk_numel", "rank 0 is 1",
       [] {
         return sk_numel(0, nullptr, out) == SK_OK && out[0] == 1
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_c_strides", "NULL shape",
       [] { return sk_c_strides(2, nullptr, out); }, SK_ERR_INVALID, "is NULL"},
      {"sk_c_strides", "INT64_MAX x 2",
       [] { return sk_c_strides(2, huge2, out); }, SK_ERR_OVERFLOW, "overflow"},
      {"sk_ravel_index", "index x stride overflows",
       [] {
         static int64_t big[] = {kMax, 1};
         return sk_ravel_index(2, big, strides2, out);
       },
       SK_ERR_OVERFLOW, "overflows int64"},
      {"sk_ravel_index", "NULL strides",
       [] { return sk_ravel_index(2, idx, nullptr, out); }, SK_ERR_INVALID,
       "is NULL"},
      {"sk_unravel_index", "k = INT64_MIN",
       [] { return sk_unravel_index(kMin, 2, shape2, out); },
       SK_ERR_OUT_OF_RANGE, "out of bounds"},
      {"sk_unravel_index", "zero-size shape, k = 1",
       [] { return sk_unravel_index(1, 1, zero1, out); }, SK_ERR_OUT_OF_RANGE,
       "zero-size"},
      {"sk_resolve_reshape", "two -1",
       [] {
         static int64_t spec[] = {-1, -1};
         return sk_resolve_reshape(2, shape2, 2, spec, out);
       },
       SK_ERR_INVALID, "multiple -1"},
      {"sk_resolve_reshape", "spec ndim 33",
       [] { return sk_resolve_reshape(2, shape2, 33, ndim33, out); },
       SK_ERR_INVALID, "ndim 33"},
      {"sk_broadcast_shapes", "n = -1",
       [] { return sk_broadcast_shapes(-1, ndims2, shapes2, &out_ndim, out); },
       SK_ERR_INVALID, "-1"},
      {"sk_broadcast_shapes", "[2,3] with [0]",
       [] { return sk_broadcast_shapes(2, ndims2, shapes2, &out_ndim, out); },
       SK_ERR_INVALID, "cannot broadcast"},
      {"sk_broadcast_shapes", "NULL shapes",
       [] { return sk_broadcast_shapes(2, ndims2, nullptr, &out_ndim, out); },
       SK_ERR_INVALID, "is NULL"},
      // ---- batch index kernels
      {"sk_ravel_batch", "n = -1",
       [] { return sk_ravel_batch(-1, 2, idx, strides2, 0, out); },
       SK_ERR_INVALID, "-1"},
      {"sk_ravel_batch", "offset + index overflows",
       [] { return sk_ravel_batch(1, 2, idx, strides2, kMax, out); },
       SK_ERR_OVERFLOW, "overflow"},
      {"sk_unravel_batch", "flat index out of range",
       [] {
         static int64_t flat[] = {0, 6};
         return sk_unravel_batch(2, flat, 2, shape2, out);
       },
       SK_ERR_OUT_OF_RANGE, "6"},
      {"sk_view_offsets", "NULL view",
       [] { return sk_view_offsets(nullptr, 0, 1, out); }, SK_ERR_INVALID,
       "is NULL"},
      {"sk_view_offsets", "count past numel",
       [] { return sk_view_offsets(&v, 0, 7, out); }, SK_ERR_OUT_OF_RANGE,
       "outside"},
      {"sk_view_offsets", "ndim 33",
       [] {
         static sk_view bad = WithNdim(33);
         return sk_view_offsets(&bad, 0, 0, out);
       },
       SK_ERR_INVALID, "ndim 33"},
      {"sk_view_offsets", "stride INT64_MAX",
       [] {
         static sk_view bad = MakeView({3}, {kMax}, 0);
         return sk_view_offsets(&bad, 0, 1, out);
       },
       SK_ERR_OVERFLOW, "overflow int64"},
      // ---- views
      {"sk_view_make", "NULL out",
       [] { return sk_view_make(2, shape2, nullptr, 0, nullptr); },
       SK_ERR_INVALID, "out is NULL"},
      {"sk_view_make", "[INT64_MAX, 2]",
       [] { return sk_view_make(2, huge2, nullptr, 0, &o); }, SK_ERR_OVERFLOW,
       "strides of [9223372036854775807,2] overflow int64"},
      {"sk_view_make", "offset INT64_MAX, stride 1",
       [] { return sk_view_make(2, shape2, strides2, kMax, &o); },
       SK_ERR_OVERFLOW, "overflow int64"},
      {"sk_view_make", "zero-size, NULL strides",
       [] { return sk_view_make(1, zero1, nullptr, kMin, &o); }, SK_OK, ""},
      {"sk_view_reshape", "mask outside its axis",
       [] {
         static sk_view bad = Valid();
         bad.has_mask = 1;
         bad.mask_end[0] = 9;
         return sk_view_reshape(&bad, 2, shape2, &o);
       },
       SK_ERR_INVALID, "mask [0, 9) of axis 0"},
      {"sk_view_reshape", "has_mask 2",
       [] {
         static sk_view bad = Valid();
         bad.has_mask = 2;
         return sk_view_reshape(&bad, 2, shape2, &o);
       },
       SK_ERR_INVALID, "has_mask 2"},
      {"sk_view_expand", "rank 33",
       [] { return sk_view_expand(&v, 33, ndim33, &o); }, SK_ERR_INVALID,
       "ndim 33"},
      {"sk_view_permute", "repeated axis",
       [] { return sk_view_permute(&v, axes00, &o); }, SK_ERR_INVALID,
       "not a permutation"},
      {"sk_view_permute", "NULL out",
       [] { return sk_view_permute(&v, axes01, nullptr); }, SK_ERR_INVALID,
       "out is NULL"},
      {"sk_view_shrink", "end INT64_MAX",
       [] {
         static int64_t b[] = {0, 0}, e[] = {kMax, 3};
         return sk_view_shrink(&v, b, e, &o);
       },
       SK_ERR_OUT_OF_RANGE, "not within [0, 2]"},
      {"sk_view_pad", "pad by INT64_MAX",
       [] {
         static int64_t b[] = {kMax, 0}, a[] = {0, 0};
         return sk_view_pad(&v, b, a, &o);
       },
       SK_ERR_OVERFLOW, "overflows int64"},
      {"sk_view_flip", "axis INT32_MIN",
       [] { return sk_view_flip(&v, std::numeric_limits<int32_t>::min(), &o); },
       SK_ERR_OUT_OF_RANGE, "axis -2147483648"},
      {"sk_view_slice", "empty spec is the view",
       [] { return sk_view_slice(&v, "", &o); }, SK_OK, ""},
      {"sk_view_slice", "index INT64_MIN",
       [] { return sk_view_slice(&v, "-9223372036854775808", &o); },
       SK_ERR_OUT_OF_RANGE, "index -9223372036854775808"},
      {"sk_view_slice", "number past int64",
       [] { return sk_view_slice(&v, "99999999999999999999", &o); },
       SK_ERR_INVALID, "integer out of int64 range"},
      {"sk_view_slice", "65 newaxes",
       [] {
         std::string spec = "None";
         for (int i = 0; i < 64; ++i) spec += ",None";
         return sk_view_slice(&v, spec.c_str(), &o);
       },
       SK_ERR_INVALID, "more than 64 items"},
      {"sk_view_flags", "NULL gives 0 and an error",
       [] { return sk_view_flags(nullptr) == 0 ? SK_ERR_INVALID : SK_OK; },
       SK_ERR_INVALID, "v is NULL"},
      {"sk_view_span", "NULL lo", [] { return sk_view_span(&v, nullptr, &hi); },
       SK_ERR_INVALID, "lo is NULL"},
      {"sk_view_span", "zero-size is [0, 0)",
       [] {
         static sk_view empty = MakeView({0, 3}, {kMax, 1}, kMax);
         return sk_view_span(&empty, &lo, &hi) == SK_OK && lo == 0 && hi == 0
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_view_from_dlpack", "NULL tensor",
       [] { return sk_view_from_dlpack(nullptr, &o, &dtype_out, &data_out); },
       SK_ERR_INVALID, "t is NULL"},
      {"sk_view_from_dlpack_byte_strides", "NULL tensor",
       [] {
         return sk_view_from_dlpack_byte_strides(nullptr, &o, &dtype_out,
                                                 &data_out);
       },
       SK_ERR_INVALID, "t is NULL"},
      {"sk_view_from_dlpack_elements", "NULL tensor (deprecated alias)",
       [] {
         return sk_view_from_dlpack_elements(nullptr, &o, &dtype_out,
                                             &data_out);
       },
       SK_ERR_INVALID, "t is NULL"},
      {"sk_view_from_dlpack", "element strides, byte_offset not a multiple",
       [] {
         static int64_t shape[] = {2, 3}, strides[] = {1, 2};
         DLTensor t = CpuFloat32(data, 2, shape, strides);
         t.byte_offset = 6;
         return sk_view_from_dlpack(&t, &o, &dtype_out, &data_out);
       },
       SK_ERR_INVALID, "byte_offset 6 bytes"},
      {"sk_view_from_dlpack", "device memory the host cannot read",
       [] {
         static int64_t shape[] = {4};
         DLTensor t = CpuFloat32(data, 1, shape);
         t.device.device_type = kDLCUDA;
         return sk_view_from_dlpack(&t, &o, &dtype_out, &data_out);
       },
       SK_ERR_UNSUPPORTED, "device type 2 is not memory the host can read"},
      {"sk_view_from_dlpack", "byte_offset 2^63",
       [] {
         static int64_t shape[] = {4};
         DLTensor t = CpuFloat32(data, 1, shape);
         t.byte_offset = uint64_t{1} << 63;
         return sk_view_from_dlpack(&t, &o, &dtype_out, &data_out);
       },
       SK_ERR_OVERFLOW,
       "byte_offset 9223372036854775808 does not fit in int64"},
      {"sk_view_from_dlpack", "int of 24 bits",
       [] { return FromDLPackDType(kDLInt, 24); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 0, bits 24, lanes 1) has no sk_dtype"},
      {"sk_view_from_dlpack", "uint of 24 bits",
       [] { return FromDLPackDType(kDLUInt, 24); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 1, bits 24, lanes 1) has no sk_dtype"},
      {"sk_view_from_dlpack", "float of 8 bits",
       [] { return FromDLPackDType(kDLFloat, 8); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 2, bits 8, lanes 1) has no sk_dtype"},
      {"sk_view_from_dlpack", "bfloat of 32 bits",
       [] { return FromDLPackDType(kDLBfloat, 32); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 4, bits 32, lanes 1) has no sk_dtype"},
      {"sk_view_from_dlpack", "complex of 32 bits",
       [] { return FromDLPackDType(kDLComplex, 32); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 5, bits 32, lanes 1) has no sk_dtype"},
      {"sk_view_from_dlpack", "bool of 16 bits (code 6: kDLBool)",
       [] { return FromDLPackDType(6, 16); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 6, bits 16, lanes 1) has no sk_dtype"},
      {"sk_view_from_dlpack", "opaque handle",
       [] { return FromDLPackDType(kDLOpaqueHandle, 64); }, SK_ERR_UNSUPPORTED,
       "DLPack dtype (code 3, bits 64, lanes 1) has no sk_dtype"},
      {"sk_view_to_dlpack", "bfloat16 and bool round trips",
       [] {
         static int64_t sh[2], st[2];
         for (const sk_dtype type : {SK_BFLOAT16, SK_BOOL}) {
           // 6: kDLBool (dlpack >= 0.8; absent from the 0.6 header).
           const uint8_t code = type == SK_BFLOAT16 ? uint8_t{kDLBfloat} : 6;
           const uint8_t bits = type == SK_BFLOAT16 ? 16 : 8;
           DLTensor t{};
           sk_view back;
           if (sk_view_to_dlpack(&v, type, data, sh, st, &t) != SK_OK ||
               t.dtype.code != code || t.dtype.bits != bits ||
               sk_view_from_dlpack(&t, &back, &dtype_out, &data_out) != SK_OK ||
               dtype_out != type) {
             return SK_ERR_INVALID;
           }
         }
         return SK_OK;
       },
       SK_OK, ""},
      {"sk_view_from_dlpack", "element strides read as elements",
       [] {
         static int64_t shape[] = {2, 3}, strides[] = {1, 2};
         DLTensor t = CpuFloat32(data, 2, shape, strides);
         t.byte_offset = 8;
         return sk_view_from_dlpack(&t, &o, &dtype_out, &data_out) == SK_OK &&
                        o.strides[0] == 1 && o.strides[1] == 2 &&
                        o.offset == 2 && dtype_out == SK_FLOAT32
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_view_to_dlpack", "NULL out",
       [] {
         static int64_t sh[2], st[2];
         return sk_view_to_dlpack(&v, SK_FLOAT32, data, sh, st, nullptr);
       },
       SK_ERR_INVALID, "out is NULL"},
      {"sk_view_to_dlpack", "NULL shape storage",
       [] {
         static int64_t st[2];
         DLTensor t{};
         return sk_view_to_dlpack(&v, SK_FLOAT32, data, nullptr, st, &t);
       },
       SK_ERR_INVALID, "shape_storage is NULL"},
      {"sk_view_to_dlpack", "NULL data of a non-empty view",
       [] {
         static int64_t sh[2], st[2];
         DLTensor t{};
         return sk_view_to_dlpack(&v, SK_FLOAT32, nullptr, sh, st, &t);
       },
       SK_ERR_INVALID, "data of a non-empty view is NULL"},
      {"sk_view_to_dlpack", "unknown dtype 15",
       [] {
         static int64_t sh[2], st[2];
         DLTensor t{};
         return sk_view_to_dlpack(&v, sk_dtype(15), data, sh, st, &t);
       },
       SK_ERR_UNSUPPORTED, "unknown dtype 15"},
      {"sk_view_to_dlpack", "masked view",
       [] {
         static int64_t sh[2], st[2], before[] = {1, 0}, after[] = {0, 1};
         static sk_view padded;
         if (sk_view_pad(&v, before, after, &padded) != SK_OK) {
           return SK_ERR_INVALID;
         }
         DLTensor t{};
         return sk_view_to_dlpack(&padded, SK_FLOAT32, data, sh, st, &t);
       },
       SK_ERR_UNSUPPORTED, "masked view"},
      {"sk_view_to_dlpack", "33 dims",
       [] {
         static sk_view bad = WithNdim(SK_MAX_NDIM + 1);
         static int64_t sh[SK_MAX_NDIM + 1], st[SK_MAX_NDIM + 1];
         DLTensor t{};
         return sk_view_to_dlpack(&bad, SK_FLOAT32, data, sh, st, &t);
       },
       SK_ERR_INVALID, "33"},
      {"sk_view_to_dlpack", "offset times item size overflows",
       [] {
         static sk_view far = MakeView({1}, {1}, kMax / 2);
         static int64_t sh[1], st[1];
         DLTensor t{};
         return sk_view_to_dlpack(&far, SK_FLOAT64, data, sh, st, &t);
       },
       SK_ERR_OVERFLOW, "does not fit in int64"},
      {"sk_view_to_dlpack", "reversed view round trip",
       [] {
         static sk_view rev = MakeView({2, 3}, {-3, -1}, 5);
         static int64_t sh[2], st[2];
         DLTensor t{};
         if (sk_view_to_dlpack(&rev, SK_FLOAT32, data, sh, st, &t) != SK_OK ||
             t.byte_offset != 20 || t.strides[0] != -3 || t.shape[1] != 3 ||
             t.dtype.code != kDLFloat || t.dtype.bits != 32 ||
             t.device.device_type != kDLCPU) {
           return SK_ERR_INVALID;
         }
         sk_view back;
         return sk_view_from_dlpack(&t, &back, &dtype_out, &data_out) ==
                            SK_OK &&
                        back.offset == 5 && back.strides[1] == -1 &&
                        data_out == data && dtype_out == SK_FLOAT32
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_view_to_dlpack", "rank 0 with NULL storage",
       [] {
         static sk_view scalar = MakeView({}, {}, 0);
         DLTensor t{};
         return sk_view_to_dlpack(&scalar, SK_BOOL, data, nullptr, nullptr,
                                  &t) == SK_OK &&
                        t.ndim == 0 && t.dtype.code == 6 && t.dtype.bits == 8
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_view_squeeze", "axis of size 3",
       [] {
         static int32_t one[] = {1};
         return sk_view_squeeze(&v, 1, one, &o);
       },
       SK_ERR_INVALID, "size not equal to one"},
      {"sk_view_unsqueeze", "33 axes",
       [] {
         static int32_t many[SK_MAX_NDIM + 1] = {};
         return sk_view_unsqueeze(&v, 33, many, &o);
       },
       SK_ERR_INVALID, "33"},
      {"sk_view_swapaxes", "axis 2 of 2",
       [] { return sk_view_swapaxes(&v, 0, 2, &o); }, SK_ERR_OUT_OF_RANGE,
       "axis 2"},
      {"sk_view_moveaxis", "n = -1",
       [] { return sk_view_moveaxis(&v, -1, axes01, axes01, &o); },
       SK_ERR_INVALID, "-1"},
      {"sk_view_compose", "over reads past base",
       [] {
         static sk_view over = MakeView({7}, {1}, 0);
         return sk_view_compose(&v, &over, &o);
       },
       SK_ERR_OUT_OF_RANGE, "outside the 6 elements"},
      {"sk_view_element_offset", "k = -1",
       [] { return sk_view_element_offset(&v, -1, out); }, SK_ERR_OUT_OF_RANGE,
       "element -1"},
      // ---- data kernels
      {"sk_copy", "unknown dtype 15",
       [] { return sk_copy(sk_dtype(15), &v, data, &v, dst, nullptr); },
       SK_ERR_UNSUPPORTED, "15"},
      {"sk_copy", "NULL data",
       [] { return sk_copy(SK_FLOAT32, &v, nullptr, &v, dst, nullptr); },
       SK_ERR_INVALID, "NULL"},
      {"sk_copy", "zero-size with NULL data",
       [] {
         static sk_view empty = MakeView({0, 3}, {3, 1}, 0);
         return sk_copy(SK_FLOAT32, &empty, nullptr, &empty, nullptr, nullptr);
       },
       SK_OK, ""},
      {"sk_copy", "broadcast destination",
       [] {
         static sk_view b = MakeView({2, 3}, {0, 1}, 0);
         return sk_copy(SK_FLOAT32, &v, data, &b, dst, nullptr);
       },
       SK_ERR_INVALID, "broadcast view (stride 0 on axis 0 of size 2)"},
      {"sk_copy", "misaligned float data is copied exactly",
       [] {
         alignas(8) unsigned char src_bytes[64], dst_bytes[64] = {};
         for (int i = 0; i < 64; ++i)
           src_bytes[i] = static_cast<unsigned char>(i);
         const sk_view line = MakeView({6}, {1}, 0);
         const sk_status st = sk_copy(SK_FLOAT32, &line, src_bytes + 1, &line,
                                      dst_bytes + 3, nullptr);
         return st == SK_OK &&
                        std::memcmp(src_bytes + 1, dst_bytes + 3, 24) == 0
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_fill", "NaN value is written bit for bit",
       [] {
         const double nan = std::nan("0x5");
         double cells[4] = {};
         const sk_view line = MakeView({4}, {1}, 0);
         const sk_status st = sk_fill(SK_FLOAT64, &line, cells, &nan);
         return st == SK_OK && std::memcmp(&cells[3], &nan, 8) == 0
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_fill", "NULL value",
       [] { return sk_fill(SK_FLOAT32, &v, dst, nullptr); }, SK_ERR_INVALID,
       "NULL"},
      {"sk_cast", "unknown source dtype 15",
       [] { return sk_cast(sk_dtype(15), &v, data, SK_FLOAT32, &v, dst); },
       SK_ERR_UNSUPPORTED, "sk_cast: unknown source dtype 15 (valid: 0..14)"},
      {"sk_cast", "unknown destination dtype -1",
       [] { return sk_cast(SK_FLOAT32, &v, data, sk_dtype(-1), &v, dst); },
       SK_ERR_UNSUPPORTED,
       "sk_cast: unknown destination dtype -1 (valid: 0..14)"},
      {"sk_cast", "NULL src view",
       [] { return sk_cast(SK_FLOAT32, nullptr, data, SK_INT8, &v, dst); },
       SK_ERR_INVALID, "sk_cast: src is NULL"},
      {"sk_cast", "NULL source data",
       [] { return sk_cast(SK_FLOAT32, &v, nullptr, SK_INT8, &v, dst); },
       SK_ERR_INVALID, "cast: source data is NULL for a non-empty view"},
      {"sk_cast", "zero-size with NULL data",
       [] {
         static sk_view empty = MakeView({0, 3}, {3, 1}, 0);
         return sk_cast(SK_FLOAT64, &empty, nullptr, SK_BFLOAT16, &empty,
                        nullptr);
       },
       SK_OK, ""},
      // Strides of an empty view are never checked against an extent: the
      // direct paths' byte extents must not multiply them (cast_fuzz).
      {"sk_cast", "zero-size with INT64_MIN strides",
       [] {
         static sk_view empty = MakeView({0, 5}, {kMin, kMin}, 0);
         return sk_cast(SK_FLOAT32, &empty, data, SK_FLOAT64, &empty, dst);
       },
       SK_OK, ""},
      {"sk_binary", "zero-size with INT64_MIN and INT64_MAX strides",
       [] {
         static sk_view a = MakeView({5, 0}, {kMin, 1}, 0);
         static sk_view out = MakeView({5, 0}, {kMax, kMin}, 0);
         return sk_binary(SK_ADD, SK_FLOAT32, &a, data, &a, data, &out, dst);
       },
       SK_OK, ""},
      {"sk_compare", "zero-size with INT64_MIN strides",
       [] {
         static sk_view a = MakeView({0, 7}, {kMin, kMin}, 0);
         return sk_compare(SK_LT, SK_FLOAT32, &a, data, &a, data, &a, dst);
       },
       SK_OK, ""},
      {"sk_cast", "broadcast destination",
       [] {
         static sk_view b = MakeView({2, 3}, {0, 1}, 0);
         return sk_cast(SK_FLOAT32, &v, data, SK_FLOAT16, &b, dst);
       },
       SK_ERR_INVALID, "cast: destination is a broadcast view"},
      {"sk_cast", "byte offsets overflow for the wider destination only",
       [] {
         static sk_view narrow = MakeView({2}, {1}, 0);
         static sk_view wide = MakeView({2}, {int64_t{1} << 60}, 0);
         return sk_cast(SK_INT8, &narrow, data, SK_COMPLEX128, &wide, dst);
       },
       SK_ERR_OVERFLOW, "cast: byte offsets"},
      {"sk_cast", "rank 33",
       [] {
         static sk_view r = WithNdim(SK_MAX_NDIM + 1);
         return sk_cast(SK_FLOAT32, &r, data, SK_INT32, &r, dst);
       },
       SK_ERR_INVALID, "33"},
      {"sk_cast", "NaN, inf and out-of-range floats to int32 and uint8",
       [] {
         const float in[4] = {std::nanf(""), -INFINITY, 3e9f, -7.9f};
         int32_t out32[4];
         uint8_t out8[4];
         const sk_view line = MakeView({4}, {1}, 0);
         if (sk_cast(SK_FLOAT32, &line, in, SK_INT32, &line, out32) != SK_OK ||
             sk_cast(SK_FLOAT32, &line, in, SK_UINT8, &line, out8) != SK_OK) {
           return SK_ERR_INVALID;
         }
         const bool ok = out32[0] == 0 && out32[1] == INT32_MIN &&
                         out32[2] == INT32_MAX && out32[3] == -7 &&
                         out8[0] == 0 && out8[1] == 0 && out8[2] == 255 &&
                         out8[3] == 0;
         return ok ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_cast", "misaligned float32 to misaligned float64",
       [] {
         alignas(8) unsigned char src_bytes[40] = {}, dst_bytes[80] = {};
         const float in[8] = {1, -2, 0.5f, 3e38f, -0.0f, 7, 8, 9};
         std::memcpy(src_bytes + 1, in, sizeof(in));
         const sk_view line = MakeView({8}, {1}, 0);
         if (sk_cast(SK_FLOAT32, &line, src_bytes + 1, SK_FLOAT64, &line,
                     dst_bytes + 3) != SK_OK) {
           return SK_ERR_INVALID;
         }
         double out[8];
         std::memcpy(out, dst_bytes + 3, sizeof(out));
         for (int i = 0; i < 8; ++i) {
           const double want = in[i];
           if (std::memcmp(&out[i], &want, 8) != 0) {
             return SK_ERR_INVALID;
           }
         }
         return SK_OK;
       },
       SK_OK, ""},
      {"sk_cast", "aliasing: float32 widened in place to float64",
       [] {
         alignas(8) unsigned char bytes[32];
         const float in[4] = {1.5f, -2, 3.25f, 1e30f};
         std::memcpy(bytes, in, sizeof(in));
         const sk_view line = MakeView({4}, {1}, 0);
         if (sk_cast(SK_FLOAT32, &line, bytes, SK_FLOAT64, &line, bytes) !=
             SK_OK) {
           return SK_ERR_INVALID;
         }
         double out[4];
         std::memcpy(out, bytes, sizeof(out));
         return out[0] == 1.5 && out[1] == -2 && out[2] == 3.25 &&
                        out[3] == double(1e30f)
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_binary", "unknown op 26",
       [] {
         return sk_binary(sk_binary_op(26), SK_FLOAT32, &v, data, &v, data, &v,
                          dst);
       },
       SK_ERR_INVALID, "26"},
      {"sk_binary", "integer arctan2 (NumPy: float loops only)",
       [] {
         static int32_t i[6];
         return sk_binary(SK_ARCTAN2, SK_INT32, &v, i, &v, i, &v, i);
       },
       SK_ERR_UNSUPPORTED, "arctan2: integer dtype"},
      {"sk_binary", "float gcd",
       [] {
         return sk_binary(SK_GCD, SK_FLOAT32, &v, data, &v, data, &v, dst);
       },
       SK_ERR_UNSUPPORTED, "gcd: float dtype"},
      {"sk_binary", "bool copysign",
       [] {
         static uint8_t b[6];
         return sk_binary(SK_COPYSIGN, SK_BOOL, &v, b, &v, b, &v, b);
       },
       SK_ERR_UNSUPPORTED, "copysign: bool dtype"},
      {"sk_binary", "integer fmod by zero",
       [] {
         static int16_t a[6] = {7, 7, 7, 7, 7, 7}, b[6] = {1, 2, 0, 3, 4, 5};
         static int16_t o[6] = {9, 9, 9, 9, 9, 9};
         const sk_status st = sk_binary(SK_FMOD, SK_INT16, &v, a, &v, b, &v, o);
         return o[0] == 9 ? st : SK_ERR_NOMEM;  // Out written: not the status.
       },
       SK_ERR_INVALID, "fmod: integer modulo by zero (fmod(7, 0))"},
      {"sk_binary", "integer floor_divide of MIN by -1",
       [] {
         static int8_t a[6] = {-128, 1, 1, 1, 1, 1}, b[6] = {-1, 1, 1, 1, 1, 1};
         static int8_t o[6] = {9, 9, 9, 9, 9, 9};
         const sk_status st =
             sk_binary(SK_FLOOR_DIVIDE, SK_INT8, &v, a, &v, b, &v, o);
         return o[5] == 9 ? st : SK_ERR_NOMEM;
       },
       SK_ERR_OUT_OF_RANGE, "floor_divide: integer overflow in -128 // -1"},
      {"sk_binary", "complex fmax (stridekit: no complex order)",
       [] {
         static float c[12];
         return sk_binary(SK_FMAX, SK_COMPLEX64, &v, c, &v, c, &v, c);
       },
       SK_ERR_UNSUPPORTED, "fmax: complex dtype"},
      {"sk_binary", "bool subtract (NumPy: TypeError)",
       [] { return sk_binary(SK_SUB, SK_BOOL, &v, data, &v, data, &v, dst); },
       SK_ERR_UNSUPPORTED, "subtract: bool dtype Bool"},
      {"sk_binary", "float shift",
       [] {
         return sk_binary(SK_SHL, SK_FLOAT16, &v, data, &v, data, &v, dst);
       },
       SK_ERR_UNSUPPORTED, "left_shift: float dtype Float16"},
      {"sk_binary", "complex maximum",
       [] {
         return sk_binary(SK_MAX, SK_COMPLEX128, &v, data, &v, data, &v, dst);
       },
       SK_ERR_UNSUPPORTED, "maximum: complex dtype Complex128"},
      {"sk_binary", "negative integer power",
       [] {
         static int16_t base[2] = {2, 3}, exponent[2] = {1, -2}, res[2];
         static sk_view line = MakeView({2}, {1}, 0);
         return sk_binary(SK_POW, SK_INT16, &line, base, &line, exponent, &line,
                          res);
       },
       SK_ERR_INVALID, "power: integers to negative integer powers"},
      {"sk_unary", "complex absolute",
       [] { return sk_unary(SK_ABS, SK_COMPLEX64, &v, data, &v, dst); },
       SK_ERR_UNSUPPORTED, "absolute: complex dtype Complex64"},
      {"sk_reduce", "complex min",
       [] {
         const int32_t axis = 0;
         return sk_reduce(SK_RMIN, SK_COMPLEX64, &v, data, 1, &axis, &v, dst);
       },
       SK_ERR_UNSUPPORTED, "min: complex dtype Complex64"},
      {"sk_binary", "shapes that do not broadcast",
       [] {
         static sk_view a = MakeView({4}, {1}, 0);
         return sk_binary(SK_ADD, SK_FLOAT32, &a, data, &v, data, &v, dst);
       },
       SK_ERR_INVALID, "broadcast"},
      {"sk_binary", "integer division by zero",
       [] {
         static int32_t num[2] = {1, 2}, den[2] = {1, 0}, res[2];
         static sk_view line = MakeView({2}, {1}, 0);
         return sk_binary(SK_DIV, SK_INT32, &line, num, &line, den, &line, res);
       },
       SK_ERR_INVALID, "division by zero"},
      {"sk_binary", "in place, aliased exactly",
       [] {
         float a[6] = {1, 2, 3, 4, 5, 6};
         const sk_view m = Valid();
         const sk_status st =
             sk_binary(SK_MUL, SK_FLOAT32, &m, a, &m, a, &m, a);
         return st == SK_OK && a[5] == 36.0f ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_unary", "integer sqrt",
       [] {
         static int64_t cells[6];
         return sk_unary(SK_SQRT, SK_INT64, &v, cells, &v, cells);
       },
       SK_ERR_UNSUPPORTED, "sqrt"},
      {"sk_unary", "output ndim 33",
       [] {
         static sk_view bad = WithNdim(33);
         return sk_unary(SK_NEG, SK_FLOAT32, &v, data, &bad, dst);
       },
       SK_ERR_INVALID, "ndim 33"},
      {"sk_reduce", "naxes 33",
       [] {
         return sk_reduce(SK_SUM, SK_FLOAT32, &v, data, 33, axes01, &v, dst);
       },
       SK_ERR_INVALID, "naxes 33"},
      {"sk_reduce", "repeated axis",
       [] {
         static sk_view scalar = MakeView({}, {}, 0);
         return sk_reduce(SK_SUM, SK_FLOAT32, &v, data, 2, axes00, &scalar,
                          dst);
       },
       SK_ERR_INVALID, "duplicate"},
      {"sk_reduce", "min of an empty axis",
       [] {
         static sk_view empty = MakeView({0, 3}, {3, 1}, 0);
         static sk_view row = MakeView({3}, {1}, 0);
         static int32_t axis0[] = {0};
         return sk_reduce(SK_RMIN, SK_FLOAT32, &empty, data, 1, axis0, &row,
                          dst);
       },
       SK_ERR_INVALID, "zero-size array"},
      // ---- iteration and threads
      {"sk_iter_new", "NULL out",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {4};
         static void* datas[] = {dst};
         return sk_iter_new(1, views, sizes, datas, 0, nullptr);
       },
       SK_ERR_INVALID, "sk_iter_new: out is NULL"},
      {"sk_iter_new", "nop 0 and 9",
       [] {
         static sk_iter* it;
         const sk_status a = sk_iter_new(0, nullptr, nullptr, nullptr, 0, &it);
         return a == SK_ERR_INVALID && it == nullptr
                    ? sk_iter_new(9, nullptr, nullptr, nullptr, 0, &it)
                    : SK_OK;
       },
       SK_ERR_INVALID, "sk_iter_new: nop 9 is outside [1, 8]"},
      {"sk_iter_new", "element size 2^62, one element (iter_fuzz)",
       [] {
         static const sk_view one = MakeView({1}, {1}, 0);
         static const sk_view* views[] = {&one};
         static const size_t sizes[] = {size_t{1} << 62};
         static void* datas[] = {dst};
         sk_iter* it = nullptr;
         const sk_status status = sk_iter_new(1, views, sizes, datas, 0, &it);
         sk_iter_free(it);
         return status;
       },
       SK_OK, ""},
      {"sk_iter_new", "NULL view in the list",
       [] {
         static const sk_view* views[] = {&v, nullptr};
         static const size_t sizes[] = {4, 4};
         static void* datas[] = {dst, data};
         static sk_iter* it;
         return sk_iter_new(2, views, sizes, datas, 0, &it);
       },
       SK_ERR_INVALID, "sk_iter_new: views[1] is NULL"},
      {"sk_iter_new", "unknown flag",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {4};
         static void* datas[] = {dst};
         static sk_iter* it;
         return sk_iter_new(1, views, sizes, datas, 6, &it);
       },
       SK_ERR_INVALID, "unknown flags 0x6"},
      {"sk_iter_new", "element size 0",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {0};
         static void* datas[] = {dst};
         static sk_iter* it;
         return sk_iter_new(1, views, sizes, datas, 0, &it);
       },
       SK_ERR_INVALID, "element size 0 of operand 0"},
      {"sk_iter_new", "byte offsets overflow",
       [] {
         static sk_view huge = MakeView({2}, {kMax / 8}, 0);
         static const sk_view* views[] = {&huge};
         static const size_t sizes[] = {16};
         static void* datas[] = {dst};
         static sk_iter* it;
         return sk_iter_new(1, views, sizes, datas, 0, &it);
       },
       SK_ERR_OVERFLOW, "(operand 0, the output)"},
      {"sk_iter_new", "broadcast output without SK_ITER_REDUCE_OK",
       [] {
         static sk_view bcast = MakeView({2, 3}, {0, 1}, 0);
         static const sk_view* views[] = {&bcast, &v};
         static const size_t sizes[] = {4, 4};
         static void* datas[] = {dst, data};
         static sk_iter* it;
         return sk_iter_new(2, views, sizes, datas, 0, &it);
       },
       SK_ERR_INVALID, "stride 0 on axis 0 of size 2"},
      {"sk_iter_new", "overlapping output even with SK_ITER_REDUCE_OK",
       [] {
         static sk_view overlap = MakeView({2, 3}, {1, 1}, 0);
         static const sk_view* views[] = {&overlap};
         static const size_t sizes[] = {4};
         static void* datas[] = {dst};
         static sk_iter* it;
         return sk_iter_new(1, views, sizes, datas, SK_ITER_REDUCE_OK, &it);
       },
       SK_ERR_INVALID, "may share memory"},
      {"sk_iter_new", "masked input",
       [] {
         static sk_view masked = Valid();
         masked.has_mask = 1;
         masked.mask_begin[0] = 0, masked.mask_end[0] = 1;
         masked.mask_begin[1] = 0, masked.mask_end[1] = 3;
         static const sk_view* views[] = {&v, &masked};
         static const size_t sizes[] = {4, 4};
         static void* datas[] = {dst, data};
         static sk_iter* it;
         return sk_iter_new(2, views, sizes, datas, 0, &it);
       },
       SK_ERR_UNSUPPORTED, "materialise it first with sk_copy"},
      {"sk_iter_new", "NULL data for a non-empty view",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {4};
         static void* datas[] = {nullptr};
         static sk_iter* it;
         return sk_iter_new(1, views, sizes, datas, 0, &it);
       },
       SK_ERR_INVALID, "data of operand 0 is NULL"},
      {"sk_iter_next", "NULL iterator gives 0",
       [] {
         static char* ptrs[1];
         static int64_t count, strides[1];
         return sk_iter_next(nullptr, ptrs, &count, strides) == 0
                    ? SK_ERR_INVALID
                    : SK_OK;
       },
       SK_ERR_INVALID, "sk_iter_next: it is NULL"},
      {"sk_iter_next", "NULL ptrs",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {4};
         static void* datas[] = {dst};
         sk_iter* it = nullptr;
         if (sk_iter_new(1, views, sizes, datas, 0, &it) != SK_OK) return SK_OK;
         static int64_t count, strides[1];
         const int32_t more = sk_iter_next(it, nullptr, &count, strides);
         sk_iter_free(it);
         return more == 0 ? SK_ERR_INVALID : SK_OK;
       },
       SK_ERR_INVALID, "sk_iter_next: ptrs is NULL"},
      {"sk_iter_describe", "NULL gives \"\", a plan gives its shape",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {4};
         static void* datas[] = {dst};
         sk_iter* it = nullptr;
         if (sk_iter_new(1, views, sizes, datas, 0, &it) != SK_OK) {
           return SK_ERR_INVALID;
         }
         const bool ok = std::string(sk_iter_describe(nullptr)).empty() &&
                         std::string(sk_iter_describe(it)).find("shape [6]") !=
                             std::string::npos;
         sk_iter_free(it);
         return ok ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_iter_free", "NULL is a no-op",
       [] {
         sk_iter_free(nullptr);
         return SK_OK;
       },
       SK_OK, ""},
      {"sk_iter_run", "NULL loop",
       [] {
         static const sk_view* views[] = {&v};
         static const size_t sizes[] = {4};
         static void* datas[] = {dst};
         return sk_iter_run(1, views, sizes, datas, 0, nullptr, nullptr);
       },
       SK_ERR_INVALID, "sk_iter_run: loop is NULL"},
      {"sk_iter_run", "NULL elsizes",
       [] {
         static const sk_view* views[] = {&v};
         static void* datas[] = {dst};
         return sk_iter_run(
             1, views, nullptr, datas, 0,
             [](char* const*, int64_t, const int64_t*, void*) {}, nullptr);
       },
       SK_ERR_INVALID, "sk_iter_run: elsizes is NULL"},
      {"sk_iter_run", "zero-size output runs no chunk",
       [] {
         static sk_view empty = MakeView({0, 3}, {3, 1}, 0);
         static const sk_view* views[] = {&empty};
         static const size_t sizes[] = {4};
         static void* datas[] = {nullptr};
         static int chunks = 0;
         const sk_status st = sk_iter_run(
             1, views, sizes, datas, 0,
             [](char* const*, int64_t, const int64_t*, void*) { ++chunks; },
             nullptr);
         return st == SK_OK && chunks == 0 ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_set_threads", "n = -1", [] { return sk_set_threads(-1); },
       SK_ERR_INVALID, "sk_set_threads: n = -1 is outside [0, 1024]"},
      {"sk_set_threads", "INT32_MAX",
       [] { return sk_set_threads(std::numeric_limits<int32_t>::max()); },
       SK_ERR_INVALID, "n = 2147483647"},
      {"sk_get_threads", "1 by default, unchanged by a bad set",
       [] { return sk_get_threads() == 1 ? SK_OK : SK_ERR_INVALID; }, SK_OK,
       ""},
      {"sk_set_executor", "NULL restores the pool",
       [] { return sk_set_executor(nullptr, dst); }, SK_OK, ""},
      // ---- einsum
      {"sk_einsum_shape", "NULL spec",
       [] {
         return sk_einsum_shape(nullptr, 0, nullptr, nullptr, &out_ndim, out);
       },
       SK_ERR_INVALID, "spec is NULL"},
      {"sk_einsum_shape", "malformed subscripts",
       [] {
         return sk_einsum_shape("ij,jk->i->k", 2, ndims2, shapes2, &out_ndim,
                                out);
       },
       SK_ERR_INVALID, "'->' more than once (column 9)"},
      {"sk_einsum", "n = 33",
       [] {
         return sk_einsum("i->i", SK_FLOAT32, 33, nullptr, nullptr, &v, dst);
       },
       SK_ERR_INVALID, "n=33"},
      {"sk_einsum", "NULL view in the list",
       [] {
         static const sk_view* views[] = {nullptr};
         static const void* datas[] = {data};
         return sk_einsum("ij->i", SK_FLOAT32, 1, views, datas, &v, dst);
       },
       SK_ERR_INVALID, "views[i] is NULL"},
      {"sk_einsum", "out shape differs",
       [] {
         static const sk_view* views[] = {&v};
         static const void* datas[] = {data};
         return sk_einsum("ij->ji", SK_FLOAT32, 1, views, datas, &v, dst);
       },
       SK_ERR_INVALID, "gives [3,2]"},
      {"sk_einsum_rows_shape", "NULL rows",
       [] {
         return sk_einsum_rows_shape("i;j=>ij", 2, nullptr, ndims2, shapes2,
                                     &out_ndim, out);
       },
       SK_ERR_INVALID, "sk_einsum_rows_shape: rows is NULL"},
      {"sk_einsum_rows_shape", "n = 33",
       [] {
         return sk_einsum_rows_shape("=>", 33, nullptr, nullptr, nullptr,
                                     &out_ndim, out);
       },
       SK_ERR_INVALID, "sk_einsum_rows_shape: n=33 is outside [0, 32]"},
      {"sk_einsum_rows_shape", "negative row length",
       [] {
         static const int32_t rows[] = {0, 3, -1, 0, 0, 1};
         return sk_einsum_rows_shape("i;j=>ij", 2, rows, ndims2, shapes2,
                                     &out_ndim, out);
       },
       SK_ERR_INVALID,
       "sk_einsum_rows_shape: operand 0: row lengths (batch 0, output 3, "
       "input -1) must not be negative"},
      {"sk_einsum_rows_shape", "rows summing past ndim",
       [] {
         static const int32_t rows[] = {0,         2,         0,
                                        INT32_MAX, INT32_MAX, INT32_MAX};
         return sk_einsum_rows_shape("i;j=>ij", 2, rows, ndims2, shapes2,
                                     &out_ndim, out);
       },
       SK_ERR_INVALID,
       "sk_einsum_rows_shape: operand 1: row lengths (batch 2147483647, "
       "output 2147483647, input 2147483647) sum to 6442450941 but it has 1 "
       "axes"},
      {"sk_einsum_rows_shape", "NumPy subscripts",
       [] {
         static const int32_t rows[] = {0, 2, 0, 0, 1, 0};
         return sk_einsum_rows_shape("ij,k->", 2, rows, ndims2, shapes2,
                                     &out_ndim, out);
       },
       SK_ERR_INVALID, "einsum: row lengths apply to OCANNL label specs"},
      {"sk_einsum_rows", "NULL rows",
       [] {
         static const sk_view* views[] = {&v};
         static const void* datas[] = {data};
         return sk_einsum_rows("i,j=>i", SK_FLOAT32, 1, nullptr, views, datas,
                               &v, dst);
       },
       SK_ERR_INVALID, "sk_einsum_rows: rows is NULL"},
      {"sk_einsum_rows", "view rank 33",
       [] {
         static sk_view bad = WithNdim(33);
         static const sk_view* views[] = {&bad};
         static const void* datas[] = {data};
         static const int32_t rows[] = {0, 33, 0};
         return sk_einsum_rows("i=>i", SK_FLOAT32, 1, rows, views, datas, &v,
                               dst);
       },
       SK_ERR_INVALID, "sk_einsum_rows: ndim 33 is outside [0, 32]"},
      {"sk_einsum_rows", "rows summing short of ndim",
       [] {
         static const sk_view* views[] = {&v};
         static const void* datas[] = {data};
         static const int32_t rows[] = {0, 1, 0};
         return sk_einsum_rows("i,j=>i", SK_FLOAT32, 1, rows, views, datas, &v,
                               dst);
       },
       SK_ERR_INVALID,
       "sk_einsum_rows: operand 0: row lengths (batch 0, output 1, input 0) "
       "sum to 1 but it has 2 axes"},
      {"sk_einsum_rows", "a closed row of another length",
       [] {
         static const sk_view* views[] = {&v};
         static const void* datas[] = {data};
         static const int32_t rows[] = {1, 1, 0};
         return sk_einsum_rows("i,j=>i,j", SK_FLOAT32, 1, rows, views, datas,
                               &v, dst);
       },
       SK_ERR_INVALID,
       "einsum: operand 0: its batch row has 1 axes but its spec slot's "
       "batch row [] has 0"},
      // ---- targets
      {"sk_target_active", "a name",
       [] {
         return std::strlen(sk_target_active()) > 0 ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_target_count", "at least the reference",
       [] { return sk_target_count() >= 1 ? SK_OK : SK_ERR_INVALID; }, SK_OK,
       ""},
      {"sk_target_name", "index -1 and count give NULL",
       [] {
         return sk_target_name(-1) == nullptr &&
                        sk_target_name(sk_target_count()) == nullptr
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_target_force", "unknown name",
       [] { return sk_target_force("NoSuchTarget"); }, SK_ERR_UNSUPPORTED,
       "NoSuchTarget"},
      {"sk_target_force", "NULL returns to the best",
       [] { return sk_target_force(nullptr); }, SK_OK, ""},
      // ---- comparisons, predicates and where
      {"sk_compare", "unknown op 6",
       [] {
         static uint8_t flags[6];
         return sk_compare(sk_compare_op(6), SK_FLOAT32, &v, data, &v, data, &v,
                           flags);
       },
       SK_ERR_INVALID, "compare: unknown op 6"},
      {"sk_compare", "unknown dtype 99",
       [] {
         static uint8_t flags[6];
         return sk_compare(SK_EQ, sk_dtype(99), &v, data, &v, data, &v, flags);
       },
       SK_ERR_UNSUPPORTED, "equal: dtype (unknown) is not supported"},
      {"sk_compare", "complex64 less",
       [] {
         static uint8_t flags[6];
         return sk_compare(SK_LT, SK_COMPLEX64, &v, data, &v, data, &v, flags);
       },
       SK_ERR_UNSUPPORTED, "less: complex dtype Complex64 has no order"},
      {"sk_compare", "NULL b",
       [] {
         static uint8_t flags[6];
         return sk_compare(SK_EQ, SK_FLOAT32, &v, data, nullptr, data, &v,
                           flags);
       },
       SK_ERR_INVALID, "sk_compare: b is NULL"},
      {"sk_compare", "a of shape [3] against out [2,3]... [4]",
       [] {
         static uint8_t flags[6];
         static sk_view four = MakeView({4}, {1}, 0);
         return sk_compare(SK_GT, SK_FLOAT32, &four, data, &v, data, &v, flags);
       },
       SK_ERR_INVALID, "greater: cannot broadcast source shape [4]"},
      {"sk_compare", "broadcast out",
       [] {
         static uint8_t flags[6];
         static sk_view bcast = MakeView({2, 3}, {0, 1}, 0);
         return sk_compare(SK_EQ, SK_INT32, &v, data, &v, data, &bcast, flags);
       },
       SK_ERR_INVALID, "equal: destination is a broadcast view"},
      {"sk_compare", "out overlapping a gives a temporary's result",
       [] {
         // a is float32 [1, 2, ...] in bytes the bool out overwrites.
         static float buffer[6] = {1, 2, 3, 4, 5, 6};
         static float other[6] = {1, 0, 3, 0, 5, 0};
         const sk_status st =
             sk_compare(SK_EQ, SK_FLOAT32, &v, buffer, &v, other, &v, buffer);
         const auto* bytes = reinterpret_cast<const uint8_t*>(buffer);
         const uint8_t want[6] = {1, 0, 1, 0, 1, 0};
         return st == SK_OK && std::memcmp(bytes, want, 6) == 0
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_unary", "isnan of int8 is false, isfinite true",
       [] {
         static int8_t ints[6] = {-128, 0, 127, 1, 2, 3};
         static uint8_t flags[6], finite[6];
         const bool ok =
             sk_unary(SK_ISNAN, SK_INT8, &v, ints, &v, flags) == SK_OK &&
             sk_unary(SK_ISFINITE, SK_INT8, &v, ints, &v, finite) == SK_OK &&
             std::count(flags, flags + 6, 0) == 6 &&
             std::count(finite, finite + 6, 1) == 6;
         return ok ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_unary", "isinf of NaN and inf",
       [] {
         static float values[6] = {NAN, INFINITY, -INFINITY, 0, 1, -0.0f};
         static uint8_t flags[6];
         const uint8_t want[6] = {0, 1, 1, 0, 0, 0};
         return sk_unary(SK_ISINF, SK_FLOAT32, &v, values, &v, flags) ==
                            SK_OK &&
                        std::memcmp(flags, want, 6) == 0
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_unary", "isnan with unknown dtype",
       [] {
         static uint8_t flags[6];
         return sk_unary(SK_ISNAN, sk_dtype(-3), &v, data, &v, flags);
       },
       SK_ERR_UNSUPPORTED, "isnan: dtype (unknown) is not supported"},
      {"sk_unary", "unary op 35",
       [] {
         static uint8_t flags[6];
         return sk_unary(sk_unary_op(35), SK_FLOAT32, &v, data, &v, flags);
       },
       SK_ERR_INVALID, "unary: unknown op 35"},
      {"sk_unary", "integer tan",
       [] {
         static int64_t i[6];
         return sk_unary(SK_TAN, SK_INT64, &v, i, &v, i);
       },
       SK_ERR_UNSUPPORTED, "tan: integer dtype"},
      {"sk_unary", "complex signbit",
       [] {
         static double c[12];
         static uint8_t flags[6];
         return sk_unary(SK_SIGNBIT, SK_COMPLEX128, &v, c, &v, flags);
       },
       SK_ERR_UNSUPPORTED, "signbit: complex dtype"},
      {"sk_unary", "integer reciprocal of zero",
       [] {
         static int32_t a[6] = {1, -1, 0, 2, 3, 4};
         static int32_t o[6] = {9, 9, 9, 9, 9, 9};
         const sk_status st = sk_unary(SK_RECIPROCAL, SK_INT32, &v, a, &v, o);
         return o[0] == 9 ? st : SK_ERR_NOMEM;
       },
       SK_ERR_INVALID, "reciprocal: integer division by zero (1 / 0)"},
      {"sk_unary", "bool cbrt",
       [] {
         static uint8_t b[6];
         return sk_unary(SK_CBRT, SK_BOOL, &v, b, &v, b);
       },
       SK_ERR_UNSUPPORTED, "cbrt: bool dtype"},
      {"sk_where", "NULL cond",
       [] {
         return sk_where(SK_FLOAT32, nullptr, data, &v, data, &v, data, &v,
                         dst);
       },
       SK_ERR_INVALID, "sk_where: cond is NULL"},
      {"sk_where", "unknown dtype 15",
       [] {
         static uint8_t cond[6];
         return sk_where(sk_dtype(15), &v, cond, &v, data, &v, data, &v, dst);
       },
       SK_ERR_UNSUPPORTED, "where: dtype (unknown) is not supported"},
      {"sk_where", "cond of shape [4] against out [2,3]",
       [] {
         static uint8_t cond[6];
         static sk_view four = MakeView({4}, {1}, 0);
         return sk_where(SK_FLOAT32, &four, cond, &v, data, &v, data, &v, dst);
       },
       SK_ERR_INVALID, "where: cannot broadcast source shape [4]"},
      {"sk_where", "NULL a data",
       [] {
         static uint8_t cond[6];
         return sk_where(SK_FLOAT64, &v, cond, &v, nullptr, &v, data, &v, dst);
       },
       SK_ERR_INVALID, "where: source data is NULL"},
      {"sk_where", "rank 33 out",
       [] {
         static uint8_t cond[6];
         static sk_view bad = WithNdim(33);
         return sk_where(SK_INT8, &v, cond, &v, data, &v, data, &bad, dst);
       },
       SK_ERR_INVALID, "where: "},
      {"sk_where", "cond bytes 2 and 255 are true, in place on a",
       [] {
         static uint8_t cond[6] = {0, 2, 255, 0, 1, 0};
         static int32_t a[6] = {1, 2, 3, 4, 5, 6};
         static int32_t b[6] = {-1, -2, -3, -4, -5, -6};
         const int32_t want[6] = {-1, 2, 3, -4, 5, -6};
         return sk_where(SK_INT32, &v, cond, &v, a, &v, b, &v, a) == SK_OK &&
                        std::memcmp(a, want, sizeof(want)) == 0
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      // ---- arg reductions, scans, any / all / mean (issue 17)
      {"sk_arg_reduce", "NULL in",
       [] {
         static int64_t idx[3];
         static sk_view row = MakeView({3}, {1}, 0);
         return sk_arg_reduce(SK_ARGMAX, SK_FLOAT32, nullptr, data, 0, &row,
                              idx);
       },
       SK_ERR_INVALID, "sk_arg_reduce: in is NULL"},
      {"sk_arg_reduce", "axis 2 of a 2-d input",
       [] {
         static int64_t idx[3];
         static sk_view row = MakeView({3}, {1}, 0);
         return sk_arg_reduce(SK_ARGMAX, SK_FLOAT32, &v, data, 2, &row, idx);
       },
       SK_ERR_INVALID, "argmax: axis 2 is out of bounds"},
      {"sk_arg_reduce", "axis INT32_MIN",
       [] {
         static int64_t idx[3];
         static sk_view row = MakeView({3}, {1}, 0);
         return sk_arg_reduce(SK_ARGMIN, SK_FLOAT32, &v, data, INT32_MIN, &row,
                              idx);
       },
       SK_ERR_INVALID, "argmin: axis -2147483648 is out of bounds"},
      {"sk_arg_reduce", "output of the wrong shape",
       [] {
         static int64_t idx[3];
         static sk_view row = MakeView({2}, {1}, 0);
         return sk_arg_reduce(SK_ARGMAX, SK_FLOAT32, &v, data, 0, &row, idx);
       },
       SK_ERR_INVALID, "does not match input shape [2,3] without axis 0"},
      {"sk_arg_reduce", "argmax of an empty axis",
       [] {
         static int64_t idx[3];
         static sk_view empty = MakeView({0, 3}, {3, 1}, 0);
         static sk_view row = MakeView({3}, {1}, 0);
         return sk_arg_reduce(SK_ARGMAX, SK_FLOAT32, &empty, data, 0, &row,
                              idx);
       },
       SK_ERR_INVALID, "attempt to get argmax of an empty sequence"},
      {"sk_arg_reduce", "complex",
       [] {
         static int64_t idx[3];
         static sk_view row = MakeView({3}, {1}, 0);
         return sk_arg_reduce(SK_ARGMAX, SK_COMPLEX64, &v, data, 0, &row, idx);
       },
       SK_ERR_UNSUPPORTED, "argmax: complex dtype Complex64"},
      {"sk_arg_reduce", "NULL output data",
       [] {
         static sk_view row = MakeView({3}, {1}, 0);
         return sk_arg_reduce(SK_ARGMAX, SK_FLOAT32, &v, data, 0, &row,
                              nullptr);
       },
       SK_ERR_INVALID, "argmax: destination"},
      {"sk_scan", "NULL out",
       [] { return sk_scan(SK_CUMSUM, SK_FLOAT32, &v, data, 0, nullptr, dst); },
       SK_ERR_INVALID, "sk_scan: out is NULL"},
      {"sk_scan", "axis -3 of a 2-d input",
       [] { return sk_scan(SK_CUMSUM, SK_FLOAT32, &v, data, -3, &v, dst); },
       SK_ERR_INVALID, "cumsum: axis -3 is out of bounds"},
      {"sk_scan", "output of another shape",
       [] {
         static sk_view t = MakeView({3, 2}, {2, 1}, 0);
         return sk_scan(SK_CUMPROD, SK_FLOAT32, &v, data, 0, &t, dst);
       },
       SK_ERR_INVALID, "cumprod: output shape [3,2] is not the input shape"},
      {"sk_scan", "complex cummax",
       [] { return sk_scan(SK_CUMMAX, SK_COMPLEX64, &v, data, 0, &v, dst); },
       SK_ERR_UNSUPPORTED, "cummax: complex dtype Complex64"},
      {"sk_scan", "output positions that alias (stride 0)",
       [] {
         static sk_view b = MakeView({2, 3}, {0, 1}, 0);
         return sk_scan(SK_CUMSUM, SK_FLOAT32, &v, data, 0, &b, dst);
       },
       SK_ERR_INVALID, "cumsum"},
      {"sk_scan", "in place, aliased exactly",
       [] {
         float a[6] = {1, 2, 3, 4, 5, 6};
         const sk_view m = Valid();
         const sk_status st = sk_scan(SK_CUMSUM, SK_FLOAT32, &m, a, 1, &m, a);
         return st == SK_OK && a[5] == 15.0f ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_reduce", "mean of integers",
       [] {
         static int32_t ints[6];
         static sk_view scalar = MakeView({}, {}, 0);
         return sk_reduce(SK_MEAN, SK_INT32, &v, ints, 2, axes01, &scalar,
                          ints);
       },
       SK_ERR_UNSUPPORTED, "mean: integer dtype Int32"},
      {"sk_reduce", "any into an output of the wrong shape",
       [] {
         static uint8_t flags[8];
         static sk_view row = MakeView({2}, {1}, 0);
         static int32_t axis0[] = {0};
         return sk_reduce(SK_ANY, SK_FLOAT32, &v, data, 1, axis0, &row, flags);
       },
       SK_ERR_INVALID, "any: output shape [2]"},
      {"sk_reduce", "all of an empty axis is true",
       [] {
         static uint8_t flag = 7;
         static sk_view empty = MakeView({0}, {1}, 0);
         static sk_view scalar = MakeView({}, {}, 0);
         static int32_t axis0[] = {0};
         const sk_status st = sk_reduce(SK_ALL, SK_FLOAT64, &empty, data, 1,
                                        axis0, &scalar, &flag);
         return st == SK_OK && flag == 1 ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_reduce", "unknown op 7",
       [] {
         static sk_view scalar = MakeView({}, {}, 0);
         return sk_reduce(sk_reduce_op(7), SK_FLOAT32, &v, data, 2, axes01,
                          &scalar, dst);
       },
       SK_ERR_INVALID, "reduce: unknown op 7"},
      // ---- math ops (sk_unary SK_EXP .. SK_SIGN)
      {"sk_unary", "integer exp",
       [] {
         static int32_t cells[6];
         return sk_unary(SK_EXP, SK_INT32, &v, cells, &v, cells);
       },
       SK_ERR_UNSUPPORTED, "exp: integer dtype Int32"},
      {"sk_unary", "bool tanh",
       [] {
         static uint8_t cells[6];
         return sk_unary(SK_TANH, SK_BOOL, &v, cells, &v, cells);
       },
       SK_ERR_UNSUPPORTED, "tanh: bool dtype"},
      {"sk_unary", "complex log",
       [] { return sk_unary(SK_LOG, SK_COMPLEX64, &v, data, &v, dst); },
       SK_ERR_UNSUPPORTED, "log: complex dtype Complex64"},
      {"sk_unary", "bool sign",
       [] {
         static uint8_t cells[6];
         return sk_unary(SK_SIGN, SK_BOOL, &v, cells, &v, cells);
       },
       SK_ERR_UNSUPPORTED, "sign: bool dtype"},
      {"sk_unary", "complex rint",
       [] { return sk_unary(SK_RINT, SK_COMPLEX128, &v, data, &v, dst); },
       SK_ERR_UNSUPPORTED, "rint: complex dtype Complex128"},
      {"sk_unary", "op value beyond the last (signbit 34)",
       [] { return sk_unary(sk_unary_op(35), SK_FLOAT32, &v, data, &v, dst); },
       SK_ERR_INVALID, "35"},
      {"sk_unary", "sin of huge, infinite and NaN values",
       [] {
         double x[3] = {1e300, -HUGE_VAL, NAN}, y[3];
         static sk_view line = MakeView({3}, {1}, 0);
         const sk_status st = sk_unary(SK_SIN, SK_FLOAT64, &line, x, &line, y);
         return st == SK_OK && std::fabs(y[0]) <= 1 && std::isnan(y[1]) &&
                        std::isnan(y[2])
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_unary", "floor of a reversed float16 row in place",
       [] {
         uint16_t h[4] = {0x3e00, 0xbe00, 0x7e00, 0x8000};  // 1.5 -1.5 nan -0
         sk_view r = MakeView({4}, {-1}, 3);
         const sk_status st = sk_unary(SK_FLOOR, SK_FLOAT16, &r, h, &r, h);
         return st == SK_OK && h[0] == 0x3c00 && h[1] == 0xc000 &&
                        (h[2] & 0x7c00) == 0x7c00 && h[3] == 0x8000
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      // ---- plans (sk_plan_*): creation checks as the one-shot call does
      {"sk_plan_copy", "NULL plan",
       [] { return sk_plan_copy(SK_FLOAT32, &v, &v, nullptr, nullptr); },
       SK_ERR_INVALID, "sk_plan_copy: plan is NULL"},
      {"sk_plan_copy", "NULL src (and *plan set to NULL)",
       [] {
         sk_plan* p = reinterpret_cast<sk_plan*>(&o);
         const sk_status st =
             sk_plan_copy(SK_FLOAT32, nullptr, &v, nullptr, &p);
         return p == nullptr ? st : SK_OK;
       },
       SK_ERR_INVALID, "sk_copy: src is NULL"},
      {"sk_plan_fill", "broadcast destination",
       [] {
         static sk_view b = MakeView({2, 3}, {0, 1}, 0);
         sk_plan* p = nullptr;
         return sk_plan_fill(SK_FLOAT32, &b, &p);
       },
       SK_ERR_INVALID, "broadcast view"},
      {"sk_plan_cast", "unknown destination dtype 99",
       [] {
         sk_plan* p = nullptr;
         return sk_plan_cast(SK_FLOAT32, &v, sk_dtype(99), &v, &p);
       },
       SK_ERR_UNSUPPORTED, "sk_cast"},
      {"sk_plan_binary", "shapes that do not broadcast",
       [] {
         static sk_view t = MakeView({3, 2}, {2, 1}, 0);
         sk_plan* p = nullptr;
         return sk_plan_binary(SK_ADD, SK_FLOAT32, &v, &t, &v, &p);
       },
       SK_ERR_INVALID, "add: cannot broadcast"},
      {"sk_plan_binary", "negative dimension",
       [] {
         static sk_view bad = MakeView({2, -3}, {3, 1}, 0);
         sk_plan* p = nullptr;
         return sk_plan_binary(SK_ADD, SK_FLOAT32, &bad, &v, &v, &p);
       },
       SK_ERR_INVALID, "negative dimension"},
      {"sk_plan_unary", "integer sqrt",
       [] {
         sk_plan* p = nullptr;
         return sk_plan_unary(SK_SQRT, SK_INT32, &v, &v, &p);
       },
       SK_ERR_UNSUPPORTED, "sqrt: integer dtype"},
      {"sk_plan_compare", "complex less",
       [] {
         static sk_view bools = Valid();
         sk_plan* p = nullptr;
         return sk_plan_compare(SK_LT, SK_COMPLEX64, &v, &v, &bools, &p);
       },
       SK_ERR_UNSUPPORTED, "less"},
      {"sk_plan_where", "NULL cond",
       [] {
         sk_plan* p = nullptr;
         return sk_plan_where(SK_FLOAT32, nullptr, &v, &v, &v, &p);
       },
       SK_ERR_INVALID, "sk_where: cond is NULL"},
      {"sk_plan_reduce", "duplicate axes",
       [] {
         static sk_view scalar = MakeView({}, {}, 0);
         sk_plan* p = nullptr;
         return sk_plan_reduce(SK_SUM, SK_FLOAT32, &v, 2, axes00, &scalar, &p);
       },
       SK_ERR_INVALID, "sum: duplicate value in 'axis'"},
      {"sk_plan_arg_reduce", "axis 2 of a 2-d input",
       [] {
         static sk_view row = MakeView({2}, {1}, 0);
         sk_plan* p = nullptr;
         return sk_plan_arg_reduce(SK_ARGMAX, SK_FLOAT32, &v, 2, &row, &p);
       },
       SK_ERR_INVALID, "argmax: axis 2 is out of bounds"},
      {"sk_plan_scan", "NULL in",
       [] {
         sk_plan* p = nullptr;
         return sk_plan_scan(SK_CUMSUM, SK_FLOAT32, nullptr, 0, &v, &p);
       },
       SK_ERR_INVALID, "sk_scan: in is NULL"},
      {"sk_plan_einsum", "bad spec",
       [] {
         const sk_view* views[1] = {&v};
         sk_plan* p = nullptr;
         return sk_plan_einsum("ij->ijk", SK_FLOAT32, 1, views, &v, &p);
       },
       SK_ERR_INVALID, "einsum"},
      {"sk_plan_einsum", "n = -1",
       [] {
         sk_plan* p = nullptr;
         return sk_plan_einsum("i->i", SK_FLOAT32, -1, nullptr, &v, &p);
       },
       SK_ERR_INVALID, "sk_einsum: n=-1"},
      {"sk_plan_execute", "NULL plan",
       [] { return sk_plan_execute(nullptr, nullptr, dst); }, SK_ERR_INVALID,
       "sk_plan_execute: plan is NULL"},
      {"sk_plan_execute", "NULL inputs for a plan of 2",
       [] {
         sk_plan* p = nullptr;
         if (sk_plan_binary(SK_ADD, SK_FLOAT32, &v, &v, &v, &p) != SK_OK) {
           return SK_ERR_UNSUPPORTED;
         }
         const sk_status st = sk_plan_execute(p, nullptr, dst);
         sk_plan_free(p);
         return st;
       },
       SK_ERR_INVALID, "sk_plan_execute: inputs is NULL"},
      {"sk_plan_execute", "NULL input data of a non-empty view",
       [] {
         sk_plan* p = nullptr;
         if (sk_plan_binary(SK_ADD, SK_FLOAT32, &v, &v, &v, &p) != SK_OK) {
           return SK_ERR_UNSUPPORTED;
         }
         const void* in[2] = {data, nullptr};
         const sk_status st = sk_plan_execute(p, in, dst);
         sk_plan_free(p);
         return st;
       },
       SK_ERR_INVALID, "add: source data is NULL for a non-empty view"},
      {"sk_plan_execute", "integer zero divisor, out untouched",
       [] {
         static int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 1, 0, 1, 1, 1};
         static int32_t out6[6] = {9, 9, 9, 9, 9, 9};
         sk_plan* p = nullptr;
         if (sk_plan_binary(SK_DIV, SK_INT32, &v, &v, &v, &p) != SK_OK) {
           return SK_ERR_UNSUPPORTED;
         }
         const void* in[2] = {a, b};
         const sk_status st = sk_plan_execute(p, in, out6);
         sk_plan_free(p);
         return out6[0] == 9 && out6[5] == 9 ? st : SK_OK;
       },
       SK_ERR_INVALID, "divide: "},
      {"sk_plan_inputs", "NULL plan is -1, a where plan 3",
       [] {
         sk_plan* p = nullptr;
         if (sk_plan_inputs(nullptr) != -1) return SK_ERR_INVALID;
         static sk_view cond = Valid();
         if (sk_plan_where(SK_UINT8, &cond, &cond, &cond, &cond, &p) != SK_OK) {
           return SK_ERR_UNSUPPORTED;
         }
         const int32_t n = sk_plan_inputs(p);
         sk_plan_free(p);
         return n == 3 ? SK_OK : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_plan_describe", "NULL plan is \"\", a plan names its kernel",
       [] {
         if (std::string(sk_plan_describe(nullptr)) != "")
           return SK_ERR_INVALID;
         sk_plan* p = nullptr;
         if (sk_plan_unary(SK_EXP, SK_FLOAT64, &v, &v, &p) != SK_OK) {
           return SK_ERR_UNSUPPORTED;
         }
         const std::string text = sk_plan_describe(p);
         sk_plan_free(p);
         return text.find("exp") != std::string::npos &&
                        text.find("Float64") != std::string::npos
                    ? SK_OK
                    : SK_ERR_INVALID;
       },
       SK_OK, ""},
      {"sk_plan_free", "NULL is a no-op",
       [] {
         sk_plan_free(nullptr);
         return SK_OK;
       },
       SK_OK, ""},
  };
}

TEST(HostileInputs, Catalog) {
  int cases = 0;
  for (const HostileCase& c : Catalog()) {
    SCOPED_TRACE(std::string(c.function) + ": " + c.input);
    const sk_status status = c.call();
    EXPECT_EQ(status, c.want) << sk_last_error();
    if (c.want != SK_OK) {
      EXPECT_NE(std::string(sk_last_error()).find(c.message), std::string::npos)
          << "message: " << sk_last_error();
    }
    ++cases;
  }
  std::printf("%d hostile cases\n", cases);
}

// True when `message` starts with an operation's name and ": " (DESIGN.md
// rule 3: "reshape: cannot reshape ...", "sk_copy: src is NULL"): a
// lower-case identifier, as the library's operations and the C ABI's
// functions are named.
bool NamesOperation(const std::string& message) {
  size_t n = 0;
  while (n < message.size() &&
         ((message[n] >= 'a' && message[n] <= 'z') || message[n] == '_' ||
          (n > 0 && message[n] >= '0' && message[n] <= '9'))) {
    ++n;
  }
  return n > 0 && message.compare(n, 2, ": ") == 0;
}

TEST(HostileInputs, NamesOperationRejectsBareMessages) {
  EXPECT_TRUE(NamesOperation("sk_copy: src is NULL"));
  EXPECT_TRUE(NamesOperation("reshape: cannot reshape [3,2] to [4,2]"));
  EXPECT_FALSE(NamesOperation("out of memory"));
  EXPECT_FALSE(NamesOperation("rank 33 exceeds the maximum rank 32"));
  EXPECT_FALSE(NamesOperation("Invalid einsum spec (expected ...)"));
  EXPECT_FALSE(NamesOperation("fixed index 3: out of range"));
  EXPECT_FALSE(NamesOperation(": no name"));
  EXPECT_FALSE(NamesOperation(""));
}

// Every failing case's message starts with the name of an operation.
TEST(HostileInputs, EveryMessageNamesItsOperation) {
  int failures = 0;
  for (const HostileCase& c : Catalog()) {
    if (c.want == SK_OK) continue;
    c.call();
    const std::string message = sk_last_error();
    if (std::getenv("STRIDEKIT_PRINT_MESSAGES") != nullptr) {
      std::printf("%s: %s\n", c.function, message.c_str());
    }
    EXPECT_TRUE(NamesOperation(message))
        << c.function << " (" << c.input << "): \"" << message << "\"";
    ++failures;
  }
  EXPECT_GE(failures, 90);
}

// Every sk_ function declared in stridekit.h has at least one case.
TEST(HostileInputs, CatalogCoversEveryFunction) {
  const char* header = std::getenv("STRIDEKIT_HEADER");
  if (header == nullptr) GTEST_SKIP() << "STRIDEKIT_HEADER is not set";
  std::ifstream in(header);
  ASSERT_TRUE(in) << header;
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  // Identifiers "sk_..." directly followed by "(" (no std::regex: GCC 12
  // warns inside it at -O1).
  std::set<std::string> declared, covered;
  auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           (c >= 'A' && c <= 'Z');
  };
  for (size_t at = source.find("sk_"); at != std::string::npos;
       at = source.find("sk_", at + 1)) {
    if (at > 0 && is_word(source[at - 1])) continue;
    size_t end = at;
    while (end < source.size() && is_word(source[end])) ++end;
    if (end < source.size() && source[end] == '(') {
      declared.insert(source.substr(at, end - at));
    }
  }
  for (const HostileCase& c : Catalog()) covered.insert(c.function);
  EXPECT_GE(declared.size(), 40u);
  for (const std::string& name : declared) {
    EXPECT_TRUE(covered.count(name)) << name << " has no hostile case";
  }
}

}  // namespace
}  // namespace stridekit
