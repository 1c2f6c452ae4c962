#include "cast_scalar.h"

#include <array>

#include "stridekit/error.h"

namespace stridekit::cast {
namespace {

template <typename To, typename... From>
constexpr std::array<CastRowFn, kNumDTypes> RowsTo(TypeList<From...>) {
  return {&CastRow<To, From>...};
}

// kRows[to][from].
template <typename... To>
constexpr std::array<std::array<CastRowFn, kNumDTypes>, kNumDTypes> RowTable(
    TypeList<To...>) {
  return {RowsTo<To>(CastTypes{})...};
}

constexpr auto kRows = RowTable(CastTypes{});

}  // namespace

CastRowFn RowFunction(DType from, DType to) {
  return kRows[size_t(to)][size_t(from)];
}

void CheckCastDType(int32_t raw, const char* op, const char* what) {
  if (!IsValidDType(raw)) {
    Fail(ErrorKind::kUnsupported, op, ": unknown ", what, " dtype ", raw,
         " (valid: 0..", kNumDTypes - 1, ")");
  }
}

}  // namespace stridekit::cast
