// The dtype vocabulary (stridekit/dtype.h): names, aliases, sizes, kinds.
#include "stridekit/dtype.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace stridekit {
namespace {

TEST(DType, NamesAndAliasesRoundTrip) {
  for (int v = 0; v < kNumDTypes; ++v) {
    const DType t = static_cast<DType>(v);
    EXPECT_EQ(ParseDType(DTypeName(t)), t) << DTypeName(t);
    EXPECT_EQ(DTypeBits(t), int(8 * DTypeSize(t)));
  }
  EXPECT_EQ(ParseDType("F32"), DType::kFloat32);
  EXPECT_EQ(ParseDType("float32"), DType::kFloat32);
  EXPECT_EQ(ParseDType("BF16"), DType::kBFloat16);
  EXPECT_EQ(ParseDType("PRED"), DType::kBool);
  EXPECT_EQ(ParseDType("C128"), DType::kComplex128);
  EXPECT_EQ(ParseDType("i8"), DType::kInt8);
  EXPECT_EQ(ParseDType("U64"), DType::kUint64);
  EXPECT_SK_ERROR(ParseDType("fLoat32"), ErrorKind::kInvalidArgument,
                  "dtype: unknown dtype name \"fLoat32\"");
  EXPECT_SK_ERROR(DTypeSize(static_cast<DType>(15)), ErrorKind::kUnsupported,
                  "dtype: invalid dtype value 15");
}

TEST(DType, Kinds) {
  EXPECT_TRUE(IsUnsigned(DType::kUint8));
  EXPECT_TRUE(IsUnsigned(DType::kUint64));
  EXPECT_FALSE(IsUnsigned(DType::kInt64));
  EXPECT_FALSE(IsUnsigned(DType::kBool));
  EXPECT_TRUE(IsComplex(DType::kComplex64));
  EXPECT_FALSE(IsComplex(DType::kFloat64));
  EXPECT_TRUE(IsInteger(DType::kInt8));
  EXPECT_FALSE(IsInteger(DType::kBool));
  EXPECT_TRUE(IsFloat(DType::kBFloat16));
  EXPECT_FALSE(IsFloat(DType::kComplex64));
}

}  // namespace
}  // namespace stridekit
