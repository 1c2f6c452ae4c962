#include "stridekit/dtype.h"

#include <cctype>
#include <string>

#include "stridekit/error.h"

namespace stridekit {
namespace {

struct DTypeInfo {
  std::string_view name;
  std::string_view alias;  // Short PJRT-style name.
  size_t size;
};

constexpr DTypeInfo kInfo[kNumDTypes] = {
    {"Bool", "PRED", 1},   {"Int8", "S8", 1},       {"Int16", "S16", 2},
    {"Int32", "S32", 4},   {"Int64", "S64", 8},     {"Uint8", "U8", 1},
    {"Uint16", "U16", 2},  {"Uint32", "U32", 4},    {"Uint64", "U64", 8},
    {"Float16", "F16", 2}, {"BFloat16", "BF16", 2}, {"Float32", "F32", 4},
    {"Float64", "F64", 8}, {"Complex64", "C64", 8}, {"Complex128", "C128", 16},
};

const DTypeInfo& Info(DType t) {
  const int32_t v = static_cast<int32_t>(t);
  if (!IsValidDType(v)) {
    Fail(ErrorKind::kUnsupported, "dtype: invalid dtype value ", v);
  }
  return kInfo[v];
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Exact, or entirely lower case (GoMLX adds lower-case variants only).
bool NameMatches(std::string_view name, std::string_view candidate) {
  if (name == candidate) return true;
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) return false;
  }
  return EqualsIgnoringCase(name, candidate);
}

}  // namespace

size_t DTypeSize(DType t) { return Info(t).size; }
int DTypeBits(DType t) { return static_cast<int>(8 * Info(t).size); }
std::string_view DTypeName(DType t) { return Info(t).name; }

DType ParseDType(std::string_view name) {
  for (int v = 0; v < kNumDTypes; ++v) {
    if (NameMatches(name, kInfo[v].name) || NameMatches(name, kInfo[v].alias)) {
      return static_cast<DType>(v);
    }
  }
  if (name == "I8" || name == "i8") return DType::kInt8;
  if (name == "I16" || name == "i16") return DType::kInt16;
  if (name == "I32" || name == "i32") return DType::kInt32;
  if (name == "I64" || name == "i64") return DType::kInt64;
  Fail(ErrorKind::kInvalidArgument, "dtype: unknown dtype name \"", name, "\"");
}

bool IsFloat(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16 ||
         t == DType::kFloat32 || t == DType::kFloat64;
}
bool IsComplex(DType t) {
  return t == DType::kComplex64 || t == DType::kComplex128;
}
bool IsUnsigned(DType t) { return t >= DType::kUint8 && t <= DType::kUint64; }
bool IsInteger(DType t) { return t >= DType::kInt8 && t <= DType::kUint64; }

}  // namespace stridekit
