// Ties every C op value of stridekit.h to its row of the op tables
// (stridekit/ops.h): the C ABI passes op values straight through
// (capi::EnumArg), so a table edit that moves a value fails to compile
// here instead of renaming an op for C callers.
#include <iterator>

#include "stridekit/ops.h"
#include "stridekit/stridekit.h"

namespace stridekit::capi {
namespace {

#define STRIDEKIT_SAME_VALUE(C, Cpp) \
  static_assert(int32_t(C) == int32_t(Cpp), #C " is not " #Cpp)

STRIDEKIT_SAME_VALUE(SK_ADD, BinaryOp::kAdd);
STRIDEKIT_SAME_VALUE(SK_SUB, BinaryOp::kSub);
STRIDEKIT_SAME_VALUE(SK_MUL, BinaryOp::kMul);
STRIDEKIT_SAME_VALUE(SK_DIV, BinaryOp::kDiv);
STRIDEKIT_SAME_VALUE(SK_MIN, BinaryOp::kMin);
STRIDEKIT_SAME_VALUE(SK_MAX, BinaryOp::kMax);
STRIDEKIT_SAME_VALUE(SK_POW, BinaryOp::kPow);
STRIDEKIT_SAME_VALUE(SK_MOD, BinaryOp::kMod);
STRIDEKIT_SAME_VALUE(SK_AND, BinaryOp::kAnd);
STRIDEKIT_SAME_VALUE(SK_OR, BinaryOp::kOr);
STRIDEKIT_SAME_VALUE(SK_XOR, BinaryOp::kXor);
STRIDEKIT_SAME_VALUE(SK_SHL, BinaryOp::kShl);
STRIDEKIT_SAME_VALUE(SK_SHR, BinaryOp::kShr);
STRIDEKIT_SAME_VALUE(SK_ARCTAN2, BinaryOp::kArctan2);
STRIDEKIT_SAME_VALUE(SK_HYPOT, BinaryOp::kHypot);
STRIDEKIT_SAME_VALUE(SK_COPYSIGN, BinaryOp::kCopysign);
STRIDEKIT_SAME_VALUE(SK_FMOD, BinaryOp::kFmod);
STRIDEKIT_SAME_VALUE(SK_FLOOR_DIVIDE, BinaryOp::kFloorDivide);
STRIDEKIT_SAME_VALUE(SK_FMAX, BinaryOp::kFmax);
STRIDEKIT_SAME_VALUE(SK_FMIN, BinaryOp::kFmin);
STRIDEKIT_SAME_VALUE(SK_LOGADDEXP, BinaryOp::kLogaddexp);
STRIDEKIT_SAME_VALUE(SK_LOGADDEXP2, BinaryOp::kLogaddexp2);
STRIDEKIT_SAME_VALUE(SK_NEXTAFTER, BinaryOp::kNextafter);
STRIDEKIT_SAME_VALUE(SK_HEAVISIDE, BinaryOp::kHeaviside);
STRIDEKIT_SAME_VALUE(SK_GCD, BinaryOp::kGcd);
STRIDEKIT_SAME_VALUE(SK_LCM, BinaryOp::kLcm);
static_assert(std::size(kBinaryOps) == 26, "a binary op without a C value");

STRIDEKIT_SAME_VALUE(SK_NEG, UnaryOp::kNeg);
STRIDEKIT_SAME_VALUE(SK_ABS, UnaryOp::kAbs);
STRIDEKIT_SAME_VALUE(SK_SQRT, UnaryOp::kSqrt);
STRIDEKIT_SAME_VALUE(SK_SQUARE, UnaryOp::kSquare);
STRIDEKIT_SAME_VALUE(SK_EXP, UnaryOp::kExp);
STRIDEKIT_SAME_VALUE(SK_LOG, UnaryOp::kLog);
STRIDEKIT_SAME_VALUE(SK_EXPM1, UnaryOp::kExpm1);
STRIDEKIT_SAME_VALUE(SK_LOG1P, UnaryOp::kLog1p);
STRIDEKIT_SAME_VALUE(SK_SIN, UnaryOp::kSin);
STRIDEKIT_SAME_VALUE(SK_COS, UnaryOp::kCos);
STRIDEKIT_SAME_VALUE(SK_TANH, UnaryOp::kTanh);
STRIDEKIT_SAME_VALUE(SK_FLOOR, UnaryOp::kFloor);
STRIDEKIT_SAME_VALUE(SK_CEIL, UnaryOp::kCeil);
STRIDEKIT_SAME_VALUE(SK_RINT, UnaryOp::kRint);
STRIDEKIT_SAME_VALUE(SK_TRUNC, UnaryOp::kTrunc);
STRIDEKIT_SAME_VALUE(SK_SIGN, UnaryOp::kSign);
STRIDEKIT_SAME_VALUE(SK_NOT, UnaryOp::kNot);
STRIDEKIT_SAME_VALUE(SK_TAN, UnaryOp::kTan);
STRIDEKIT_SAME_VALUE(SK_ARCSIN, UnaryOp::kArcsin);
STRIDEKIT_SAME_VALUE(SK_ARCCOS, UnaryOp::kArccos);
STRIDEKIT_SAME_VALUE(SK_ARCTAN, UnaryOp::kArctan);
STRIDEKIT_SAME_VALUE(SK_SINH, UnaryOp::kSinh);
STRIDEKIT_SAME_VALUE(SK_COSH, UnaryOp::kCosh);
STRIDEKIT_SAME_VALUE(SK_ARCSINH, UnaryOp::kArcsinh);
STRIDEKIT_SAME_VALUE(SK_ARCCOSH, UnaryOp::kArccosh);
STRIDEKIT_SAME_VALUE(SK_ARCTANH, UnaryOp::kArctanh);
STRIDEKIT_SAME_VALUE(SK_EXP2, UnaryOp::kExp2);
STRIDEKIT_SAME_VALUE(SK_LOG2, UnaryOp::kLog2);
STRIDEKIT_SAME_VALUE(SK_LOG10, UnaryOp::kLog10);
STRIDEKIT_SAME_VALUE(SK_CBRT, UnaryOp::kCbrt);
STRIDEKIT_SAME_VALUE(SK_RECIPROCAL, UnaryOp::kReciprocal);
static_assert(std::size(kUnaryOps) == 31, "a unary op without a C value");
STRIDEKIT_SAME_VALUE(SK_ISNAN, PredicateOp::kIsNan);
STRIDEKIT_SAME_VALUE(SK_ISINF, PredicateOp::kIsInf);
STRIDEKIT_SAME_VALUE(SK_ISFINITE, PredicateOp::kIsFinite);
STRIDEKIT_SAME_VALUE(SK_SIGNBIT, PredicateOp::kSignbit);
static_assert(std::size(kPredicateOps) == 4, "a predicate without a C value");

STRIDEKIT_SAME_VALUE(SK_SUM, ReduceOp::kSum);
STRIDEKIT_SAME_VALUE(SK_PROD, ReduceOp::kProd);
STRIDEKIT_SAME_VALUE(SK_RMIN, ReduceOp::kMin);
STRIDEKIT_SAME_VALUE(SK_RMAX, ReduceOp::kMax);
STRIDEKIT_SAME_VALUE(SK_ANY, ReduceOp::kAny);
STRIDEKIT_SAME_VALUE(SK_ALL, ReduceOp::kAll);
STRIDEKIT_SAME_VALUE(SK_MEAN, ReduceOp::kMean);
static_assert(std::size(kReduceOps) == 7, "a reduce op without a C value");

STRIDEKIT_SAME_VALUE(SK_ARGMIN, ArgOp::kArgMin);
STRIDEKIT_SAME_VALUE(SK_ARGMAX, ArgOp::kArgMax);
STRIDEKIT_SAME_VALUE(SK_CUMSUM, ScanOp::kCumsum);
STRIDEKIT_SAME_VALUE(SK_CUMPROD, ScanOp::kCumprod);
STRIDEKIT_SAME_VALUE(SK_CUMMIN, ScanOp::kCummin);
STRIDEKIT_SAME_VALUE(SK_CUMMAX, ScanOp::kCummax);

STRIDEKIT_SAME_VALUE(SK_EQ, CompareOp::kEq);
STRIDEKIT_SAME_VALUE(SK_NE, CompareOp::kNe);
STRIDEKIT_SAME_VALUE(SK_LT, CompareOp::kLt);
STRIDEKIT_SAME_VALUE(SK_LE, CompareOp::kLe);
STRIDEKIT_SAME_VALUE(SK_GT, CompareOp::kGt);
STRIDEKIT_SAME_VALUE(SK_GE, CompareOp::kGe);

#undef STRIDEKIT_SAME_VALUE

}  // namespace
}  // namespace stridekit::capi
