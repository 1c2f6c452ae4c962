// Element types. Values match sk_dtype in the C ABI; names and aliases follow
// GoMLX's dtypes package (Float32 / F32 / f32 / float32 ...).
#ifndef STRIDEKIT_DTYPE_H_
#define STRIDEKIT_DTYPE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace stridekit {

enum class DType : int32_t {
  kBool = 0,
  kInt8 = 1,
  kInt16 = 2,
  kInt32 = 3,
  kInt64 = 4,
  kUint8 = 5,
  kUint16 = 6,
  kUint32 = 7,
  kUint64 = 8,
  kFloat16 = 9,
  kBFloat16 = 10,
  kFloat32 = 11,
  kFloat64 = 12,
  kComplex64 = 13,
  kComplex128 = 14,
};

inline constexpr int kNumDTypes = 15;

// True for the 15 values above.
constexpr bool IsValidDType(int32_t value) {
  return value >= 0 && value < kNumDTypes;
}

// Bytes per element (Bool is 1); throws kUnsupported for an invalid value.
size_t DTypeSize(DType t);
// Bits per element: 8 * DTypeSize.
int DTypeBits(DType t);
// GoMLX name: "Bool", "Int8", ..., "Float32", "BFloat16", "Complex128".
std::string_view DTypeName(DType t);
// Parses a GoMLX name, its short alias (F32, BF16, S8, U8, PRED, C64) or
// either in lower case. Throws kInvalidArgument for an unknown name.
DType ParseDType(std::string_view name);

bool IsFloat(DType t);     // Float16, BFloat16, Float32, Float64.
bool IsComplex(DType t);   // Complex64, Complex128.
bool IsInteger(DType t);   // Signed and unsigned integers.
bool IsUnsigned(DType t);  // Uint8 .. Uint64.

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_DTYPE_H_
